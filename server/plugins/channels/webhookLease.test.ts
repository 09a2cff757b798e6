/**
 * The webhook processor's in-flight exclusion holds across processes (issue #21): an event whose
 * processing outlasts its retry back-off (a slow media download) is due again on the clock, yet a second
 * processor (another process, on the same database) does not process it a second time meanwhile; it gives
 * its claim back (the attempt is not counted). With TEST_REDIS_URL each processor has its own Redis leases,
 * as two processes would; without it, both share one in-memory lease store standing for Redis.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { messages, rooms, webhookEvents } from '../../core/db/schema';
import { MemoryLeases, RedisLeases, type Leases } from '../../core/jobs/leases';
import { describeEachDatabase } from '../../testing/testApp';
import { channelsRuntime } from './index';
import { channelsTestApp, companyFixture, eventually, insertChannel, type ChannelsTestApp } from './testFixtures';
import { waInbound } from './testing';
import { WebhookProcessor, type WebhookDeps } from './webhooks';
import type { ChannelRow } from './views';

const redisUrl = process.env.TEST_REDIS_URL;

describeEachDatabase('webhook events in flight across processes', (database) => {
  let t: ChannelsTestApp;
  let wa: ChannelRow;
  const leases: Leases[] = [];

  beforeAll(async () => {
    t = await channelsTestApp(database);
    // The app's own processor stays out of the way: the two below are the two processes.
    channelsRuntime(t.app).webhooks.stop();
    const acme = await companyFixture(t, 'Acme', 'acme.test');
    wa = await insertChannel(t, acme.company, { platform: 'whatsapp', externalId: 'pn-lease', token: 'wa-token' });
  });
  afterAll(async () => {
    await Promise.all(leases.map((l) => l.close()));
    await t?.close();
  });

  function processors(): [WebhookProcessor, WebhookProcessor] {
    const deps = (channelsRuntime(t.app).webhooks as unknown as { deps: WebhookDeps }).deps;
    const prefix = `test-lease-${randomBytes(4).toString('hex')}`;
    const shared = new MemoryLeases(t.clock);
    const make = () => {
      const l = redisUrl ? new RedisLeases(redisUrl, prefix) : shared;
      leases.push(l);
      return new WebhookProcessor({ ...deps, leases: l });
    };
    return [make(), make()];
  }

  it('an event still being processed by one process is not processed by another, even once due again', async () => {
    const [first, second] = processors();
    let downloads = 0;
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const download = t.graph.downloadMedia.bind(t.graph);
    t.graph.media.set('media-slow', { bytes: Buffer.from('png'), mimeType: 'image/png' });
    t.graph.downloadMedia = async (mediaId, token) => {
      downloads++;
      await gate;
      return download(mediaId, token);
    };
    const payload = waInbound(wa.externalId, '15551239001', 'Slow', { id: `wamid.${randomBytes(6).toString('hex')}`, type: 'image', image: { id: 'media-slow', mime_type: 'image/png' } });
    const [event] = await t.db.insert(webhookEvents).values({ provider: 'meta', payload, receivedAt: t.clock.now() }).returning();

    const running = first.processPending();
    await eventually(async () => expect(downloads).toBe(1));
    // Past the first retry's back-off: the event is due again as far as the database can tell.
    t.clock.advance(first.timing.firstRetryMs + 1_000);
    expect(await second.processPending()).toBe(0);
    expect(downloads).toBe(1);
    expect((await t.db.select().from(webhookEvents).where(eq(webhookEvents.id, event.id)))[0].attempts).toBe(1);

    open();
    expect(await running).toBe(1);
    expect(await second.processPending()).toBe(0);
    const [row] = await t.db.select().from(webhookEvents).where(eq(webhookEvents.id, event.id));
    expect(row).toMatchObject({ attempts: 1, error: null, processedAt: expect.any(Date) });
    const stored = await t.db.select({ id: messages.id }).from(messages).innerJoin(rooms, eq(rooms.id, messages.roomId)).where(eq(rooms.channelId, wa.id));
    expect(stored).toHaveLength(1);
    expect(downloads).toBe(1);
  });
});
