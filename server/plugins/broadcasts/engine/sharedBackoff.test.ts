/**
 * A throttle back-off is shared by the processes sending for one number (issue #21): worker A's call
 * meets Meta's 130429 with a minute's Retry-After; worker B, another process on the same database, then
 * makes no call to that number until the minute is over, and sends everything after it. Both workers run
 * on one manual clock; their sleeps return at once (B's short ones move the clock), so nothing waits on
 * real time.
 */
import { eq, sql } from 'drizzle-orm';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { graphApiError } from '../../../providers/meta/graphErrors';
import type { MetaGraph } from '../../../providers/meta/types';
import { describeEachDatabase } from '../../../testing/testApp';
import { channels } from '../../../core/db/schema';
import { channelsTestApp, companyFixture, eventually, insertChannel, type ChannelsTestApp } from '../../channels/testing';
import { broadcastEngineRuntime } from '../index';
import { SendPacer } from './pacer';
import { seedBroadcast, stateCounts, testPhones } from './testing';
import { BroadcastWorker } from './worker';

const RETRY_AFTER_MS = 60_000;

describeEachDatabase('broadcast throttle back-off across processes', (database) => {
  let t: ChannelsTestApp;
  let companyId = 0;
  let channelId = 0;

  beforeAll(async () => {
    t = await channelsTestApp(database);
    // The app's own engine stays out of the way: the two workers below are the two processes.
    await broadcastEngineRuntime(t.app).worker.stop();
    companyId = (await companyFixture(t, 'Acme', 'acme.test')).company;
    const channel = await insertChannel(t, companyId, {
      platform: 'whatsapp',
      externalId: '1555000100',
      token: 'token',
      wabaId: 'waba-1',
      settings: { broadcast_rate: 50, messaging_limit_tier: 'TIER_UNLIMITED' },
    });
    channelId = channel.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  const graph = (send: MetaGraph['sendWhatsApp']) => ({ sendWhatsApp: send }) as unknown as MetaGraph;
  const log = { info: () => undefined, warn: () => undefined, error: () => undefined };
  const store = new RateLimiterMemory({ points: 1_000_000, duration: 5 });

  function worker(sendWhatsApp: MetaGraph['sendWhatsApp'], sleep: (ms: number) => Promise<void>): BroadcastWorker {
    const w = new BroadcastWorker({ db: t.db, clock: t.clock, pacer: new SendPacer(store, t.clock), graph: () => graph(sendWhatsApp), tokenOf: () => 'token', log, changed: () => undefined, sleep });
    w.timing = { ...w.timing, flushMs: 0 };
    return w;
  }
  const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

  it('a 429 met by one process holds the other process’s sends to that number until it is over', async () => {
    const phones = testPhones(12);
    const id = await seedBroadcast(t.db, { companyId, channelId, phones });

    // Process A: every call is throttled with a minute's Retry-After.
    let callsA = 0;
    const a = worker(async () => {
      callsA++;
      throw graphApiError(429, { error: { message: '(#130429) Rate limit hit', code: 130429, type: 'OAuthException' } }, String(RETRY_AFTER_MS / 1000), 'channel');
    }, nextTurn);
    a.kick();
    await eventually(async () => {
      const [row] = await t.db.select({ until: sql<string | null>`${channels.settings}->>'broadcast_throttle_until'` }).from(channels).where(eq(channels.id, channelId));
      expect(Number(row.until)).toBeGreaterThanOrEqual(t.clock.now().getTime() + RETRY_AFTER_MS);
    });
    await a.stop();
    expect(callsA).toBeGreaterThan(0);

    // Process B, whose calls would all succeed: it reads A's back-off and sleeps through it without a call.
    const sent: string[] = [];
    const sleeps: number[] = [];
    const b = worker(
      async (_number, _token, to) => {
        sent.push(to);
        return { messageId: `wamid.${sent.length}` };
      },
      async (ms) => {
        sleeps.push(ms);
        // Pacing waits (under a second) pass on the clock; the back-off waits for the test to move it.
        if (ms < 1_000) t.clock.advance(Math.max(ms, 1));
        await nextTurn();
      },
    );
    b.kick();
    await eventually(async () => expect(sleeps.some((ms) => ms > RETRY_AFTER_MS - 5_000)).toBe(true));
    expect(sent).toEqual([]);

    // Once the minute is over, B sends every recipient, once each.
    t.clock.advance(RETRY_AFTER_MS);
    await eventually(async () => expect(sent).toHaveLength(phones.length), 20_000);
    await b.stop();
    expect(new Set(sent).size).toBe(phones.length);
    expect((await stateCounts(t.db, id)).states).toEqual({ sent: phones.length });
  }, 60_000);
});
