/**
 * This plugin's part of the generated tenant-isolation test (server/testing/isolation/areas.ts): each
 * company gets business hours (B's away message carries the marker); A reads and writes its own only.
 */
import { eq } from 'drizzle-orm';
import type { IsolationArea } from '../../testing/isolation/areas';
import { defaultBusinessHours } from '../../../contract/businessHours';
import { hoursServiceRef } from './index';
import { businessHours } from './schema';

export const hoursIsolation: IsolationArea = {
  name: 'hours',
  async seed(t, company, mark) {
    const defaults = defaultBusinessHours();
    await t.app.services.get(hoursServiceRef).save(company.id, { ...defaults, enabled: true, time_zone: 'Europe/Paris', away_message: `Closed${mark}` });
    return {};
  },
  async snapshot(t, companyId) {
    return t.db.select().from(businessHours).where(eq(businessHours.companyId, companyId));
  },
  routes: {
    'GET /api/business-hours/': { allowed: [200] },
    'PUT /api/business-hours/': { body: () => ({ ...defaultBusinessHours(), enabled: true, time_zone: 'UTC', away_message: 'Away' }), allowed: [200] },
  },
};
