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
import { and, eq, gt, inArray, isNotNull, or, sql } from 'drizzle-orm';
import {
  DEFAULT_MESSAGING_LIMIT_TIER,
  MESSAGING_LIMIT_TIERS,
  SEND_RATE,
  type MessagingLimitTier,
  type MessagingLimitUsage,
} from '../../../../contract/broadcasts';
import { channels } from '../../../core/db/schema';
import type { Database } from '../../../core/db/client';
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

/** The channels of the same portfolio (same company), this one included. */
async function portfolioChannelIds(db: Database, number: SendingNumber): Promise<number[]> {
  const rows = await db
    .select({ id: channels.id, wabaId: channels.wabaId, settings: channels.settings })
    .from(channels)
    .where(and(eq(channels.companyId, number.companyId), eq(channels.platform, 'whatsapp')));
  const ids = rows.filter((r) => portfolioOf(r) === number.portfolioId).map((r) => r.id);
  return ids.includes(number.channelId) ? ids : [...ids, number.channelId];
}

/** Unique recipients of the portfolio in the 24 hours before `now`, and when the oldest of them leaves the window. */
export async function portfolioUsage(db: Database, number: SendingNumber, now: Date): Promise<{ used: number; oldest: Date | null }> {
  const channelIds = await portfolioChannelIds(db, number);
  const since = new Date(now.getTime() - DAY_MS);
  const [row] = await db
    .select({
      used: sql<number>`count(distinct ${broadcastRecipients.phone})::int`,
      oldest: sql<string | null>`min(coalesce(${broadcastRecipients.sentAt}, ${broadcastRecipients.sendingAt}))`,
    })
    .from(broadcastRecipients)
    .innerJoin(broadcasts, eq(broadcasts.id, broadcastRecipients.broadcastId))
    .where(
      and(
        inArray(broadcasts.channelId, channelIds),
        or(
          // Sent in the window, or being sent now (any process): counted before Meta answers.
          and(isNotNull(broadcastRecipients.sentAt), gt(broadcastRecipients.sentAt, since)),
          eq(broadcastRecipients.state, 'sending'),
          // A call that timed out (or whose process died) may have reached Meta: counted, so the limit is never passed.
          and(eq(broadcastRecipients.state, 'unknown'), isNotNull(broadcastRecipients.sendingAt), gt(broadcastRecipients.sendingAt, since)),
        ),
      ),
    );
  return { used: Number(row?.used ?? 0), oldest: row?.oldest ? new Date(row.oldest) : null };
}

/** The review step's figures (also used by the engine before each batch). */
export async function messagingLimitUsage(db: Database, number: SendingNumber, now: Date): Promise<MessagingLimitUsage> {
  const limit = MESSAGING_LIMIT_TIERS[number.tier];
  if (!Number.isFinite(limit)) return { tier: number.tier, limit: null, used: 0, remaining: null };
  const { used } = await portfolioUsage(db, number, now);
  return { tier: number.tier, limit, used, remaining: Math.max(0, limit - used) };
}
