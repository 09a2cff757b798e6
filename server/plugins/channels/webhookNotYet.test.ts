/**
 * An event that cannot be processed yet for an expected reason (NotYetError: a broadcast status that arrives
 * before its send's answer is written, which the engine does within about 100 ms) is tried again by this
 * process half a second later, the attempt not counted, and logged at debug: it waited the 5-s back-off of a
 * failure, with a warning and its stack, many times a second in a broadcast at its full rate. After
 * `notYetMaxMs` from its reception it counts and backs off as any failure (logged at info); any other failure
 * still warns.
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
    channelsRuntime(t.app).webhooks.stop(); // the processors below are the only ones
    const acme = await companyFixture(t, 'Acme', 'acme.test');
    await insertChannel(t, acme.company, { platform: 'whatsapp', externalId: 'pn-notyet', token: 'wa-token' });
  });
  afterAll(() => t?.close());

  const row = async (id: number | null) => (await t.db.select().from(webhookEvents).where(eq(webhookEvents.id, id!)))[0];

  function processorWith(handle: (messageId: string) => void) {
    const deps = (channelsRuntime(t.app).webhooks as unknown as { deps: WebhookDeps }).deps;
    const events = new WebhookEventRegistry();
    const handled: string[] = [];
    events.onMessageStatus(async (_channel, event) => {
      handle(event.messageId!);
      handled.push(event.messageId!);
    });
    const log = { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    const processor = new WebhookProcessor({ ...deps, events, log });
    // Passes run when the test calls them: the retry's own timer (real time) does not fire within the test.
    processor.timing = { ...processor.timing, notYetRetryMs: 60_000 };
    return { processor, log, handled };
  }

  it('are tried again a moment later (notYetRetryMs) without counting an attempt; other failures back off and warn', async () => {
    let recorded = false;
    const { processor, log, handled } = processorWith((id) => {
      if (id === 'wamid.EARLY' && !recorded) throw new NotYetError('Status arrived before its send was recorded.');
      if (id === 'wamid.BROKEN') throw new Error('Something broke.');
    });
    const early = await processor.store(waStatuses('pn-notyet', [{ id: 'wamid.EARLY', status: 'sent' }]));
    const broken = await processor.store(waStatuses('pn-notyet', [{ id: 'wamid.BROKEN', status: 'sent' }]));

    expect(await processor.processPending()).toBe(0);
    expect(await row(early)).toMatchObject({ attempts: 0, processedAt: null, error: 'Status arrived before its send was recorded.' });
    expect(await row(broken)).toMatchObject({ attempts: 1, processedAt: null, error: 'Something broke.' });
    expect(log.debug).toHaveBeenCalledWith({ eventId: early, reason: 'Status arrived before its send was recorded.' }, 'webhook event not processable yet, tried again shortly');
    expect(log.warn).toHaveBeenCalledTimes(1);
    expect(log.warn).toHaveBeenCalledWith(expect.objectContaining({ eventId: broken, err: expect.any(Error) }), 'webhook event failed, will retry');

    // Parked in this process until its moment is over (though due in the database).
    expect(await processor.processPending()).toBe(0);
    expect(handled.filter((id) => id === 'wamid.EARLY')).toHaveLength(0);
    recorded = true; // the engine wrote the send's answer
    t.clock.advance(processor.timing.notYetRetryMs);
    expect(await processor.processPending()).toBe(1);
    expect(await row(early)).toMatchObject({ attempts: 1, processedAt: expect.any(Date), error: null });
    expect(handled).toContain('wamid.EARLY');
    processor.stop();
  });

  it('count as failures once notYetMaxMs has passed since their reception', async () => {
    const { processor, log } = processorWith(() => {
      throw new NotYetError('Status arrived before its send was recorded.');
    });
    // A back-off longer than the jump of the clock below: the counted attempt is not due again in the same pass.
    processor.timing = { ...processor.timing, firstRetryMs: 10 * processor.timing.notYetMaxMs };
    const late = await processor.store(waStatuses('pn-notyet', [{ id: 'wamid.LATE', status: 'sent' }]));
    t.clock.advance(processor.timing.notYetMaxMs);
    expect(await processor.processPending()).toBe(0);
    expect(await row(late)).toMatchObject({ attempts: 1, processedAt: null });
    expect(log.info).toHaveBeenCalledWith({ eventId: late, attempts: 1, reason: 'Status arrived before its send was recorded.' }, 'webhook event not processable yet, will retry');
    expect(log.warn).not.toHaveBeenCalled();
    processor.stop();
  });
});
