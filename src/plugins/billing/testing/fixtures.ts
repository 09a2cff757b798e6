/** Billing test fixtures shaped like contract/billing.ts answers. */
import type { Invoice, Plan, PlanTier, Subscription } from '../../../../contract/billing';

const LIMITS: Record<PlanTier, Plan['limits']> = {
  free: { members: 3, channels: 1, bots: 1, broadcast_recipients_per_month: 500, assistant_answers: 100 },
  starter: { members: 10, channels: 3, bots: 5, broadcast_recipients_per_month: 10_000, assistant_answers: 2_000 },
  growth: { members: 25, channels: 10, bots: 20, broadcast_recipients_per_month: 100_000, assistant_answers: 20_000 },
  business: { members: null, channels: null, bots: null, broadcast_recipients_per_month: null, assistant_answers: null },
};

export function plan(id: number, tier: PlanTier, interval: Plan['interval'], extra: Partial<Plan> = {}): Plan {
  const name = tier.charAt(0).toUpperCase() + tier.slice(1);
  const monthly: Record<PlanTier, number> = { free: 0, starter: 2900, growth: 9900, business: 29900 };
  return {
    id,
    code: interval ? `${tier}_${interval}` : tier,
    tier,
    name,
    description: `${name} plan`,
    interval,
    amount: interval === 'year' ? monthly[tier] * 10 : monthly[tier],
    currency: 'usd',
    limits: LIMITS[tier],
    features: [],
    is_free: tier === 'free',
    is_current: false,
    ...extra,
  };
}

export function plans(currentId = 1): Plan[] {
  return [
    plan(1, 'free', null),
    plan(2, 'starter', 'month'),
    plan(3, 'starter', 'year'),
    plan(4, 'growth', 'month'),
    plan(5, 'growth', 'year'),
    plan(6, 'business', 'month'),
    plan(7, 'business', 'year'),
  ].map((p) => ({ ...p, is_current: p.id === currentId }));
}

export function freeSubscription(extra: Partial<Subscription> = {}): Subscription {
  return {
    id: null,
    plan: { ...plan(1, 'free', null), is_current: true },
    status: 'free',
    current_period_start: null,
    current_period_end: null,
    cancel_at_period_end: false,
    canceled_at: null,
    ended_at: null,
    payment_method: null,
    payment_failed: false,
    usage: { members: 2, channels: 1, bots: 0, broadcast_recipients_per_month: 40, assistant_answers: 0 },
    checkout_pending: false,
    ...extra,
  };
}

export function activeSubscription(extra: Partial<Subscription> = {}): Subscription {
  return freeSubscription({
    id: 11,
    plan: { ...plan(2, 'starter', 'month'), is_current: true },
    status: 'active',
    current_period_start: '2026-11-24T00:00:00Z',
    current_period_end: '2026-12-24T12:00:00Z',
    payment_method: { brand: 'visa', last4: '4242', exp_month: 4, exp_year: 2030 },
    ...extra,
  });
}

export function invoice(id: number, extra: Partial<Invoice> = {}): Invoice {
  return {
    id,
    number: `ABCD1234-${String(id).padStart(4, '0')}`,
    created_at: '2026-11-24T12:00:00Z',
    period_start: '2026-11-24T00:00:00Z',
    period_end: '2026-12-24T00:00:00Z',
    amount_due: 2900,
    amount_paid: 2900,
    currency: 'usd',
    status: 'paid',
    plan_name: 'Starter',
    hosted_invoice_url: `https://billing.example.test/invoices/${id}`,
    invoice_pdf: `https://billing.example.test/invoices/${id}.pdf`,
    ...extra,
  };
}
