/**
 * The plan-limit check other plugins call before they create what a plan counts (members and
 * open invites, channels, bots, broadcast recipients this month): over the company's plan it
 * throws a 403 in the API's error shape naming the limit and the plan that lifts it
 * (contract PlanLimitErrorBody). Needs only the database: no payments provider is involved.
 */
import type { PlanLimitKey } from '../../../contract/billing';
import type { Clock } from '../../core/clock';
import type { Database } from '../../core/db/client';
import { unconfiguredPayments } from '../../providers/stripe';
import { BillingService } from './service';

export async function checkPlanLimit(db: Database, clock: Clock, companyId: number, limit: PlanLimitKey, adding = 1): Promise<void> {
  if (adding <= 0) return;
  const billing = new BillingService({ db, clock, payments: () => unconfiguredPayments, publicUrl: '' });
  await billing.assertWithinPlan(companyId, limit, adding);
}
