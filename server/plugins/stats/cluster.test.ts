/**
 * The /stats report cache stays per process (docs/architecture.md, "Running as a cluster"), and this is
 * what makes that harmless: two processes (two services on one database and one clock) each compute a
 * report at most once per STATS_REPORT_TTL_MS, so N processes cost at most N computations per interval,
 * and neither answers a report older than twice the TTL, so what one process shows never lags the data
 * (nor the other process) by more than that. Nothing in a report is written anywhere.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { channels, messages, rooms } from '../../core/db/schema';
import { createTestApp, type TestApp } from '../../testing/testApp';
import { STATS_REPORT_TTL_MS, StatsService, type StatsRange, type StatsViewer } from './service';

describe('the stats report cache in a cluster', () => {
  let t: TestApp;
  let companyId = 0;
  let channelId = 0;

  beforeAll(async () => {
    t = await createTestApp();
    companyId = await t.seed.company('Cluster stats');
    [{ id: channelId }] = await t.db.insert(channels).values({ companyId, platform: 'sandbox', name: 'Sandbox', externalId: 'sandbox-cluster' }).returning({ id: channels.id });
  });
  afterAll(async () => {
    await t?.close();
  });

  async function customerWrites(name: string): Promise<void> {
    const at = t.clock.now();
    const [room] = await t.db.insert(rooms).values({ companyId, channelId, externalId: name, name, createdAt: at, lastMessageAt: at }).returning({ id: rooms.id });
    await t.db.insert(messages).values({ companyId, roomId: room.id, origin: 'user', text: 'hello', createdAt: at });
  }

  it('each process computes a report at most once per TTL and none answers one older than twice the TTL', async () => {
    const day = t.clock.now().toISOString().slice(0, 10);
    const viewer: StatsViewer = { companyId, scope: 'company', userId: 1, email: 'boss@cluster.test' };
    const range: StatsRange = { from: day, to: day, tz: 'UTC', channelId: null };
    const [a, b] = [0, 1].map(() => new StatsService({ db: t.db, clock: t.clock, messagingLimits: {} as never }));
    const computed = [a, b].map((s) => vi.spyOn(s as unknown as { computeReport: StatsService['report'] }, 'computeReport'));

    await customerWrites('first');
    for (let i = 0; i < 5; i++) {
      expect((await a.report(viewer, range)).totals.messages_in).toBe(1);
      expect((await b.report(viewer, range)).totals.messages_in).toBe(1);
    }
    expect(computed.map((spy) => spy.mock.calls.length)).toEqual([1, 1]);

    await customerWrites('second');
    t.clock.advance(2 * STATS_REPORT_TTL_MS);
    expect((await a.report(viewer, range)).totals.messages_in).toBe(2);
    expect((await b.report(viewer, range)).totals.messages_in).toBe(2);
    expect(computed.map((spy) => spy.mock.calls.length)).toEqual([2, 2]);
  });
});
