/**
 * The offline demo's billing (issue #14): the Demo Company subscribes to Growth (monthly) through
 * the fake Stripe's own checkout — the same path a user takes: a checkout session, the hosted
 * page paid with the success card, the signed webhooks — so it starts with an active plan, a card
 * on file and a paid invoice. Run after the app listens (the SDK reaches the fake over HTTP);
 * only in demo mode with the fake Stripe, only while the company has no subscription; never stops the start.
 */
import { and, eq, isNotNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { companies, memberships } from '../../core/db/schema';
import type { Database } from '../../core/db/client';
import type { DemoSeeder } from '../../core/demoData';
import { TEST_CARDS } from '../../providers/stripe/fake/fakeStripe';
import type { BillingServices } from '.';
import { billingPlans, billingSubscriptions } from './schema';

export const DEMO_PLAN_CODE = 'growth_month';

/** The billing plugin's demo seeder: after the app listens (the fake Stripe is reached over HTTP), last of the demo. */
export function billingDemoSeeder(services: BillingServices): DemoSeeder {
  return {
    id: 'billing',
    order: 300,
    phase: 'afterListen',
    seed: async ({ app, config, db, demo }) => config.demo.enabled && seedDemoBilling(app, db, services, demo.companies.demo.name),
  };
}

export async function seedDemoBilling(app: FastifyInstance, db: Database, services: BillingServices, companyName: string): Promise<boolean> {
  if (services.payments.mode !== 'local') return false;
  const [company] = await db.select({ id: companies.id }).from(companies).where(eq(companies.name, companyName));
  if (!company) return false;
  const [existing] = await db
    .select({ id: billingSubscriptions.id })
    .from(billingSubscriptions)
    .where(and(eq(billingSubscriptions.companyId, company.id), isNotNull(billingSubscriptions.stripeSubscriptionId)));
  if (existing) return false;
  const [admin] = await db.select({ userId: memberships.userId }).from(memberships).where(and(eq(memberships.companyId, company.id), eq(memberships.role, 'admin')));
  const [plan] = await db.select({ id: billingPlans.id }).from(billingPlans).where(eq(billingPlans.code, DEMO_PLAN_CODE));
  if (!admin || !plan) return false;

  const { checkout_url } = await services.billing.subscribe(company.id, plan.id, admin.userId);
  // The browser's part, done by the server: the hosted page's form with the success card.
  const res = await fetch(checkout_url.replace(/^https?:\/\/[^/]+/, `http://127.0.0.1:${app.server.address() && typeof app.server.address() === 'object' ? (app.server.address() as { port: number }).port : 0}`), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email: 'billing@demo.test', card_number: TEST_CARDS.success, card_expiry: '12 / 34', card_cvc: '123' }).toString(),
  });
  await res.arrayBuffer();
  if (res.status !== 303) throw new Error(`demo checkout answered ${res.status}`);
  return true;
}
