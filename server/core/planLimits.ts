/**
 * Plan limits as the core sees them: a plugin that creates something a plan counts (members and open
 * invites, channels, bots, broadcast recipients this month) asks `coreServices.planLimits.check` first.
 * The billing plugin sets the policy (its plans, a 403 naming the limit and the plan that lifts it) and
 * sums the usage counts plugins add for what they own; with no billing plugin loaded nothing is limited.
 */
import type { PlanLimitKey } from '../../contract/billing';

export interface PlanLimits {
  /** Throws the policy's error when adding `adding` more of `limit` would pass the company's plan. */
  check(companyId: number, limit: PlanLimitKey, adding?: number): Promise<void>;
}

/** What counts towards a limit, for one company: the plugin owning the rows counts them. */
export type UsageCounter = (companyId: number, period: { monthStart: Date; now: Date }) => Promise<number>;

export interface PlanLimitsRegistry {
  /** The billing plugin's check; set once. */
  setPolicy(policy: PlanLimits): void;
  /** Adds a count towards `limit` (several counters of one limit are summed). */
  addUsageCounter(limit: PlanLimitKey, counter: UsageCounter): void;
  /** The sum of the counters added for `limit` (0 when none: the plugin owning those rows is not loaded). */
  usage(companyId: number, limit: PlanLimitKey, period: { monthStart: Date; now: Date }): Promise<number>;
}

export class PlanLimitsHub implements PlanLimits, PlanLimitsRegistry {
  private policy: PlanLimits | null = null;
  private readonly counters = new Map<PlanLimitKey, UsageCounter[]>();

  setPolicy(policy: PlanLimits): void {
    if (this.policy) throw new Error('A plan-limit policy is set twice');
    this.policy = policy;
  }

  addUsageCounter(limit: PlanLimitKey, counter: UsageCounter): void {
    this.counters.set(limit, [...(this.counters.get(limit) ?? []), counter]);
  }

  async check(companyId: number, limit: PlanLimitKey, adding = 1): Promise<void> {
    if (adding <= 0 || !this.policy) return;
    await this.policy.check(companyId, limit, adding);
  }

  async usage(companyId: number, limit: PlanLimitKey, period: { monthStart: Date; now: Date }): Promise<number> {
    const counts = await Promise.all((this.counters.get(limit) ?? []).map((count) => count(companyId, period)));
    return counts.reduce((sum, n) => sum + n, 0);
  }
}
