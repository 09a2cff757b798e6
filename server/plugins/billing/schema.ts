/**
 * Billing (issue #14): plans, one subscription row per company (its Stripe customer and
 * subscription), invoices as the provider reported them, and the webhook events already applied
 * (by the provider's event id, so a replay changes nothing). Shapes as the API shows them:
 * contract/billing.ts. The provider's webhooks are the source of truth for status, periods and invoices.
 */
import { boolean, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { PaymentMethodSummary, PlanLimits, PlanTier } from '../../../contract/billing';
import { companies } from '../../core/db/schema';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const billingPlans = pgTable(
  'billing_plans',
  {
    id: serial('id').primaryKey(),
    code: text('code').notNull(),
    tier: text('tier').$type<PlanTier>().notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    /** 'month' | 'year'; null for Free. */
    interval: text('interval'),
    amount: integer('amount').notNull().default(0),
    currency: text('currency').notNull().default('usd'),
    limits: jsonb('limits').$type<PlanLimits>().notNull(),
    features: jsonb('features').$type<string[]>().notNull().default([]),
    sortOrder: integer('sort_order').notNull().default(0),
    /** A Stripe price id (STRIPE_PRICE_<CODE>); null = the checkout sends the price inline (price_data). */
    stripePriceId: text('stripe_price_id'),
    active: boolean('active').notNull().default(true),
  },
  (t) => [uniqueIndex('billing_plans_code_uq').on(t.code)],
);

export const billingSubscriptions = pgTable(
  'billing_subscriptions',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    stripeCustomerId: text('stripe_customer_id'),
    stripeSubscriptionId: text('stripe_subscription_id'),
    /** The paid plan (null while on Free). */
    planId: integer('plan_id').references(() => billingPlans.id),
    /** contract SubscriptionStatus ('free' without a paid subscription). */
    status: text('status').notNull().default('free'),
    currentPeriodStart: at('current_period_start'),
    currentPeriodEnd: at('current_period_end'),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    canceledAt: at('canceled_at'),
    endedAt: at('ended_at'),
    paymentMethod: jsonb('payment_method').$type<PaymentMethodSummary | null>(),
    /** The checkout started and not completed yet (cleared by checkout.session.completed). */
    pendingCheckoutSessionId: text('pending_checkout_session_id'),
    pendingPlanId: integer('pending_plan_id').references(() => billingPlans.id),
    /** `created` of the newest provider subscription event applied: older ones arriving late are ignored. */
    providerUpdatedAt: at('provider_updated_at'),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('billing_subscriptions_company_uq').on(t.companyId),
    uniqueIndex('billing_subscriptions_customer_uq').on(t.stripeCustomerId),
    index('billing_subscriptions_sub_idx').on(t.stripeSubscriptionId),
  ],
);

export const billingInvoices = pgTable(
  'billing_invoices',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    stripeInvoiceId: text('stripe_invoice_id').notNull(),
    number: text('number'),
    status: text('status').notNull(),
    amountDue: integer('amount_due').notNull().default(0),
    amountPaid: integer('amount_paid').notNull().default(0),
    currency: text('currency').notNull().default('usd'),
    periodStart: at('period_start'),
    periodEnd: at('period_end'),
    planId: integer('plan_id').references(() => billingPlans.id),
    hostedInvoiceUrl: text('hosted_invoice_url'),
    invoicePdf: text('invoice_pdf'),
    /** The invoice's `created` at the provider. */
    createdAt: at('created_at').notNull().defaultNow(),
    /** `created` of the newest event applied to this invoice. */
    providerUpdatedAt: at('provider_updated_at'),
  },
  (t) => [uniqueIndex('billing_invoices_stripe_uq').on(t.stripeInvoiceId), index('billing_invoices_company_idx').on(t.companyId, t.createdAt)],
);

/** Every provider event applied once (its id); a replay finds its row and changes nothing. */
export const billingWebhookEvents = pgTable('billing_webhook_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  companyId: integer('company_id').references(() => companies.id, { onDelete: 'set null' }),
  receivedAt: at('received_at').notNull().defaultNow(),
});
