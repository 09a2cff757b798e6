/**
 * Billing (issue #14; spec §2 /pricing, /account and the company picker's plan name, §3 billing
 * state: invoices, account, subscription, plans; §4 subscribing and cancelling; §7 plans,
 * subscriptions, invoices). Shared by the server (server/plugins/billing, server/providers/stripe)
 * and the console (src/plugins/billing).
 *
 * Routes (all under the `Company` header's company; reading needs billing view access, changing
 * it needs billing manage access — admins by default; spec §6: /pricing is checked as billing):
 *   GET    /api/plans/                          PlansResponse {count, next, previous, results: Plan[]}
 *   GET    /api/subscriptions/active/           Subscription (the console passes the page's query
 *                                               string as is, e.g. ?checkout=success&session_id=cs_…
 *                                               after the checkout's return; see ActiveSubscriptionQuery)
 *   POST   /api/subscriptions/                  SubscribeBody {plan_id, proration_date?} → SubscribeResponse {checkout_url}:
 *                                               the console redirects the browser there (window.location);
 *                                               the provider returns to RETURN_PATH (/account?checkout=…)
 *   POST   /api/subscriptions/preview/          PlanChangePreviewBody {plan_id} → PlanChangePreview: what a plan
 *                                               change of a paying company costs now (the provider's proration
 *                                               preview), shown before the change is confirmed
 *   DELETE /api/subscriptions/active/           cancel at the period's end → Subscription
 *                                               (console: 'Subscription cancelled successfully', reload, go to account)
 *   POST   /api/subscriptions/active/resume/    undo a cancellation before the period ends → Subscription
 *   POST   /api/subscriptions/portal/           PortalResponse {url}: the provider's customer portal
 *                                               (payment method), returning to /account
 *   GET    /api/invoices/                       InvoicesResponse (paged, newest first; ?page=&page_size=)
 *   POST   /api/webhooks/stripe/                the provider's signed events (no session; Stripe-Signature)
 *
 * Billing state "account" (spec §3) is the company account, GET /api/companies/{id}/account/
 * (CompanyAccount in ./api.ts); its `subscription_plan_name` comes from the subscription, like the
 * company picker's plan name (spec §2, default FREE_PLAN_LABEL).
 *
 * Plan limits are enforced on the server: going over answers 403 with PlanLimitErrorBody.
 */
import { z } from 'zod';
import type { Paged } from './api';
import { pageQuery } from './team';

// ---------- plans ----------

/** What a plan limits. `null` in PlanLimits = unlimited. */
export const PLAN_LIMIT_KEYS = ['members', 'channels', 'bots', 'broadcast_recipients_per_month', 'assistant_answers'] as const;
export type PlanLimitKey = (typeof PLAN_LIMIT_KEYS)[number];
export type PlanLimits = Record<PlanLimitKey, number | null>;

/** Billing interval of a paid plan; the Free plan has `interval: null`. */
export const PLAN_INTERVALS = ['month', 'year'] as const;
export type PlanInterval = (typeof PLAN_INTERVALS)[number];

/** Plan tiers, cheapest first. Each paid tier exists monthly and yearly (two plans, one `tier`). */
export const PLAN_TIERS = ['free', 'starter', 'growth', 'business'] as const;
export type PlanTier = (typeof PLAN_TIERS)[number];

/** Spec §2: the company picker's plan name when the company has no subscription. */
export const FREE_PLAN_LABEL = 'Free plan';

export interface Plan {
  id: number;
  /** Stable key, e.g. `free`, `starter_month`, `growth_year`. */
  code: string;
  tier: PlanTier;
  /** Display name, e.g. "Free", "Starter", "Growth", "Business" (the company picker shows it; null there = FREE_PLAN_LABEL). */
  name: string;
  description: string;
  interval: PlanInterval | null;
  /** Price per interval in the currency's minor unit (cents); 0 for Free. */
  amount: number;
  /** ISO 4217, lower case as Stripe writes it (`usd`). */
  currency: string;
  limits: PlanLimits;
  /** Feature lines shown on the plan card (English; the console may translate by `code`). */
  features: string[];
  is_free: boolean;
  /** The company's current plan (for the `Company` header's company). */
  is_current: boolean;
}

/** GET /api/plans/ (spec §7: `results`). Free first, then by tier, monthly before yearly. */
export type PlansResponse = Paged<Plan>;

// ---------- subscription ----------

/** Stripe's subscription statuses, plus `free` for a company without a paid subscription. */
export const SUBSCRIPTION_STATUSES = ['free', 'incomplete', 'incomplete_expired', 'trialing', 'active', 'past_due', 'unpaid', 'canceled', 'paused'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];
/** Statuses in which the paid plan applies (its limits, its name in the picker). */
export const PAID_PLAN_STATUSES: readonly SubscriptionStatus[] = ['active', 'trialing', 'past_due'];

export interface PaymentMethodSummary {
  /** `visa`, `mastercard`, … */
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
}

/** Current usage against the plan's limits. */
export type PlanUsage = Record<PlanLimitKey, number>;

/** GET /api/subscriptions/active/ (also the answer of DELETE and resume). */
export interface Subscription {
  /** null while the company is on the Free plan (no paid subscription). */
  id: number | null;
  /** The plan that applies now (Free unless a paid subscription is active, trialing or past_due). */
  plan: Plan;
  status: SubscriptionStatus;
  /** ISO 8601; null on Free. */
  current_period_start: string | null;
  /** ISO 8601: the renewal date, or the end date when cancel_at_period_end. null on Free. */
  current_period_end: string | null;
  cancel_at_period_end: boolean;
  /** ISO 8601 when the cancellation was asked for. */
  canceled_at: string | null;
  /** ISO 8601 when the subscription ended (status canceled). */
  ended_at: string | null;
  /** The card on file, when the provider has one. */
  payment_method: PaymentMethodSummary | null;
  /** The last payment failed (status past_due / incomplete): the console offers the portal. */
  payment_failed: boolean;
  usage: PlanUsage;
  /**
   * A checkout was started and not finished yet (the console may say "Waiting for the payment
   * confirmation…" and reload): true between POST /api/subscriptions/ and the provider's webhook.
   */
  checkout_pending: boolean;
}

/**
 * GET /api/subscriptions/active/ query: the page's query string passed as is (spec §7). After the
 * checkout's return the server uses `session_id` to confirm that checkout with the provider at once
 * (the webhook may not have arrived yet); other parameters are ignored.
 */
export const ActiveSubscriptionQuery = z
  .object({
    checkout: z.enum(['success', 'cancelled']).optional().catch(undefined),
    session_id: z
      .string()
      .trim()
      .max(200)
      .regex(/^cs_[A-Za-z0-9_]+$/, 'Invalid checkout session.')
      .optional()
      .catch(undefined),
  })
  .passthrough();
export type ActiveSubscriptionQuery = z.input<typeof ActiveSubscriptionQuery>;

/** POST /api/subscriptions/ */
const planIdField = z.coerce
  .number({ error: 'A valid integer is required.' })
  .int('A valid integer is required.')
  .min(1, 'Invalid plan.')
  .max(2_147_483_647, 'Invalid plan.');

export const SubscribeBody = z.object({
  plan_id: planIdField,
  /**
   * A plan change only: the `proration_date` of the preview the person confirmed (PlanChangePreview), so the
   * invoice the change produces is the amount they were shown. Absent: prorated from now.
   */
  proration_date: z.coerce.number({ error: 'A valid integer is required.' }).int('A valid integer is required.').min(0).max(4_102_444_800).optional(),
});
export type SubscribeBody = z.input<typeof SubscribeBody>;

export const PlanChangePreviewBody = z.object({ plan_id: planIdField });
export type PlanChangePreviewBody = z.input<typeof PlanChangePreviewBody>;

/** One line of a plan change's invoice: the unused time of the old plan (negative) or the new plan's remaining time. */
export interface PlanChangeLine {
  description: string;
  /** In the currency's smallest unit (cents); negative for a credit. */
  amount: number;
}

/**
 * POST /api/subscriptions/preview/ answer: the invoice a plan change produces at once (Stripe's proration
 * preview, `proration_behavior=always_invoice`), then what each period costs from the next renewal on.
 */
export interface PlanChangePreview {
  plan_id: number;
  currency: string;
  /** Charged now to the saved payment method (0 when the credit covers it; a larger credit is kept for later invoices). */
  amount_due: number;
  /** The lines' sum: negative when moving to a cheaper plan. */
  total: number;
  lines: PlanChangeLine[];
  /** Unix seconds the proration was computed at: send it back with POST /api/subscriptions/ to be billed exactly this. */
  proration_date: number;
  /** The new plan's price per period, billed from `next_renewal_at` on. */
  next_amount: number;
  next_renewal_at: string | null;
}

/**
 * POST /api/subscriptions/ answer. `checkout_url` is the provider's hosted checkout page (a new
 * subscription) or, when the company already pays and changes plan, the account page after the
 * change was applied. The console sets window.location to it.
 */
export interface SubscribeResponse {
  checkout_url: string;
  /** The provider's checkout session id (`cs_…`); null when the plan was changed in place. */
  session_id: string | null;
}

/** Where the provider returns the browser after checkout or the portal (spec §4: the account page). */
export const RETURN_PATH = '/account';
/** Query parameters the provider's return adds (`?checkout=success&session_id=cs_…` or `?checkout=cancelled`). */
export const CHECKOUT_RETURN_PARAMS = { success: 'checkout=success&session_id={CHECKOUT_SESSION_ID}', cancelled: 'checkout=cancelled' } as const;

/** POST /api/subscriptions/portal/ answer. */
export interface PortalResponse {
  url: string;
}

/** Spec §8 success message after DELETE /api/subscriptions/active/. */
export const SUBSCRIPTION_CANCELLED_MESSAGE = 'Subscription cancelled successfully';

// ---------- invoices ----------

/** Stripe's invoice statuses. */
export const INVOICE_STATUSES = ['draft', 'open', 'paid', 'uncollectible', 'void'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export interface Invoice {
  id: number;
  /** The provider's invoice number (e.g. `A1B2C3D4-0001`); null on drafts. */
  number: string | null;
  /** ISO 8601 creation date. */
  created_at: string;
  period_start: string | null;
  period_end: string | null;
  /** Minor units (cents). */
  amount_due: number;
  amount_paid: number;
  currency: string;
  status: InvoiceStatus;
  /** The plan billed (its display name), when known. */
  plan_name: string | null;
  /** The provider's hosted invoice page. */
  hosted_invoice_url: string | null;
  /** The invoice as a PDF. */
  invoice_pdf: string | null;
}

/** GET /api/invoices/ (newest first). */
export type InvoicesResponse = Paged<Invoice>;
export const InvoiceListQuery = z.object({ page: pageQuery.page, page_size: pageQuery.page_size });
export type InvoiceListQuery = z.input<typeof InvoiceListQuery>;

// ---------- plan limits ----------

/**
 * 403 body when an action would go over the company's plan (e.g. inviting a member, connecting a
 * channel, creating a bot, sending a broadcast to more recipients than left this month).
 * `detail` is the message to show; the console adds an upgrade link to /pricing.
 */
export interface PlanLimitErrorBody {
  detail: string;
  code: typeof PLAN_LIMIT_ERROR_CODE;
  limit: PlanLimitKey;
  /** The limit's value on the current plan. */
  max: number;
  /** The current plan's display name. */
  plan: string;
  /** The cheapest plan that lifts the limit (display name), or null when none does. */
  upgrade_plan: string | null;
}
export const PLAN_LIMIT_ERROR_CODE = 'plan_limit_reached';

/** English names of the limits, used in PlanLimitErrorBody.detail. */
export const PLAN_LIMIT_LABELS: Record<PlanLimitKey, string> = {
  members: 'team members',
  channels: 'channels',
  bots: 'bots',
  broadcast_recipients_per_month: 'broadcast recipients per month',
  assistant_answers: 'assistant answers per month',
};

/** The message of PlanLimitErrorBody.detail, e.g. "The Free plan allows 25 team members. Upgrade to Starter to add more." */
export function planLimitMessage(plan: string, limit: PlanLimitKey, max: number, upgradePlan: string | null): string {
  const head = `The ${plan} plan allows ${max.toLocaleString('en-US')} ${PLAN_LIMIT_LABELS[limit]}.`;
  return upgradePlan ? `${head} Upgrade to ${upgradePlan} to add more.` : head;
}

export function isPlanLimitError(body: unknown): body is PlanLimitErrorBody {
  return !!body && typeof body === 'object' && (body as { code?: unknown }).code === PLAN_LIMIT_ERROR_CODE;
}

/** The picker's label for a plan name (spec §2: default "Free plan"). */
export function planLabel(planName: string | null | undefined): string {
  return planName ? (/ plan$/i.test(planName) ? planName : `${planName} plan`) : FREE_PLAN_LABEL;
}
