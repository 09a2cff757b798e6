/**
 * The plan catalog (issue #14): Free, then Starter, Growth and Business, each monthly and yearly.
 * Written into billing_plans at start (by code; ids stay stable), prices in cents (USD).
 * Limits: `null` = unlimited.
 */
import { asc, sql } from 'drizzle-orm';
import type { Plan, PlanLimits, PlanTier } from '../../../contract/billing';
import type { Database } from '../../core/db/client';
import { billingPlans } from './schema';

export type PlanRow = typeof billingPlans.$inferSelect;

interface CatalogTier {
  tier: PlanTier;
  name: string;
  description: string;
  monthly: number;
  yearly: number;
  limits: PlanLimits;
  features: string[];
}

export const FREE_TIER: CatalogTier = {
  tier: 'free',
  name: 'Free',
  description: 'Try the console with a small team.',
  monthly: 0,
  yearly: 0,
  limits: { members: 25, channels: 10, bots: 25, broadcast_recipients_per_month: 2_500, assistant_answers: 100 },
  features: ['Shared inbox', 'Sandbox channel', 'Saved replies'],
};

export const PAID_TIERS: CatalogTier[] = [
  {
    tier: 'starter',
    name: 'Starter',
    description: 'For small teams answering customers every day.',
    monthly: 2_900,
    yearly: 29_000,
    limits: { members: 50, channels: 20, bots: 100, broadcast_recipients_per_month: 25_000, assistant_answers: 2_000 },
    features: ['Everything in Free', 'Broadcasts', 'Bots and flows'],
  },
  {
    tier: 'growth',
    name: 'Growth',
    description: 'For growing teams with several channels.',
    monthly: 7_900,
    yearly: 79_000,
    limits: { members: 200, channels: 50, bots: 500, broadcast_recipients_per_month: 250_000, assistant_answers: 20_000 },
    features: ['Everything in Starter', 'Broadcast engagement stats', 'Priority support'],
  },
  {
    tier: 'business',
    name: 'Business',
    description: 'No limits for large teams.',
    monthly: 19_900,
    yearly: 199_000,
    limits: { members: null, channels: null, bots: null, broadcast_recipients_per_month: null, assistant_answers: null },
    features: ['Everything in Growth', 'Unlimited members, channels and bots', 'Unlimited broadcast recipients'],
  },
];

type PlanInsert = typeof billingPlans.$inferInsert;

export function catalog(priceIds: Record<string, string> = {}): PlanInsert[] {
  const rows: PlanInsert[] = [
    { code: 'free', tier: 'free', name: FREE_TIER.name, description: FREE_TIER.description, interval: null, amount: 0, currency: 'usd', limits: FREE_TIER.limits, features: FREE_TIER.features, sortOrder: 0, stripePriceId: null },
  ];
  PAID_TIERS.forEach((t, i) => {
    for (const interval of ['month', 'year'] as const) {
      const code = `${t.tier}_${interval}`;
      rows.push({
        code,
        tier: t.tier,
        name: t.name,
        description: t.description,
        interval,
        amount: interval === 'month' ? t.monthly : t.yearly,
        currency: 'usd',
        limits: t.limits,
        features: t.features,
        sortOrder: (i + 1) * 10 + (interval === 'month' ? 0 : 1),
        stripePriceId: priceIds[code] ?? null,
      });
    }
  });
  return rows;
}

/** Writes the catalog (insert or update by code): safe to run at every start and from several processes. */
export async function ensurePlans(db: Database, priceIds: Record<string, string> = {}): Promise<void> {
  for (const row of catalog(priceIds)) {
    await db
      .insert(billingPlans)
      .values(row)
      .onConflictDoUpdate({
        target: billingPlans.code,
        set: {
          tier: sql`excluded.tier`,
          name: sql`excluded.name`,
          description: sql`excluded.description`,
          interval: sql`excluded.interval`,
          amount: sql`excluded.amount`,
          currency: sql`excluded.currency`,
          limits: sql`excluded.limits`,
          features: sql`excluded.features`,
          sortOrder: sql`excluded.sort_order`,
          stripePriceId: sql`excluded.stripe_price_id`,
          active: true,
        },
      });
  }
}

export async function allPlans(db: Database): Promise<PlanRow[]> {
  return db.select().from(billingPlans).orderBy(asc(billingPlans.sortOrder), asc(billingPlans.id));
}

export function toPlan(row: PlanRow, currentPlanId: number | null): Plan {
  return {
    id: row.id,
    code: row.code,
    tier: row.tier,
    name: row.name,
    description: row.description,
    interval: row.interval === 'month' || row.interval === 'year' ? row.interval : null,
    amount: row.amount,
    currency: row.currency,
    limits: row.limits,
    features: row.features,
    is_free: row.tier === 'free',
    is_current: row.id === currentPlanId,
  };
}

/** The cheapest plan (by monthly price) whose limit is above `needed`, null when none. */
export function upgradeFor(plans: PlanRow[], limit: keyof PlanLimits, needed: number, current: PlanRow): PlanRow | null {
  const order = ['free', 'starter', 'growth', 'business'];
  return (
    plans
      .filter((p) => p.active && p.interval !== 'year' && order.indexOf(p.tier) > order.indexOf(current.tier))
      .filter((p) => p.limits[limit] === null || (p.limits[limit] as number) >= needed)
      .sort((a, b) => a.amount - b.amount)[0] ?? null
  );
}
