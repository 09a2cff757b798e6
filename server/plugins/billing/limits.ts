/**
 * TRANSITIONAL (issue #20): the plan-limit check of the plugins not yet on
 * `coreServices.planLimits.check` (bots, channels, broadcasts). Deleted once they have switched:
 * the billing plugin sets the same check as the core's plan-limit policy (./index.ts).
 * Until then it counts bots and this month's broadcast recipients itself, as the billing service
 * did before those plugins added their usage counters.
 */
import { and, count, eq, gte, sql } from 'drizzle-orm';
import type { PlanLimitKey } from '../../../contract/billing';
import type { Clock } from '../../core/clock';
import type { Database } from '../../core/db/client';
import type { PlanLimitsRegistry } from '../../core/planLimits';
import { unconfiguredPayments } from '../../providers/stripe';
import { bots } from '../bots/schema';
import { broadcastRecipients } from '../broadcasts/schema';
import { BillingService } from './service';

/** TRANSITIONAL: what the bots and broadcasts plugins' usage counters count (recipients: excluded ones not counted). */
function legacyUsage(db: Database): Pick<PlanLimitsRegistry, 'usage'> {
  return {
    async usage(companyId, limit, { monthStart }) {
      if (limit === 'bots') return Number((await db.select({ n: count() }).from(bots).where(eq(bots.companyId, companyId)))[0].n);
      if (limit !== 'broadcast_recipients_per_month') return 0;
      const [row] = await db
        .select({ n: count() })
        .from(broadcastRecipients)
        .where(and(eq(broadcastRecipients.companyId, companyId), gte(broadcastRecipients.createdAt, monthStart), sql`${broadcastRecipients.state} <> 'excluded'`));
      return Number(row.n);
    },
  };
}

/** TRANSITIONAL (issue #20): use `coreServices.planLimits.check(companyId, limit, adding)`. */
export async function checkPlanLimit(db: Database, clock: Clock, companyId: number, limit: PlanLimitKey, adding = 1): Promise<void> {
  if (adding <= 0) return;
  const billing = new BillingService({ db, clock, payments: () => unconfiguredPayments, publicUrl: '', usage: legacyUsage(db) });
  await billing.assertWithinPlan(companyId, limit, adding);
}
