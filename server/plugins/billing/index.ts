/**
 * Billing plugin (issue #14): plans with limits, a subscription per company through the payments
 * adapter (server/providers/stripe: the official SDK against Stripe or the local fake Stripe),
 * invoices, the provider's signed webhooks, and the plan-limit checks other plugins call
 * (billingServices(app).billing.assertWithinPlan). contract/billing.ts lists the routes.
 */
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../core/services';
import { createPaymentsProvider, stripeConfigOf, type PaymentsProvider, type StripeConfig } from '../../providers/stripe';
import { ensurePlans } from './plans';
import { billingRoutes, billingWebhookRoutes } from './routes';
import { BillingService } from './service';

export { BillingService, PlanLimitError, BILLING_MESSAGES } from './service';

export interface BillingServices {
  billing: BillingService;
  stripe: StripeConfig;
  /** The adapter billing uses; tests may replace it (a StripePayments pointed at a fake on its own port). */
  payments: PaymentsProvider;
}

const instances = new WeakMap<Services, BillingServices>();

/** Stripe settings of this app (server/providers/stripe/config.ts). */
export function appStripeConfig(app: FastifyInstance, env: Record<string, string | undefined> = process.env): StripeConfig {
  return stripeConfigOf(app.services.get('Config'), env);
}

export function billingServices(app: FastifyInstance): BillingServices {
  const existing = instances.get(app.services);
  if (existing) return existing;
  const config = app.services.get('Config');
  const stripe = appStripeConfig(app);
  const created: BillingServices = {
    stripe,
    payments: createPaymentsProvider(stripe, app),
    billing: null as unknown as BillingService,
  };
  created.billing = new BillingService({
    db: app.services.get('Database'),
    clock: app.services.get('Clock'),
    payments: () => created.payments,
    publicUrl: config.publicUrl,
  });
  instances.set(app.services, created);
  return created;
}

export default async function billingPlugin(app: FastifyInstance): Promise<void> {
  const services = billingServices(app);
  const clock = app.services.get('Clock');
  await ensurePlans(app.services.get('Database'), services.stripe.priceIds);
  billingRoutes(app, services.billing);
  await app.register(billingWebhookRoutes(services.billing, () => services.payments, () => Math.floor(clock.now().getTime() / 1000)));
}
