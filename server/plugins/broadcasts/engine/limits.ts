/**
 * A sending number's settings for broadcasts, read from its channel row:
 * - `settings.broadcast_rate`: messages per second (SEND_RATE: default 80, 1 to 1,000);
 * - `settings.messaging_limit_tier`: Meta's tier of the business portfolio (TIER_250 … TIER_UNLIMITED;
 *   DEFAULT_MESSAGING_LIMIT_TIER when unknown), `settings.portfolio_id` (else the WABA id) as the portfolio.
 *
 * Meta's messaging limit (since October 2025): unique business-initiated recipients per business
 * portfolio over a moving 24 hours, shared by all its numbers. Counted here from the broadcasts of
 * the portfolio's channels: distinct phones with a `sent_at` in the last 24 hours, being sent, or
 * `unknown` (the call may have reached Meta) since then.
 */
import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import {
  DEFAULT_MESSAGING_LIMIT_TIER,
  MESSAGING_LIMIT_TIERS,
  SEND_RATE,
  type MessagingLimitTier,
  type MessagingLimitUsage,
} from '../../../../contract/broadcasts';
import { channels } from '../../../core/db/schema';
import type { Database } from '../../../core/db/client';
import { preparedSql } from '../../../core/db/prepared';
import { broadcastRecipients, broadcasts } from '../schema';

export const DAY_MS = 24 * 3600 * 1000;

export interface SendingNumber {
  channelId: number;
  companyId: number;
  /** Meta's phone_number_id: the pacing key shared by every process. */
  externalId: string;
  rate: number;
  tier: MessagingLimitTier;
  portfolioId: string;
}

type ChannelLike = { id: number; companyId: number; externalId: string; wabaId: string | null; settings: Record<string, unknown> | null };

export function sendRateOf(settings: Record<string, unknown> | null): number {
  const raw = Number(settings?.broadcast_rate);
  if (!Number.isFinite(raw) || raw <= 0) return SEND_RATE.default;
  return Math.min(SEND_RATE.max, Math.max(SEND_RATE.min, Math.floor(raw)));
}

export function tierOf(settings: Record<string, unknown> | null): MessagingLimitTier {
  const raw = settings?.messaging_limit_tier;
  return typeof raw === 'string' && Object.hasOwn(MESSAGING_LIMIT_TIERS, raw) ? (raw as MessagingLimitTier) : DEFAULT_MESSAGING_LIMIT_TIER;
}

export function portfolioOf(channel: Pick<ChannelLike, 'id' | 'wabaId' | 'settings'>): string {
  const raw = channel.settings?.portfolio_id;
  return typeof raw === 'string' && raw ? raw : (channel.wabaId ?? `channel-${channel.id}`);
}

export function sendingNumberOf(channel: ChannelLike): SendingNumber {
  return {
    channelId: channel.id,
    companyId: channel.companyId,
    externalId: channel.externalId,
    rate: sendRateOf(channel.settings),
    tier: tierOf(channel.settings),
    portfolioId: portfolioOf(channel),
  };
}

/**
 * The portfolio key of a channel row in SQL, the same as `portfolioOf` (tested side by side): `settings.portfolio_id`
 * when it is a non-empty string, else the WABA id (an empty one included, as `??` keeps it), else `channel-{id}`.
 */
const portfolioKeySql = sql`case when jsonb_typeof(${channels.settings} -> 'portfolio_id') = 'string' and ${channels.settings} ->> 'portfolio_id' <> ''
  then ${channels.settings} ->> 'portfolio_id' else coalesce(${channels.wabaId}, 'channel-' || ${channels.id}) end`;

/** The company's WhatsApp channels whose portfolio key is `key`: a subquery of `portfolioUsage`'s one statement. */
export function portfolioChannelIdsSql(companyId: SQL | Placeholder, key: SQL | Placeholder): SQL {
  return sql`select ${channels.id} from ${channels} where ${channels.companyId} = ${companyId} and ${channels.platform} = 'whatsapp' and ${portfolioKeySql} = ${key}`;
}

/**
 * Unique recipients of the portfolio in the 24 hours before `now`, and when the oldest of them leaves the window: one
 * statement (the portfolio's numbers and broadcasts read in it), built once per database, planned on each call.
 * Counted: a send in the window, a send under way (any process: counted before Meta answers), and a call that timed
 * out or whose process died in the window (it may have reached Meta: counted, so the limit is never passed). Each part
 * reads each of the portfolio's broadcasts by an index range (`broadcast_recipients_broadcast_sent_idx`, the
 * broadcast and state index), never every recipient a broadcast ever had. The engine waits on it; the review step and
 * the dashboard show it (`messagingLimitUsage`).
 */
export async function portfolioUsage(db: Database, number: SendingNumber, now: Date): Promise<{ used: number; oldest: Date | null }> {
  const statement = preparedSql<{ used: number; oldest: string | Date | null }>(
    db,
    'messaging_limit_portfolio_usage',
    () => {
      const since = sql`${sql.placeholder('since')}::timestamptz`;
      const numbers = sql`${portfolioChannelIdsSql(sql.placeholder('companyId'), sql.placeholder('portfolio'))} union select ${sql.placeholder('channelId')}::int`;
      const r = broadcastRecipients;
      // `= any(array)`: each part's index gets the broadcasts as its condition. As `in (select …)` the planner joined
      // the whole table's sends of the window to them (every company's: 1,013,512 rows read for 13,392, bench/broadcast).
      const part = (condition: SQL) =>
        sql`select ${r.phone} as phone, coalesce(${r.sentAt}, ${r.sendingAt}) as at from ${r} where ${r.broadcastId} = any((select ids from portfolio_broadcasts)::int[]) and ${condition}`;
      return sql`with portfolio_broadcasts as materialized (select array(select ${broadcasts.id} from ${broadcasts} where ${broadcasts.channelId} in (${numbers})) as ids),
        counted as (
          ${part(sql`${r.sentAt} is not null and ${r.sentAt} > ${since}`)}
          union all ${part(sql`${r.state} = 'sending'`)}
          union all ${part(sql`${r.state} = 'unknown' and ${r.sendingAt} > ${since}`)}
        )
        select count(distinct phone)::int as used, min(at) as oldest from counted`;
    },
    { planEachCall: true },
  );
  const [row] = await statement.execute({
    companyId: number.companyId,
    portfolio: number.portfolioId,
    channelId: number.channelId,
    since: new Date(now.getTime() - DAY_MS).toISOString(),
  });
  return { used: Number(row?.used ?? 0), oldest: row?.oldest ? new Date(row.oldest) : null };
}

/**
 * The messaging limit as the review step and the dashboard's channel health show it: the very count the engine waits
 * on (`portfolioUsage`), so what an admin reads is what the engine enforces. Counted for an unlimited tier too.
 */
export async function messagingLimitUsage(db: Database, channel: ChannelLike, now: Date): Promise<MessagingLimitUsage> {
  const number = sendingNumberOf(channel);
  const tierLimit = MESSAGING_LIMIT_TIERS[number.tier];
  const limit = Number.isFinite(tierLimit) ? tierLimit : null;
  const { used } = await portfolioUsage(db, number, now);
  return { tier: number.tier, limit, used, remaining: limit === null ? null : Math.max(0, limit - used) };
}
