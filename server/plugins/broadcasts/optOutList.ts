/**
 * The company's keyword opt-outs (STOP and configured keywords, Meta's marketing opt-out: the
 * engine records them in `opt_outs`), newest first: the bots plugin lists them in its opt-out CSV.
 */
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Database } from '../../core/db/client';
import { channels } from '../../core/db/schema';
import type { BroadcastOptOuts, KeywordOptOut } from './index';
import { optOuts } from './schema';

export class KeywordOptOutList implements BroadcastOptOuts {
  constructor(private readonly db: Database) {}

  newestOfCompany(companyId: number, limit: number): Promise<KeywordOptOut[]> {
    return this.db
      .select({ externalId: optOuts.phone, channel: channels.name, platform: channels.platform, reason: optOuts.reason, at: optOuts.createdAt })
      .from(optOuts)
      .leftJoin(channels, eq(channels.id, optOuts.channelId))
      .where(eq(optOuts.companyId, companyId))
      .orderBy(desc(optOuts.createdAt))
      .limit(limit);
  }

  async optedOut(companyId: number, customerIds: string[]): Promise<Set<string>> {
    const ids = [...new Set(customerIds)];
    if (!ids.length) return new Set();
    const rows = await this.db
      .selectDistinct({ phone: optOuts.phone })
      .from(optOuts)
      .where(and(eq(optOuts.companyId, companyId), inArray(optOuts.phone, ids)));
    return new Set(rows.map((r) => r.phone));
  }
}
