/**
 * The demo's flow (issue #13): one guided tour of the Demo Company, seeded once at start-up
 * (server/main.ts, with the demo data). Its keyword `tour` is distinct from the demo bot's options
 * and hand-over words, so the existing simulator specs are not affected.
 */
import { eq } from 'drizzle-orm';
import { FlowFieldsSchema, type FlowFields } from '../../../contract/flows';
import type { Clock } from '../../core/clock';
import type { Database } from '../../core/db/client';
import { companies } from '../../core/db/schema';
import { FlowService } from './service';

export const DEMO_FLOW_NAME = 'Demo Company tour';
export const DEMO_FLOW_KEYWORD = 'tour';

export const DEMO_FLOW: FlowFields = FlowFieldsSchema.parse({
  flow_name: DEMO_FLOW_NAME,
  description: 'A short guided tour of Demo Company: what we sell, delivery and how to order.',
  company_name: 'Demo Company',
  company_domain: 'demo.example.com',
  extra_context: [
    'Delivery takes 2 to 3 working days in France and 5 days elsewhere in Europe.',
    'Returns are free within 30 days: reply RETURN with your order number.',
    'We are open Monday to Saturday, 9:00 to 19:00.',
    'Every order over 50 EUR ships for free.',
  ],
  intro_msg: 'Welcome to the Demo Company tour! In three short steps you will see what we do.',
  intro_media_url: null,
  find_out_more_msg: 'Want to know more? Our whole catalogue and our stores are on our website.',
  find_out_more_media_url: null,
  call_to_action: 'Visit our website',
  keywords: [DEMO_FLOW_KEYWORD],
  steps: [
    {
      step_id: 'what',
      next_step_id: 'delivery',
      step_msg: 'What would you like to see first?',
      type: 'options',
      options: [
        { text: 'Our products', next_step_id: 'products' },
        { text: 'Delivery', next_step_id: 'delivery' },
      ],
    },
    { step_id: 'products', next_step_id: 'delivery', step_msg: 'We sell home goods made in Europe: lamps, linen and tableware.', type: 'text', options: [] },
    { step_id: 'delivery', next_step_id: null, step_msg: 'Delivery takes 2 to 3 working days, free over 50 EUR.', type: 'text', options: [] },
  ],
});

/** Gives the company (by name) the demo flow unless it has one of that name. Returns its id, or null. */
export async function seedDemoFlow(db: Database, clock: Clock, companyName: string): Promise<number | null> {
  const [company] = await db.select({ id: companies.id }).from(companies).where(eq(companies.name, companyName)).limit(1);
  if (!company) return null;
  const service = new FlowService(db, clock);
  if (await service.findByName(company.id, DEMO_FLOW_NAME)) return null;
  const { flow_name, description, company_name, company_domain, extra_context } = DEMO_FLOW;
  const flow = await service.create(company.id, { flow_name, description, company_name, company_domain, extra_context }, 'demo seed');
  await service.save(company.id, flow.id, DEMO_FLOW, 'demo seed');
  return flow.id;
}
