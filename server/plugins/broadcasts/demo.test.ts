/** The demo broadcasts: one finished with every outcome, one scheduled for tomorrow; seeded once, readable through the API. */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BroadcastDetail, BroadcastReport } from '../../../contract/broadcasts';
import type { Paged } from '../../../contract/api';
import { whatsappTemplates } from '../../core/db/schema';
import { channelsTestApp, companyFixture, insertChannel, type ChannelsTestApp, type CompanyFixture } from '../channels/testing';
import { DEMO_TEMPLATES } from '../../../contract/demoTemplates';
import { toE164 } from './audience/phone';
import { DEMO_FINISHED, DEMO_SCHEDULED, seedDemoBroadcasts } from './demo';
import { broadcastEngineRuntime } from '.';
import { broadcastRecipients, broadcasts } from './schema';

describe('demo broadcasts', () => {
  let t: ChannelsTestApp;
  let demo: CompanyFixture;

  beforeAll(async () => {
    // The worker is stopped: the scheduled one must stay scheduled whatever the test clock says.
    t = await channelsTestApp('pglite', { onBuild: (app) => void app.addHook('onReady', async () => broadcastEngineRuntime(app).worker.stop()) });
    demo = await companyFixture(t, 'Demo Company', 'demo.test');
    const channel = await insertChannel(t, demo.company, { platform: 'whatsapp', externalId: 'demo-phone' });
    const welcome = DEMO_TEMPLATES.find((d) => d.name === 'welcome_offer')!;
    await t.db.insert(whatsappTemplates).values({ companyId: demo.company, channelId: channel.id, wabaId: 'waba-demo-phone', name: welcome.name, language: welcome.language, category: welcome.category, components: welcome.components, status: 'APPROVED' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('uses valid numbers only', () => {
    for (const [phone] of [...DEMO_FINISHED, ...DEMO_SCHEDULED]) expect(toE164(phone), phone).toBe(phone);
  });

  it('seeds a finished broadcast whose counters match its recipients, and one scheduled for tomorrow; only once', async () => {
    await seedDemoBroadcasts(t.app, 'Demo Company');
    await seedDemoBroadcasts(t.app, 'Demo Company');
    expect(await t.db.select().from(broadcasts)).toHaveLength(2);

    const list = (await demo.call(demo.agent, 'GET', '/api/broadcasts/')).json() as Paged<BroadcastDetail>;
    const finished = list.results.find((b) => b.status === 'completed')!;
    const scheduled = list.results.find((b) => b.status === 'scheduled')!;
    expect(finished).toMatchObject({ name: 'Autumn welcome offer', template_name: 'welcome_offer', n_users: 11, progress: 1 });
    expect(finished.stats).toEqual({ sent: 9, delivered: 8, read: 6, replied: 2, failed: 2, queued: 0, unknown: 0, excluded: 1 });
    expect(scheduled).toMatchObject({ name: 'Weekend flash sale', n_users: 5, time_zone: 'Europe/Paris', stats: { queued: 5, sent: 0 } });
    const now = t.clock.now().getTime();
    expect(new Date(scheduled.scheduled_at!).getTime()).toBeGreaterThan(now);
    expect(new Date(scheduled.scheduled_at!).getTime()).toBeLessThan(now + 49 * 3_600_000);

    const detail = (await demo.call(demo.agent, 'GET', `/api/broadcasts/${finished.id}/`)).json() as BroadcastDetail;
    expect(detail.failures.map((f) => f.code).sort()).toEqual([131026, 131049]);
    expect(detail.excluded.opted_out).toBe(1);
    const report = (await demo.call(demo.agent, 'GET', `/api/broadcasts/${finished.id}/report/`)).json() as BroadcastReport;
    expect(report.data).toHaveLength(DEMO_FINISHED.length);
    const [first] = await t.db.select().from(broadcastRecipients).where(eq(broadcastRecipients.broadcastId, scheduled.id)).orderBy(broadcastRecipients.id);
    expect(first.variables).toEqual({ header: ['Ethan'], body: ['Ethan', '15%'] });
  });
});
