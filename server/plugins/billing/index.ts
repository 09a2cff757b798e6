/**
 * Billing plugin (issue #14): plans with limits, a subscription per company through the payments
 * adapter (server/providers/stripe: the official SDK against Stripe or the local fake Stripe),
 * invoices, the provider's signed webhooks. contract/billing.ts lists the routes.
 *
 * Needs: the database, clock and config, the core's plan-limit registry (it sets the policy every
 * plugin's `coreServices.planLimits.check` runs, and reads the bots and broadcast-recipient counts
 * the plugins owning those rows add), the demo data (the Demo Company's subscription).
 * Gives: `billingServicesRef` (the billing service, the Stripe settings, the payments adapter).
 */
import type { FastifyInstance } from 'fastify';
import { coreExtensionPoints, coreServices, createServiceRef, defineServerPlugin } from '../../core/plugins';
import { createPaymentsProvider, stripeConfigOf, type PaymentsProvider, type StripeConfig } from '../../providers/stripe';
import { ensurePlans } from './plans';
import { billingRoutes, billingWebhookRoutes } from './routes';
import { BillingService } from './service';
import { billingDemoSeeder } from './demo';

export { BillingService, PlanLimitError, BILLING_MESSAGES } from './service';

export interface BillingServices {
  billing: BillingService;
  stripe: StripeConfig;
  /** The adapter billing uses; tests may replace it (a StripePayments pointed at a fake on its own port). */
  payments: PaymentsProvider;
}

export const billingServicesRef = createServiceRef<BillingServices>({ id: 'billing.services' });

/** The app's billing services (tests: `billingServices(t.app).payments = …` points billing at a fake Stripe). */
export function billingServices(app: FastifyInstance): BillingServices {
  return app.services.get(billingServicesRef);
}

export const billingPlugin = defineServerPlugin({
  id: 'billing',
  deps: {
    http: coreServices.http,
    rootHttp: coreServices.rootHttp,
    config: coreServices.config,
    db: coreServices.database,
    clock: coreServices.clock,
    planLimits: coreExtensionPoints.planLimits,
    demoData: coreExtensionPoints.demoData,
  },
  provides: { billing: billingServicesRef },
  async init({ http, rootHttp, config, db, clock, planLimits, demoData }) {
    const stripe = stripeConfigOf(config);
    // The service reads `services.payments` at each call: a test may point it at a fake Stripe of its own.
    const billing = new BillingService({ db, clock, payments: () => services.payments, publicUrl: config.publicUrl, usage: planLimits });
    const services: BillingServices = { stripe, payments: createPaymentsProvider(stripe, rootHttp), billing };
    planLimits.setPolicy({ check: (companyId, limit, adding) => services.billing.assertWithinPlan(companyId, limit, adding) });
    demoData.add(billingDemoSeeder(services));
    await ensurePlans(db, stripe.priceIds);
    billingRoutes(http, services.billing);
    await http.register(billingWebhookRoutes(services.billing, () => services.payments, () => Math.floor(clock.now().getTime() / 1000)));
    return { billing: services };
  },
});
