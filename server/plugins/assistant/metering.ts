/**
 * The plan's `assistant_answers` (issue #24): every answer on a channel and every reply suggested in the
 * inbox is a row of `assistant_usage` (keyed, so a re-run counts nothing twice), counted per company and
 * calendar month like the broadcast recipients. The billing plugin's policy says how many a plan allows.
 */
import { and, count, eq, sql } from 'drizzle-orm';
import { isPlanLimitError } from '../../../contract/billing';
import type { Database } from '../../core/db/client';
import { prepared } from '../../core/db/prepared';
import { ApiError } from '../../core/errors';
import type { PlanLimits, PlanLimitsRegistry } from '../../core/planLimits';
import { assistantUsage } from './schema';

export class AssistantMetering {
  constructor(
    private readonly db: Database,
    private readonly limits: PlanLimits,
  ) {}

  /** Adds the company's counter to the plan limits' registry. */
  register(registry: PlanLimitsRegistry): void {
    registry.addUsageCounter('assistant_answers', async (companyId, { monthStart, now }) => {
      const statement = prepared(this.db, 'assistant_usage_count', (db, name) =>
        db
          .select({ n: count() })
          .from(assistantUsage)
          .where(
            and(
              eq(assistantUsage.companyId, sql.placeholder('companyId')),
              sql`${assistantUsage.createdAt} >= ${sql.placeholder('monthStart')}`,
              sql`${assistantUsage.createdAt} <= ${sql.placeholder('now')}`,
            ),
          )
          .prepare(name),
      );
      const [row] = await statement.execute({ companyId, monthStart: monthStart.toISOString(), now: now.toISOString() });
      return Number(row.n);
    });
  }

  /** Throws the plan's limit error (403 plan_limit_reached) when one more answer would pass the plan. */
  async check(companyId: number): Promise<void> {
    await this.limits.check(companyId, 'assistant_answers', 1);
  }

  /** False when the plan allows no more answers this month (the channels hand over instead). */
  async allowed(companyId: number): Promise<boolean> {
    try {
      await this.check(companyId);
      return true;
    } catch (err) {
      if (err instanceof ApiError && isPlanLimitError(err.body)) return false;
      throw err;
    }
  }

  /** Counts one answer or suggestion (once per key). */
  async count(companyId: number, kind: 'answer' | 'suggestion', key: string, at: Date): Promise<void> {
    await this.db.insert(assistantUsage).values({ companyId, kind, key, createdAt: at }).onConflictDoNothing();
  }
}
