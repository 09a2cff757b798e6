/**
 * Billing per company: the plan that applies, checkout, cancel at period end and resume, plan
 * changes, the customer portal, invoices, and the provider's webhooks (the source of truth:
 * each event applied once by id; subscription events re-read the subscription from the provider,
 * so their order does not matter; an invoice's status only moves forward).
 */
import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import {
  PAID_PLAN_STATUSES,
  PLAN_LIMIT_ERROR_CODE,
  RETURN_PATH,
  planLimitMessage,
  type Invoice,
  type InvoicesResponse,
  type Plan,
  type PlanLimitErrorBody,
  type PlanChangePreview,
  type PlanLimitKey,
  type PlanUsage,
  type SubscribeResponse,
  type Subscription,
  type SubscriptionStatus,
} from '../../../contract/billing';
import type { Clock } from '../../core/clock';
import type { Database } from '../../core/db/client';
import { prepared, preparedSql } from '../../core/db/prepared';
import type { PlanLimitsRegistry } from '../../core/planLimits';
import { channels, companies, invites, memberships, users } from '../../core/db/schema';
import { ApiError, badRequest, fieldError } from '../../core/errors';
import { PaymentsNotConfiguredError, PaymentsProviderError, type PaymentsProvider, type PriceSpec, type ProviderEvent, type ProviderInvoice, type ProviderSubscription } from '../../providers/stripe/types';
import { allPlans, toPlan, upgradeFor, type PlanRow } from './plans';
import { billingInvoices, billingSubscriptions, billingWebhookEvents } from './schema';

type SubscriptionRow = typeof billingSubscriptions.$inferSelect;
type InvoiceRow = typeof billingInvoices.$inferSelect;

export interface BillingDeps {
  db: Database;
  clock: Clock;
  payments: () => PaymentsProvider;
  /** The console's origin (PUBLIC_URL): the provider returns the browser there. */
  publicUrl: string;
  /** The counts other plugins add for what they own (bots, broadcast recipients): core/planLimits.ts. */
  usage: Pick<PlanLimitsRegistry, 'usage'>;
}

export const BILLING_MESSAGES = {
  notConfigured: 'Payments are not configured on this server.',
  unknownPlan: 'Invalid plan.',
  alreadyFree: 'You are already on the Free plan.',
  freeNeedsCancel: 'To move to the Free plan, cancel your subscription: it stays active until the end of the period.',
  samePlan: 'You are already on this plan.',
  nothingToCancel: 'There is no active subscription to cancel.',
  alreadyCancelling: 'The subscription is already cancelled at the end of the period.',
  nothingToResume: 'There is no cancelled subscription to resume.',
  noCustomer: 'There is no payment method yet: subscribe to a plan first.',
  nothingToChange: 'There is no active subscription to change: subscribe to a plan first.',
  stalePreview: 'This price has expired: review the plan change again.',
} as const;

const INVOICE_RANK: Record<string, number> = { draft: 0, open: 1, uncollectible: 2, paid: 3, void: 3 };

function iso(d: Date | null | undefined): string | null {
  return d ? d.toISOString() : null;
}

/** A provider failure as the API answers it: card problems and refusals 400, unreachable 503, never 500. */
export function paymentsError(err: unknown): ApiError {
  if (err instanceof PaymentsNotConfiguredError) return new ApiError(503, { detail: BILLING_MESSAGES.notConfigured, code: 'payments_not_configured' });
  if (err instanceof PaymentsProviderError) {
    if (err.kind === 'unavailable') return new ApiError(503, { detail: err.userMessage, code: 'payments_unavailable' });
    return badRequest(err.userMessage, 'payments_refused');
  }
  throw err;
}

/** The first instant of `now`'s calendar month (UTC): the broadcast recipients' limit counts from there. */
export function monthStartOf(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

export class PlanLimitError extends ApiError {
  constructor(body: PlanLimitErrorBody) {
    super(403, body as unknown as { detail: string; code: string });
  }
}

export class BillingService {
  private plansCache: { at: number; rows: PlanRow[] } | null = null;

  constructor(private readonly deps: BillingDeps) {}

  private get db(): Database {
    return this.deps.db;
  }

  /** The clock in unix seconds, Stripe's unit (proration dates, event times). */
  private nowSeconds(): number {
    return Math.floor(this.deps.clock.now().getTime() / 1000);
  }

  private async provider<T>(run: (p: PaymentsProvider) => Promise<T>): Promise<T> {
    try {
      return await run(this.deps.payments());
    } catch (err) {
      throw paymentsError(err);
    }
  }

  async plans(): Promise<PlanRow[]> {
    const now = Date.now();
    if (this.plansCache && now - this.plansCache.at < 5_000) return this.plansCache.rows;
    const rows = await allPlans(this.db);
    this.plansCache = { at: now, rows };
    return rows;
  }

  private async freePlan(): Promise<PlanRow> {
    const free = (await this.plans()).find((p) => p.tier === 'free');
    if (!free) throw new Error('billing plans are not seeded');
    return free;
  }

  async row(companyId: number): Promise<SubscriptionRow | null> {
    const statement = prepared(this.db, 'billing_subscription_row', (db, name) =>
      db.select().from(billingSubscriptions).where(eq(billingSubscriptions.companyId, sql.placeholder('companyId'))).prepare(name),
    );
    const [row] = await statement.execute({ companyId });
    return row ?? null;
  }

  /** The plan whose limits apply now. */
  async effectivePlan(companyId: number, row?: SubscriptionRow | null): Promise<PlanRow> {
    const sub = row === undefined ? await this.row(companyId) : row;
    if (sub?.planId && PAID_PLAN_STATUSES.includes(sub.status as SubscriptionStatus)) {
      const plan = (await this.plans()).find((p) => p.id === sub.planId);
      if (plan) return plan;
    }
    return this.freePlan();
  }

  // ---------- reads ----------

  async listPlans(companyId: number): Promise<{ count: number; next: null; previous: null; results: Plan[] }> {
    const current = await this.effectivePlan(companyId);
    const results = (await this.plans()).filter((p) => p.active).map((p) => toPlan(p, current.id));
    return { count: results.length, next: null, previous: null, results };
  }

  async usage(companyId: number): Promise<PlanUsage> {
    const now = this.deps.clock.now();
    const period = { monthStart: monthStartOf(now), now };
    // The counts at the same time (one round trip's wait: /api/subscriptions/active/ on every /account, bench/data),
    // each a statement prepared once (its SQL not built on every call: issue #26). Members, invites and channels are
    // core tables, counted in one statement; bots, this month's broadcast recipients and assistant answers are counted
    // by the plugins owning them.
    const [[counts], bots, recipients, answers] = await Promise.all([
      usageCounts(this.db).execute({ companyId, now: now.toISOString() }),
      this.deps.usage.usage(companyId, 'bots', period),
      this.deps.usage.usage(companyId, 'broadcast_recipients_per_month', period),
      this.deps.usage.usage(companyId, 'assistant_answers', period),
    ]);
    return { members: Number(counts.members) + Number(counts.invites), channels: Number(counts.channels), bots, broadcast_recipients_per_month: recipients, assistant_answers: answers };
  }

  async subscription(companyId: number, query: { session_id?: string } = {}): Promise<Subscription> {
    let row = await this.row(companyId);
    // Back from the checkout: confirm it with the provider at once (the webhook may still be on its way).
    if (row && query.session_id && row.pendingCheckoutSessionId === query.session_id) {
      try {
        const session = await this.deps.payments().retrieveCheckoutSession(query.session_id);
        if (session.status === 'complete' && session.subscriptionId && session.customerId === row.stripeCustomerId) {
          const sub = await this.deps.payments().retrieveSubscription(session.subscriptionId);
          await this.applySubscription(companyId, sub, { clearPending: true });
          row = await this.row(companyId);
        }
      } catch {
        // The webhook will bring it; the answer says the checkout is still pending.
      }
    }
    return this.toSubscription(companyId, row);
  }

  private async toSubscription(companyId: number, row: SubscriptionRow | null): Promise<Subscription> {
    const [plan, usage] = await Promise.all([this.effectivePlan(companyId, row), this.usage(companyId)]);
    // An ended subscription (canceled, incomplete_expired) leaves the company on Free.
    const paid = !!row?.stripeSubscriptionId && !['free', 'canceled', 'incomplete_expired'].includes(row.status);
    const status = (row?.status ?? 'free') as SubscriptionStatus;
    return {
      id: paid ? row!.id : null,
      plan: toPlan(plan, plan.id),
      status: paid ? status : 'free',
      current_period_start: paid ? iso(row!.currentPeriodStart) : null,
      current_period_end: paid ? iso(row!.currentPeriodEnd) : null,
      cancel_at_period_end: paid ? row!.cancelAtPeriodEnd : false,
      canceled_at: paid ? iso(row!.canceledAt) : null,
      ended_at: paid ? iso(row!.endedAt) : null,
      payment_method: row?.paymentMethod ?? null,
      payment_failed: paid && ['past_due', 'unpaid', 'incomplete'].includes(status),
      usage,
      checkout_pending: !!row?.pendingCheckoutSessionId,
    };
  }

  async invoices(companyId: number, page: number, pageSize: number): Promise<InvoicesResponse> {
    const company = eq(billingInvoices.companyId, sql.placeholder('companyId'));
    const countStatement = prepared(this.db, 'billing_invoice_count', (db, name) => db.select({ n: count() }).from(billingInvoices).where(company).prepare(name));
    const pageStatement = prepared(
      this.db,
      'billing_invoice_page',
      (db, name) =>
        db
          .select()
          .from(billingInvoices)
          .where(company)
          .orderBy(desc(billingInvoices.createdAt), desc(billingInvoices.id))
          .limit(sql.placeholder('limit'))
          .offset(sql.placeholder('offset'))
          .prepare(name),
      { planEachCall: true },
    );
    // The count, the page and the plans' names at once.
    const [[{ n }], rows, plans] = await Promise.all([
      countStatement.execute({ companyId }),
      pageStatement.execute({ companyId, limit: pageSize, offset: (page - 1) * pageSize }),
      this.plans(),
    ]);
    const total = Number(n);
    const link = (p: number) => `/api/invoices/?page=${p}&page_size=${pageSize}`;
    return {
      count: total,
      next: page * pageSize < total ? link(page + 1) : null,
      previous: page > 1 ? link(page - 1) : null,
      results: rows.map((r) => this.toInvoice(r, plans)),
    };
  }

  private toInvoice(r: InvoiceRow, plans: PlanRow[]): Invoice {
    return {
      id: r.id,
      number: r.number,
      created_at: r.createdAt.toISOString(),
      period_start: iso(r.periodStart),
      period_end: iso(r.periodEnd),
      amount_due: r.amountDue,
      amount_paid: r.amountPaid,
      currency: r.currency,
      status: r.status as Invoice['status'],
      plan_name: plans.find((p) => p.id === r.planId)?.name ?? null,
      hosted_invoice_url: r.hostedInvoiceUrl,
      invoice_pdf: r.invoicePdf,
    };
  }

  // ---------- changes ----------

  private priceOf(plan: PlanRow): PriceSpec {
    return { priceId: plan.stripePriceId, productName: `${plan.name} (${plan.interval === 'year' ? 'yearly' : 'monthly'})`, amount: plan.amount, currency: plan.currency, interval: plan.interval === 'year' ? 'year' : 'month', planCode: plan.code };
  }

  private returnUrl(query: string): string {
    return `${this.deps.publicUrl.replace(/\/+$/, '')}${RETURN_PATH}${query}`;
  }

  private async ensureRow(companyId: number): Promise<SubscriptionRow> {
    await this.db.insert(billingSubscriptions).values({ companyId }).onConflictDoNothing({ target: billingSubscriptions.companyId });
    return (await this.row(companyId))!;
  }

  private async ensureCustomer(companyId: number, row: SubscriptionRow, email: string | null): Promise<string> {
    if (row.stripeCustomerId) return row.stripeCustomerId;
    const [company] = await this.db.select({ name: companies.name }).from(companies).where(eq(companies.id, companyId));
    const customerId = await this.provider((p) => p.createCustomer({ companyId, name: company?.name ?? `Company ${companyId}`, email }));
    // Two clicks at once: the first customer stored wins; the other is left unused at the provider.
    await this.db.update(billingSubscriptions).set({ stripeCustomerId: customerId, updatedAt: this.deps.clock.now() }).where(and(eq(billingSubscriptions.companyId, companyId), isNull(billingSubscriptions.stripeCustomerId)));
    return (await this.row(companyId))!.stripeCustomerId!;
  }

  /**
   * What a paying company's plan change costs now: the provider's preview of the prorated invoice the change
   * makes at once (credit of the old plan's unused time, charge of the new plan's remaining time).
   */
  async previewChange(companyId: number, planId: number): Promise<PlanChangePreview> {
    const plan = (await this.plans()).find((p) => p.id === planId && p.active);
    if (!plan) throw fieldError('plan_id', BILLING_MESSAGES.unknownPlan);
    const row = await this.ensureRow(companyId);
    const paying = !!row.stripeSubscriptionId && PAID_PLAN_STATUSES.includes(row.status as SubscriptionStatus);
    if (!paying) throw fieldError('plan_id', BILLING_MESSAGES.nothingToChange);
    if (plan.tier === 'free') throw fieldError('plan_id', BILLING_MESSAGES.freeNeedsCancel);
    if (row.planId === plan.id) throw fieldError('plan_id', BILLING_MESSAGES.samePlan);
    const prorationDate = this.nowSeconds();
    const preview = await this.provider((p) => p.previewPriceChange(row.stripeSubscriptionId!, this.priceOf(plan), prorationDate));
    return {
      plan_id: plan.id,
      currency: preview.currency,
      amount_due: preview.amountDue,
      total: preview.total,
      lines: preview.lines,
      proration_date: prorationDate,
      next_amount: plan.amount,
      next_renewal_at: iso(row.currentPeriodEnd),
    };
  }

  async subscribe(companyId: number, planId: number, userId: number, prorationDate?: number): Promise<SubscribeResponse> {
    const plan = (await this.plans()).find((p) => p.id === planId && p.active);
    if (!plan) throw fieldError('plan_id', BILLING_MESSAGES.unknownPlan);
    const row = await this.ensureRow(companyId);
    const paying = !!row.stripeSubscriptionId && PAID_PLAN_STATUSES.includes(row.status as SubscriptionStatus);
    if (plan.tier === 'free') throw fieldError('plan_id', paying ? BILLING_MESSAGES.freeNeedsCancel : BILLING_MESSAGES.alreadyFree);
    if (paying) {
      if (row.planId === plan.id) throw fieldError('plan_id', BILLING_MESSAGES.samePlan);
      // A plan change on the running subscription, prorated and invoiced at once (the amount the preview showed
      // for the same proration date); back to the account page, where the invoice appears.
      const at = this.prorationDate(prorationDate, row);
      const sub = await this.provider((p) => p.changePrice(row.stripeSubscriptionId!, this.priceOf(plan), at));
      await this.applySubscription(companyId, sub, {});
      await this.storeLatestInvoice(companyId, sub);
      return { checkout_url: this.returnUrl('?plan_changed=1'), session_id: null };
    }
    const [user] = await this.db.select({ email: users.email }).from(users).where(eq(users.id, userId));
    const customerId = await this.ensureCustomer(companyId, row, user?.email ?? null);
    const session = await this.provider((p) =>
      p.createCheckoutSession({
        customerId,
        companyId,
        price: this.priceOf(plan),
        successUrl: this.returnUrl('?checkout=success&session_id={CHECKOUT_SESSION_ID}'),
        cancelUrl: this.returnUrl('?checkout=cancelled'),
      }),
    );
    if (!session.url) throw new ApiError(503, { detail: 'The payment provider did not return a checkout page.', code: 'payments_unavailable' });
    await this.db.update(billingSubscriptions).set({ pendingCheckoutSessionId: session.id, pendingPlanId: plan.id, updatedAt: this.deps.clock.now() }).where(eq(billingSubscriptions.companyId, companyId));
    return { checkout_url: session.url, session_id: session.id };
  }

  /**
   * The invoice a plan change just made, stored now so the account page the browser goes to lists it (its
   * webhook may still be on its way; applying it twice is harmless). A failure leaves it to the webhook.
   */
  private async storeLatestInvoice(companyId: number, sub: ProviderSubscription): Promise<void> {
    try {
      const [latest] = await this.deps.payments().listInvoices(sub.customerId, 1);
      if (latest?.subscriptionId === sub.id) await this.applyInvoice(companyId, latest, this.nowSeconds());
    } catch {
      // the webhook brings it
    }
  }

  /**
   * The proration date of a confirmed preview, or now. A preview older than a day (or one from before the
   * current period began) is stale: the person confirms again with the amount as it is now.
   */
  private prorationDate(requested: number | undefined, row: SubscriptionRow): number {
    const now = this.nowSeconds();
    if (requested === undefined) return now;
    const periodStart = row.currentPeriodStart ? Math.floor(row.currentPeriodStart.getTime() / 1000) : -Infinity;
    if (requested > now + 300 || requested < now - 86_400 || requested < periodStart) throw fieldError('proration_date', BILLING_MESSAGES.stalePreview);
    return requested;
  }

  private async activeRow(companyId: number): Promise<SubscriptionRow> {
    const row = await this.row(companyId);
    if (!row?.stripeSubscriptionId || !PAID_PLAN_STATUSES.includes(row.status as SubscriptionStatus)) throw badRequest(BILLING_MESSAGES.nothingToCancel, 'no_subscription');
    return row;
  }

  async cancel(companyId: number): Promise<Subscription> {
    const row = await this.activeRow(companyId);
    if (row.cancelAtPeriodEnd) throw badRequest(BILLING_MESSAGES.alreadyCancelling, 'already_cancelled');
    const sub = await this.provider((p) => p.setCancelAtPeriodEnd(row.stripeSubscriptionId!, true));
    await this.applySubscription(companyId, sub, {});
    return this.toSubscription(companyId, await this.row(companyId));
  }

  async resume(companyId: number): Promise<Subscription> {
    const row = await this.row(companyId);
    if (!row?.stripeSubscriptionId || !row.cancelAtPeriodEnd || !PAID_PLAN_STATUSES.includes(row.status as SubscriptionStatus)) throw badRequest(BILLING_MESSAGES.nothingToResume, 'nothing_to_resume');
    const sub = await this.provider((p) => p.setCancelAtPeriodEnd(row.stripeSubscriptionId!, false));
    await this.applySubscription(companyId, sub, {});
    return this.toSubscription(companyId, await this.row(companyId));
  }

  async portal(companyId: number): Promise<{ url: string }> {
    const row = await this.row(companyId);
    if (!row?.stripeCustomerId) throw badRequest(BILLING_MESSAGES.noCustomer, 'no_customer');
    const url = await this.provider((p) => p.createPortalSession(row.stripeCustomerId!, this.returnUrl('')));
    return { url };
  }

  // ---------- the provider's state ----------

  /** Stores a provider subscription for the company, and the company's plan name (the picker's). */
  async applySubscription(companyId: number, sub: ProviderSubscription, options: { clearPending?: boolean }): Promise<void> {
    const row = await this.ensureRow(companyId);
    // An older subscription's late event does not replace a newer, running one.
    if (row.stripeSubscriptionId && row.stripeSubscriptionId !== sub.id && PAID_PLAN_STATUSES.includes(row.status as SubscriptionStatus) && !PAID_PLAN_STATUSES.includes(sub.status)) return;
    const plans = await this.plans();
    const plan = (sub.planCode ? plans.find((p) => p.code === sub.planCode) : undefined) ?? plans.find((p) => p.id === row.planId) ?? plans.find((p) => p.id === row.pendingPlanId);
    const now = this.deps.clock.now();
    const clear = options.clearPending || (PAID_PLAN_STATUSES.includes(sub.status) && row.pendingCheckoutSessionId !== null);
    await this.db.transaction(async (tx) => {
      await tx
        .update(billingSubscriptions)
        .set({
          stripeSubscriptionId: sub.id,
          stripeCustomerId: row.stripeCustomerId ?? sub.customerId,
          planId: plan?.id ?? row.planId,
          status: sub.status,
          currentPeriodStart: sub.currentPeriodStart,
          currentPeriodEnd: sub.currentPeriodEnd,
          cancelAtPeriodEnd: sub.cancelAtPeriodEnd,
          canceledAt: sub.canceledAt,
          endedAt: sub.endedAt,
          ...(sub.paymentMethod ? { paymentMethod: sub.paymentMethod } : {}),
          ...(clear ? { pendingCheckoutSessionId: null, pendingPlanId: null } : {}),
          providerUpdatedAt: now,
          updatedAt: now,
        })
        .where(eq(billingSubscriptions.companyId, companyId));
      const planName = plan && plan.tier !== 'free' && PAID_PLAN_STATUSES.includes(sub.status) ? plan.name : null;
      await tx.update(companies).set({ planName }).where(eq(companies.id, companyId));
    });
  }

  private async companyOfCustomer(customerId: string | null): Promise<number | null> {
    if (!customerId) return null;
    const [row] = await this.db.select({ companyId: billingSubscriptions.companyId }).from(billingSubscriptions).where(eq(billingSubscriptions.stripeCustomerId, customerId));
    return row?.companyId ?? null;
  }

  private async applyInvoice(companyId: number, invoice: ProviderInvoice, eventCreated: number): Promise<void> {
    const plans = await this.plans();
    const planId = (invoice.planCode ? plans.find((p) => p.code === invoice.planCode)?.id : undefined) ?? (await this.row(companyId))?.planId ?? null;
    const at = new Date(eventCreated * 1000);
    const values = {
      companyId,
      stripeInvoiceId: invoice.id,
      number: invoice.number,
      status: invoice.status,
      amountDue: invoice.amountDue,
      amountPaid: invoice.amountPaid,
      currency: invoice.currency,
      periodStart: invoice.periodStart,
      periodEnd: invoice.periodEnd,
      planId,
      hostedInvoiceUrl: invoice.hostedInvoiceUrl,
      invoicePdf: invoice.invoicePdf,
      createdAt: invoice.created,
      providerUpdatedAt: at,
    };
    const [existing] = await this.db.select().from(billingInvoices).where(eq(billingInvoices.stripeInvoiceId, invoice.id));
    if (!existing) {
      await this.db.insert(billingInvoices).values(values).onConflictDoNothing({ target: billingInvoices.stripeInvoiceId });
      return;
    }
    if (existing.companyId !== companyId) return;
    // Only forward: a late invoice.payment_failed never turns a paid invoice back to open.
    if ((INVOICE_RANK[invoice.status] ?? 0) < (INVOICE_RANK[existing.status] ?? 0)) return;
    await this.db.update(billingInvoices).set(values).where(eq(billingInvoices.id, existing.id));
  }

  /**
   * One verified event. Returns false for a replay (already applied). Subscription and checkout
   * events re-read the subscription from the provider, so their order does not matter.
   */
  async handleEvent(event: ProviderEvent): Promise<boolean> {
    const [seen] = await this.db.select({ id: billingWebhookEvents.id }).from(billingWebhookEvents).where(eq(billingWebhookEvents.id, event.id));
    if (seen) return false;
    const payments = this.deps.payments();
    let companyId: number | null = null;
    if (event.type === 'checkout.session.completed' || event.type === 'checkout.session.expired') {
      const session = payments.checkoutSessionFrom(event.object);
      companyId = await this.companyOfCustomer(session.customerId);
      // The session must be the company's (its customer), whatever client_reference_id says.
      if (companyId !== null && event.type === 'checkout.session.completed' && session.subscriptionId) {
        const sub = await payments.retrieveSubscription(session.subscriptionId);
        await this.applySubscription(companyId, sub, { clearPending: true });
      } else if (companyId !== null && event.type === 'checkout.session.expired') {
        await this.db.update(billingSubscriptions).set({ pendingCheckoutSessionId: null, pendingPlanId: null }).where(and(eq(billingSubscriptions.companyId, companyId), eq(billingSubscriptions.pendingCheckoutSessionId, session.id)));
      }
    } else if (event.type.startsWith('customer.subscription.')) {
      const fromEvent = payments.subscriptionFrom(event.object);
      companyId = await this.companyOfCustomer(fromEvent.customerId);
      if (companyId !== null && fromEvent.id) {
        const current = await payments.retrieveSubscription(fromEvent.id);
        await this.applySubscription(companyId, current, {});
      }
    } else if (event.type.startsWith('invoice.')) {
      const invoice = payments.invoiceFrom(event.object);
      companyId = await this.companyOfCustomer(invoice.customerId);
      if (companyId !== null && invoice.id) await this.applyInvoice(companyId, invoice, event.created);
    }
    const inserted = await this.db.insert(billingWebhookEvents).values({ id: event.id, type: event.type, companyId }).onConflictDoNothing().returning({ id: billingWebhookEvents.id });
    return inserted.length > 0;
  }

  // ---------- plan limits ----------

  /**
   * Refuses (403, PlanLimitErrorBody) when adding `adding` of `limit` would go over the company's
   * plan. Other plugins call it before they create what the plan counts.
   */
  async assertWithinPlan(companyId: number, limit: PlanLimitKey, adding = 1): Promise<void> {
    const plan = await this.effectivePlan(companyId);
    const max = plan.limits[limit];
    if (max === null || max === undefined) return;
    const used = (await this.usage(companyId))[limit];
    if (used + adding <= max) return;
    const upgrade = upgradeFor(await this.plans(), limit, used + adding, plan);
    throw new PlanLimitError({
      detail: planLimitMessage(plan.name, limit, max, upgrade?.name ?? null),
      code: PLAN_LIMIT_ERROR_CODE,
      limit,
      max,
      plan: plan.name,
      upgrade_plan: upgrade?.name ?? null,
    });
  }
}

/**
 * The usage counts billing makes itself (members, open invites, channels) in one statement, prepared once per
 * database: three statements side by side took three pooled connections and three round trips for three integers.
 */
function usageCounts(db: Database) {
  return preparedSql<{ members: number; invites: number; channels: number }>(db, 'billing_usage_counts', () => {
    const companyId = sql.placeholder('companyId');
    return sql`select
      (select count(*) from ${memberships} where ${memberships.companyId} = ${companyId})::int as members,
      (select count(*) from ${invites}
        where ${invites.companyId} = ${companyId} and ${invites.acceptedAt} is null and ${invites.revokedAt} is null
          and ${invites.declinedAt} is null and ${invites.expiresAt} > ${sql.placeholder('now')})::int as invites,
      (select count(*) from ${channels}
        where ${channels.companyId} = ${companyId} and ${channels.platform} <> 'sandbox' and ${channels.status} <> 'disconnected')::int as channels`;
  });
}
