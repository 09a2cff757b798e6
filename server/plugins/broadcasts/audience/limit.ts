/**
 * Meta's messaging limit (since October 2025): unique business-initiated recipients per business
 * portfolio over a moving 24 hours, shared by all the portfolio's numbers (250, 2,000, 10,000,
 * 100,000, unlimited). The tier is the channel's `settings.messaging_limit_tier` (Meta's phone
 * number field; DEFAULT_MESSAGING_LIMIT_TIER when never read); the portfolio is
 * `settings.business_portfolio_id` when known, else the WhatsApp Business Account.
 * The engine waits on it; the review step shows it (./index.ts).
 */
import { and, countDistinct, eq, isNotNull, sql } from 'drizzle-orm';
import {
  DEFAULT_MESSAGING_LIMIT_TIER,
  MESSAGING_LIMIT_TIERS,
  type MessagingLimitTier,
  type MessagingLimitUsage,
} from '../../../../contract/broadcasts';
import type { Database } from '../../../core/db/client';
import { prepared } from '../../../core/db/prepared';
import { channels } from '../../../core/db/schema';
import { broadcastRecipients, broadcasts } from '../schema';

type ChannelRow = typeof channels.$inferSelect;

export const DAY_MS = 24 * 60 * 60 * 1000;

export function messagingLimitTier(channel: Pick<ChannelRow, 'settings'>): MessagingLimitTier {
  const tier = channel.settings?.messaging_limit_tier;
  return typeof tier === 'string' && tier in MESSAGING_LIMIT_TIERS ? (tier as MessagingLimitTier) : DEFAULT_MESSAGING_LIMIT_TIER;
}

/** The portfolio key the limit is shared under. */
export function portfolioOf(channel: Pick<ChannelRow, 'settings' | 'wabaId' | 'id'>): string {
  const portfolio = channel.settings?.business_portfolio_id;
  if (typeof portfolio === 'string' && portfolio) return `portfolio:${portfolio}`;
  return channel.wabaId ? `waba:${channel.wabaId}` : `channel:${channel.id}`;
}

/** The company's WhatsApp channels sharing this channel's portfolio (the channel itself included). */
export async function portfolioChannelIds(db: Database, channel: ChannelRow): Promise<number[]> {
  const key = portfolioOf(channel);
  const statement = prepared(db, 'whatsapp_channels_of_company', (db, name) =>
    db
      .select()
      .from(channels)
      .where(and(eq(channels.companyId, sql.placeholder('companyId')), eq(channels.platform, 'whatsapp')))
      .prepare(name),
  );
  const rows = await statement.execute({ companyId: channel.companyId });
  const ids = rows.filter((r) => portfolioOf(r) === key).map((r) => r.id);
  return ids.includes(channel.id) ? ids : [...ids, channel.id];
}

/** Unique recipients the portfolio's broadcasts reached in the 24 hours before `now`. */
export async function messagingLimitUsage(db: Database, channel: ChannelRow, now: Date): Promise<MessagingLimitUsage> {
  const tier = messagingLimitTier(channel);
  const limitValue = MESSAGING_LIMIT_TIERS[tier];
  const ids = await portfolioChannelIds(db, channel);
  // The channels as one int[] value, so one statement serves a portfolio of any size.
  const statement = prepared(db, 'messaging_limit_used', (db, name) =>
    db
      .select({ used: countDistinct(broadcastRecipients.phone) })
      .from(broadcastRecipients)
      .innerJoin(broadcasts, eq(broadcasts.id, broadcastRecipients.broadcastId))
      .where(
        and(
          sql`${broadcasts.channelId} = any(${sql.placeholder('ids')}::int[])`,
          isNotNull(broadcastRecipients.sentAt),
          sql`${broadcastRecipients.sentAt} > ${sql.placeholder('since')}::timestamptz`,
        ),
      )
      .prepare(name),
  );
  const [row] = await statement.execute({ ids, since: new Date(now.getTime() - DAY_MS).toISOString() });
  const used = Number(row?.used ?? 0);
  const limit = Number.isFinite(limitValue) ? limitValue : null;
  return { tier, limit, used, remaining: limit === null ? null : Math.max(0, limit - used) };
}
