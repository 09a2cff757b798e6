/**
 * GET /api/health/ and GET /api/ready/ (core/health.ts): ready when the database answers, this build's
 * migrations are applied, Redis (when configured) answers and the media store is reachable and usable by a
 * cluster; 503 naming what failed otherwise, and 503 `draining` once SIGTERM started the drain.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/testApp';
import { Readiness, MEDIA_CHECK_CACHE_MS } from './health';
import { testConfig } from './config';
import { MemoryMediaStorage } from '../providers/storage/memory';
import type { MediaStorage } from '../providers/storage/types';

/** A media store whose reachability the test sets. */
class SwitchableMedia extends MemoryMediaStorage {
  reachable = true;
  checks = 0;
  async check(): Promise<void> {
    this.checks++;
    if (!this.reachable) throw new Error('bucket unreachable');
  }
}

describe('health and readiness', () => {
  let t: TestApp;
  const media = new SwitchableMedia();
  beforeAll(async () => {
    t = await createTestApp({ plugins: [], overrides: { MediaStorage: media } });
  });
  afterAll(() => t.close());

  const readiness = (config: Partial<Parameters<typeof testConfig>[0]>, storage: MediaStorage = media) =>
    new Readiness({ config: testConfig(config), db: t.db, media: () => storage, clock: t.clock, log: t.app.log, timeoutMs: 2_000 });

  it('health: alive with a database round trip', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health/' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', database: 'ok' });
  });

  it('ready: every check passes on one process without Redis', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/ready/' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ready', database: 'ok', migrations: 'ok', redis: 'not configured', media: 'ok' });
  });

  it('ready: 503 naming the media store when it cannot be reached, asked again once the cached success ran out', async () => {
    media.reachable = false;
    // The last success is cached for a while (a bucket bills every probe)…
    expect((await t.app.inject({ method: 'GET', url: '/api/ready/' })).statusCode).toBe(200);
    // …then the store is asked again.
    t.clock.advance(MEDIA_CHECK_CACHE_MS);
    const res = await t.app.inject({ method: 'GET', url: '/api/ready/' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ status: 'not_ready', failed: ['media'], media: 'unreachable', database: 'ok', migrations: 'ok' });
    media.reachable = true;
    expect((await t.app.inject({ method: 'GET', url: '/api/ready/' })).statusCode).toBe(200);
  });

  it('a cluster (REDIS_URL) with media on a local folder not marked shared is not ready, and says why', async () => {
    // Redis unreachable here too (port 1): both are named.
    const cluster = readiness({ redisUrl: 'redis://127.0.0.1:1' });
    const { ready, results } = await cluster.checks().finally(() => cluster.close());
    expect(ready).toBe(false);
    expect(results.redis).toMatch(/^unreachable/);
    expect(results.media).toContain('MEDIA_SHARED=true');
    expect(results.media).toContain('S3_BUCKET');
    expect(results.database).toBe('ok');
  });

  it.skipIf(!process.env.TEST_REDIS_URL)('a cluster with a shared folder (MEDIA_SHARED) and Redis reachable is ready [redis]', async () => {
    const unshared = readiness({ redisUrl: process.env.TEST_REDIS_URL! });
    const shared = readiness({ redisUrl: process.env.TEST_REDIS_URL!, mediaShared: true });
    try {
      expect((await unshared.checks()).results).toMatchObject({ redis: 'ok', media: expect.stringContaining('MEDIA_SHARED') });
      expect(await shared.checks()).toMatchObject({ ready: true, results: { redis: 'ok', media: 'ok' } });
    } finally {
      await unshared.close();
      await shared.close();
    }
  });

  it('ready: 503 draining once the drain started (health still answers)', async () => {
    t.app.readiness.startDraining();
    const res = await t.app.inject({ method: 'GET', url: '/api/ready/' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ status: 'draining' });
    expect((await t.app.inject({ method: 'GET', url: '/api/health/' })).statusCode).toBe(200);
  });
});
