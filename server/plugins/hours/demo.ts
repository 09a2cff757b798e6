/**
 * The demo company's business hours (issue #22): Monday to Friday 09:00–12:30 and 13:30–18:00,
 * Saturday 10:00–14:00, closed on Sunday, in Paris, with an away message, the switch that sends it
 * left off: the demo's inbox (and the end-to-end tests on it) answers the same at any hour until an
 * admin turns it on in the Business hours card. Seeded once (a company that has hours keeps them).
 */
import type { Tx } from '../../core/db/client';
import { businessHours } from './schema';


export async function seedDemoHours(tx: Tx, companyId: number): Promise<void> {
  const weekday = () => [
    { open: '09:00', close: '12:30' },
    { open: '13:30', close: '18:00' },
  ];
  await tx
    .insert(businessHours)
    .values({
      companyId,
      enabled: false,
      timeZone: 'Europe/Paris',
      days: { mon: weekday(), tue: weekday(), wed: weekday(), thu: weekday(), fri: weekday(), sat: [{ open: '10:00', close: '14:00' }], sun: [] },
      awayMessage: 'Thanks for writing to Demo Company! We are closed right now; our team answers Monday to Friday 9:00–18:00 and Saturday 10:00–14:00 (Paris time).',
    })
    .onConflictDoNothing();
}
