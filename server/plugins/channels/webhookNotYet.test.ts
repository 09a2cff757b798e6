/**
 * An event that cannot be processed yet for an expected reason (NotYetError: a broadcast status that arrives
 * before its send's answer is written) is retried as any failure, but logged as the ordinary event it is: a
 * broadcast at its full rate meets it many times a second, and a warning with its stack each time buried the
 * warnings that matter. Any other failure still warns.
 */
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { webhookEvents } from '../../core/db/schema';
import { NotYetError } from '../../core/jobs/backgroundJob';
import { describeEachDatabase } from '../../testing/testApp';
import { channelsRuntime } from './index';
import { channelsTestApp, companyFixture, insertChannel, type ChannelsTestApp } from './testFixtures';
import { waStatuses } from './testing';
import { WebhookEventRegistry } from './webhookEvents';
import { WebhookProcessor, type WebhookDeps } from './webhooks';

describeEachDatabase('webhook events not processable yet', (database) => {
  let t: ChannelsTestApp;

  beforeAll(async () => {
    t = await channelsTestApp(database);
    channelsRuntime(t.app).webhooks.stop(); // the processor below is the only one
    const acme = await companyFixture(t, 'Acme', 'acme.test');
    await insertChannel(t, acme.company, { platform: 'whatsapp', externalId: 'pn-notyet', token: 'wa-token' });
  });
  afterAll(() => t?.close());

  it('are retried and logged at info without their stack; other failures warn', async () => {
    const deps = (channelsRuntime(t.app).webhooks as unknown as { deps: WebhookDeps }).deps;
    const events = new WebhookEventRegistry();
    events.onMessageStatus(async (_channel, event) => {
      if (event.messageId === 'wamid.EARLY') throw new NotYetError('Status arrived before its send was recorded.');
      throw new Error('Something broke.');
    });
    const log = { ...deps.log, info: vi.fn(), warn: vi.fn(), error: vi.fn() } as unknown as WebhookDeps['log'];
    const processor = new WebhookProcessor({ ...deps, events, log });

    const early = await processor.store(waStatuses('pn-notyet', [{ id: 'wamid.EARLY', status: 'sent' }]));
    const broken = await processor.store(waStatuses('pn-notyet', [{ id: 'wamid.BROKEN', status: 'sent' }]));
    expect(await processor.processPending()).toBe(0);
    processor.stop();

    const row = async (id: number | null) => (await t.db.select().from(webhookEvents).where(eq(webhookEvents.id, id!)))[0];
    expect(await row(early)).toMatchObject({ attempts: 1, processedAt: null, error: 'Status arrived before its send was recorded.' });
    expect(await row(broken)).toMatchObject({ attempts: 1, processedAt: null, error: 'Something broke.' });
    expect(log.info).toHaveBeenCalledWith({ eventId: early, attempts: 1, reason: 'Status arrived before its send was recorded.' }, 'webhook event not processable yet, will retry');
    expect(log.warn).toHaveBeenCalledTimes(1);
    expect(log.warn).toHaveBeenCalledWith(expect.objectContaining({ eventId: broken, err: expect.any(Error) }), 'webhook event failed, will retry');
  });
});
