/** The demo company's business hours (issue #22, ./demo.ts): a week in Paris with an away message, its switch off. */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BusinessHours } from '../../../contract/businessHours';
import { companies } from '../../core/db/schema';
import { DEMO } from '../../core/seed';
import { createTestApp, type TestApp } from '../../testing/testApp';

describe('hours demo', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await t.seed.demo();
  });
  afterAll(async () => t?.close());

  it('gives the demo company its week in Paris and an away message, ready to switch on', async () => {
    const login = await t.login(DEMO.admin.email, t.config.demoPassword);
    const [demo] = await t.db.select({ id: companies.id }).from(companies).where(eq(companies.name, DEMO.companies.demo.name));
    const res = await t.app.inject({ method: 'GET', url: '/api/business-hours/', headers: t.headers(login.access, demo.id) });
    expect(res.statusCode, res.body).toBe(200);
    const hours = res.json<BusinessHours>();
    expect(hours).toMatchObject({ enabled: false, time_zone: 'Europe/Paris', open_now: false });
    expect(hours.days.mon).toEqual([{ open: '09:00', close: '12:30' }, { open: '13:30', close: '18:00' }]);
    expect(hours.days.sun).toEqual([]);
    expect(hours.away_message).toMatch(/closed right now/);
  });
});
