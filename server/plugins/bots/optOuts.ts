/**
 * GET /api/opt-out-csv/ (spec §7: data and headers): the company's customers who opted out, by
 * keyword (the broadcasts plugin's opt-outs: STOP and configured keywords, Meta's marketing
 * opt-out; none without that plugin) or by a bot's opt_out action (`bot_opt_outs`), newest first, as CSV rows.
 */
import { desc, eq } from 'drizzle-orm';
import { OPT_OUT_CSV_HEADERS, type OptOutCsv } from '../../../contract/bots';
import { neutraliseFormula } from '../../../contract/csv';
import type { Database } from '../../core/db/client';
import { channels } from '../../core/db/schema';
import type { BroadcastOptOuts } from '../broadcasts';
import { botOptOuts, bots } from './schema';

export const MAX_OPT_OUT_ROWS = 50_000;

export async function optOutCsv(db: Database, keywordOptOuts: BroadcastOptOuts | null, companyId: number): Promise<OptOutCsv> {
  const [fromBots, fromKeywords] = await Promise.all([
    db
      .select({ name: botOptOuts.name, externalId: botOptOuts.externalId, channel: channels.name, platform: channels.platform, reason: botOptOuts.reason, bot: bots.name, at: botOptOuts.createdAt })
      .from(botOptOuts)
      .innerJoin(channels, eq(channels.id, botOptOuts.channelId))
      .leftJoin(bots, eq(bots.id, botOptOuts.botId))
      .where(eq(botOptOuts.companyId, companyId))
      .orderBy(desc(botOptOuts.createdAt))
      .limit(MAX_OPT_OUT_ROWS),
    keywordOptOuts ? keywordOptOuts.newestOfCompany(companyId, MAX_OPT_OUT_ROWS) : [],
  ]);
  const rows = [
    ...fromBots.map((r) => ({ at: r.at, cells: [r.name, r.externalId, r.channel, r.platform, r.reason === 'action' ? 'bot_action' : 'keyword', r.bot ?? ''] })),
    ...fromKeywords.map((r) => ({ at: r.at, cells: ['', r.externalId, r.channel ?? 'all channels', r.platform ?? '', r.reason, ''] })),
  ]
    .sort((a, b) => b.at.getTime() - a.at.getTime())
    .slice(0, MAX_OPT_OUT_ROWS);
  // The rows leave as JSON for whoever writes the CSV (the console, a customer's script), so each cell
  // already follows contract/csv's formula rule; applying the rule a second time changes nothing.
  return { headers: [...OPT_OUT_CSV_HEADERS], data: rows.map((r) => [...r.cells, r.at.toISOString()].map((c) => neutraliseFormula(String(c)))) };
}
