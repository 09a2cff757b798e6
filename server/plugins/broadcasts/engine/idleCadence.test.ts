/**
 * How often an idle engine looks at the database: every `idleTickMs` with nothing in view, at once when kicked (a
 * broadcast created or resumed in this process, even while a look is under way), and at a scheduled broadcast's
 * due time when the last look saw it, so a process at rest asks a few statements every few seconds, not four a
 * second, and a scheduled broadcast still starts on time.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it, vi, type Mock } from 'vitest';
import type { StartedFakeMeta } from '../../../providers/meta/fake/fakeMeta';
import { describeEachDatabase } from '../../../testing/testApp';
import { companyFixture, eventually, insertChannel, type ChannelsTestApp } from '../../channels/testing';
import { broadcasts } from '../schema';
import type { BroadcastEngineRuntime } from './index';
import { seedBroadcast, startEngineTestApp, stateCounts, testPhones } from './testing';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describeEachDatabase('broadcast engine: the idle cadence', (database) => {
  let fake: StartedFakeMeta;
  let t: ChannelsTestApp;
  let engine: BroadcastEngineRuntime;
  let companyId = 0;
  let channelId = 0;
  let ticks: Mock<() => Promise<void>>;

  beforeAll(async () => {
    ({ fake, t, engine } = await startEngineTestApp(database));
    const acme = await companyFixture(t, 'Idle Co', 'idle.test');
    companyId = acme.company;
    const signup = fake.state.createWhatsAppBusiness({ businessName: 'Idle Co', phoneNumber: '+1 555 0199' });
    fake.state.data.phoneNumbers[signup.phoneNumberId].registered = true;
    const token = fake.state.issueBusinessToken(signup.wabaId);
    channelId = (await insertChannel(t, companyId, { platform: 'whatsapp', externalId: signup.phoneNumberId, token, wabaId: signup.wabaId, settings: { broadcast_rate: 50, messaging_limit_tier: 'TIER_UNLIMITED' } })).id;
    // A minute between idle looks: anything that happens sooner was asked for (a kick, a due time).
    engine.worker.timing = { ...engine.worker.timing, tickMs: 50, idleTickMs: 60_000 };
    const tick = engine.worker.tick.bind(engine.worker);
    ticks = vi.fn(tick);
    engine.worker.tick = ticks;
    engine.worker.kick();
    await settled();
  });

  /**
   * No look under way and none due before the idle cadence: a look the start's 100-ms cadence had due, or one asked
   * again at once by a kick that came during a look, has run (its timer, set before `idle` resolves, fires before
   * this one's).
   */
  async function settled(): Promise<void> {
    await engine.worker.idle();
    await sleep(100);
    await engine.worker.idle();
  }
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('with nothing in view, an engine does not look again for its idle cadence', async () => {
    await settled();
    ticks.mockClear();
    await sleep(1_000);
    // With the old half-second interval: two looks in this second (four statements).
    expect(ticks).not.toHaveBeenCalled();
  });

  it('a kick while a look is under way is not lost: the engine looks again at once', async () => {
    await settled();
    ticks.mockClear();
    engine.worker.kick();
    engine.worker.kick(); // during the first look, which may have read the broadcasts before this kick's cause
    await eventually(async () => expect(ticks).toHaveBeenCalledTimes(2), 5_000);
    await engine.worker.idle();
    await sleep(300);
    expect(ticks).toHaveBeenCalledTimes(2);
  });

  it('a broadcast scheduled a second ahead starts at its time, not at the next idle look', async () => {
    const scheduledAt = new Date(Date.now() + 1_200);
    const id = await seedBroadcast(t.db, { companyId, channelId, phones: testPhones(3, 900), status: 'scheduled', scheduledAt });
    await engine.start(id); // as the service does when it creates one
    expect((await stateCounts(t.db, id)).status).toBe('scheduled');
    const done = await eventually(async () => {
      const counts = await stateCounts(t.db, id);
      if (counts.status !== 'completed') throw new Error(`still ${counts.status}`);
      return counts;
    }, 15_000);
    expect(done.states).toEqual({ sent: 3 });
    const [row] = await t.db.select({ startedAt: broadcasts.startedAt }).from(broadcasts).where(eq(broadcasts.id, id));
    expect(row.startedAt!.getTime()).toBeGreaterThanOrEqual(scheduledAt.getTime());
  });

  it('a broadcast scheduled an hour ahead: the engine waits its idle cadence, not a look after look', async () => {
    const id = await seedBroadcast(t.db, { companyId, channelId, phones: testPhones(1, 950), status: 'scheduled', scheduledAt: new Date(Date.now() + 3_600_000) });
    await engine.start(id);
    await settled();
    ticks.mockClear();
    await sleep(1_000);
    expect(ticks).not.toHaveBeenCalled();
    expect((await stateCounts(t.db, id)).status).toBe('scheduled');
  });
});
