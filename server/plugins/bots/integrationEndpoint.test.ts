import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BotIntegration } from '../../../contract/bots';
import { buildApp } from '../../core/app';
import { serverPlugins } from '../../plugins.config';
import { createTestApp, type TestApp } from '../../testing/testApp';
import { BOT_SERVICE_BASE as BASE, botServiceCompany, type BotServiceCompany } from './testing';

// Issue #25: behind TRUST_PROXY, `X-Forwarded-Host: evil.test` made GET /api/bots/integration/ hand out
// `https://evil.test/bot-service` next to the real key.
describe('the bot integration endpoint is built on PUBLIC_URL or this server’s own name, never a forwarded one', () => {
  let t: TestApp;
  let A: BotServiceCompany;
  beforeAll(async () => {
    t = await createTestApp();
    A = await botServiceCompany(t, 'Endpoint', 'endpoint.test');
  });
  afterAll(() => t.close());

  it('with TRUST_PROXY: a forwarded foreign host gives PUBLIC_URL; a forwarded own name is kept', async () => {
    const proxied = await buildApp({ plugins: serverPlugins, config: { ...t.config, trustProxy: true }, db: t.db, overrides: { Clock: t.clock } });
    try {
      const get = async (url: string, headers: Record<string, string>) =>
        (await proxied.inject({ method: 'GET', url, headers: { ...t.headers(A.f.admin.access, A.f.company), ...headers } })).json();
      const evil = { 'x-forwarded-host': 'evil.test', 'x-forwarded-proto': 'https' };
      const integration = (await get('/api/bots/integration/', evil)) as BotIntegration;
      expect(integration).toEqual({ endpoint: `http://console.test${BASE}`, access_key: A.key });
      const list = (await get('/api/bot-integrations/', evil)) as { results: { endpoint: string }[] };
      expect(list.results.map((r) => r.endpoint)).toEqual([`http://console.test${BASE}`]);
      // PUBLIC_URL's own host, and a loopback name (a console opened at 127.0.0.1 fetches the service's document there).
      expect(((await get('/api/bots/integration/', { 'x-forwarded-host': 'console.test', 'x-forwarded-proto': 'https' })) as BotIntegration).endpoint).toBe(`http://console.test${BASE}`);
      expect(((await get('/api/bots/integration/', { 'x-forwarded-host': '127.0.0.1:3000', 'x-forwarded-proto': 'http' })) as BotIntegration).endpoint).toBe(`http://127.0.0.1:3000${BASE}`);
    } finally {
      await proxied.close();
    }
  });

  it('without a proxy: a Host that is not this server gives PUBLIC_URL', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/bots/integration/', headers: { ...t.headers(A.f.admin.access, A.f.company), host: 'evil.test' } });
    expect((res.json() as BotIntegration).endpoint).toBe(`http://console.test${BASE}`);
  });
});
