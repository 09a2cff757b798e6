/**
 * The demo's figures (issue #14): after the demo seed and seedDemoStats, the demo agent's first
 * response times over the demo inbox are the ones its conversations were written with
 * (../sandbox/demo.ts: 20, 100, 100, 50 and 15 minutes), and a second run changes nothing.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { StatsReport } from '../../../contract/stats';
import { companies } from '../../core/db/schema';
import { DEMO } from '../../core/seed';
import { createTestApp, describeEachDatabase, type TestApp } from '../../testing/testApp';
import { seedDemoStats } from './demo';
import { dayIn } from './service';

describeEachDatabase('stats demo', (database) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ database });
    await t.seed.demo();
  });
  afterAll(async () => t?.close());

  it('attributes the demo inbox’s replies to the demo agent once, whose figures the stats then show', async () => {
    expect(await seedDemoStats(t.db, DEMO.companies.demo.name, DEMO.agent.email)).toBeGreaterThan(0);
    expect(await seedDemoStats(t.db, DEMO.companies.demo.name, DEMO.agent.email)).toBe(0);

    const login = await t.login(DEMO.admin.email, t.config.demoPassword);
    const [demoCompany] = await t.db.select({ id: companies.id }).from(companies).where(eq(companies.name, DEMO.companies.demo.name));
    const now = t.clock.now();
    const from = dayIn(new Date(now.getTime() - 7 * 86_400_000), 'UTC');
    const to = dayIn(now, 'UTC');
    const res = await t.app.inject({ method: 'GET', url: `/api/stats/?from=${from}&to=${to}&tz=UTC`, headers: t.headers(login.access, demoCompany.id) });
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json() as StatsReport;
    expect(r.totals.conversations_started).toBe(5);
    expect(r.agents).toEqual([expect.objectContaining({ email: DEMO.agent.email, name: 'Alex Agent', first_response: { median: 3000, p90: 6000, count: 5 } })]);
    // Issue #22: the demo's CSAT ratings (../chats/demo.ts): 5, 4 and 2 for the agent, 5 for the admin.
    expect(r.csat).toMatchObject({ responses: 4, satisfied: 3, score: 75 });
    expect(r.csat.agents.map((a) => [a.email, a.responses, a.score])).toEqual([
      [DEMO.admin.email, 1, 100],
      [DEMO.agent.email, 3, 66.7],
    ]);
  });
});
