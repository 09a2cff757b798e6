/**
 * What Meta's webhooks (server/plugins/channels/webhooks.ts) mean for broadcasts:
 * - a status of a broadcast message (matched on its wamid) moves its recipient forward
 *   (sent → delivered → read, or failed with Meta's error) and the counters with it, in one
 *   transaction; out-of-order and replayed statuses change nothing (./funnel.ts). A status that
 *   arrives before the send's answer was written (the recipient is still `sending`) is retried
 *   by the webhook processor (thrown), so it is never lost;
 * - error 131050 (marketing messages stopped) in a failed status puts the customer on the opt-out list;
 * - a customer message within 24 hours of a broadcast message counts as `replied`;
 * - STOP (and the channel's `settings.opt_out_keywords`) puts the customer on the opt-out list;
 *   their recipients still queued in running broadcasts are excluded (reason opted_out);
 * - Meta's `user_preferences` webhook: `stop` of marketing messages does the same as STOP;
 *   `resume` lifts the opt-outs Meta itself reported (webhook or 131050), not a STOP the
 *   customer typed to the business.
 */
import { and, eq, gte, inArray, sql } from 'drizzle-orm';
import type { OptOutReason, OptOutSource } from '../../../../contract/broadcasts';
import { BROADCAST_REPLY_WINDOW_MS, type RecipientState } from '../../../../contract/broadcasts';
import type { Clock } from '../../../core/clock';
import { NotYetError } from '../../../core/jobs/backgroundJob';
import type { Database, Tx } from '../../../core/db/client';
import type { InboundWebhookMessage, StatusWebhookEvent, UserPreferenceWebhookEvent } from '../../../providers/meta/types';
import { broadcastRecipients, broadcasts, optOuts } from '../schema';
import { deltaOf, isZero, type CounterDelta } from './funnel';

/** Words customers use to stop messages (compared trimmed, case-insensitively, as the whole message). */
export const DEFAULT_OPT_OUT_KEYWORDS = ['STOP', 'STOP ALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'OPT OUT', 'OPTOUT', 'ARRET', 'ARRÊT', 'STOPP'];

export class StatusNotYetRecorded extends NotYetError {
  constructor(messageId: string) {
    super(`Status for broadcast message ${messageId} arrived before its send was recorded; retried later.`);
    this.name = 'StatusNotYetRecorded';
  }
}

export interface EventChannel {
  id: number;
  companyId: number;
  platform: string;
  settings: Record<string, unknown> | null;
}

export interface EventDeps {
  db: Database;
  clock: Clock;
  changed: (broadcastId: number) => void;
}

/** The Meta error code at the end of a status error text ("Title: details (131050)"). */
export function errorCodeOf(text: string | null): number | null {
  const match = text ? /\((\d{1,7})\)\s*$/.exec(text) : null;
  return match ? Number(match[1]) : null;
}

export function isOptOutMessage(text: string | null, settings: Record<string, unknown> | null): boolean {
  if (!text) return false;
  const normalised = text.trim().replace(/[.!\s]+$/u, '').replace(/\s+/g, ' ').toUpperCase();
  if (!normalised || normalised.length > 40) return false;
  const configured = Array.isArray(settings?.opt_out_keywords) ? (settings.opt_out_keywords as unknown[]).filter((k): k is string => typeof k === 'string') : [];
  return [...DEFAULT_OPT_OUT_KEYWORDS, ...configured].some((k) => k.trim().toUpperCase() === normalised);
}


async function applyDelta(tx: Tx, broadcastId: number, d: CounterDelta, now: Date): Promise<void> {
  if (isZero(d)) return;
  await tx
    .update(broadcasts)
    .set({
      queuedCount: sql`greatest(0, ${broadcasts.queuedCount} + ${d.queued})`,
      sentCount: sql`${broadcasts.sentCount} + ${d.sent}`,
      deliveredCount: sql`${broadcasts.deliveredCount} + ${d.delivered}`,
      readCount: sql`${broadcasts.readCount} + ${d.read}`,
      repliedCount: sql`${broadcasts.repliedCount} + ${d.replied}`,
      failedCount: sql`${broadcasts.failedCount} + ${d.failed}`,
      unknownCount: sql`${broadcasts.unknownCount} + ${d.unknown}`,
      updatedAt: now,
    })
    .where(eq(broadcasts.id, broadcastId));
}

export class BroadcastEvents {
  constructor(private readonly deps: EventDeps) {}

  /** A WhatsApp status webhook. */
  async status(channel: EventChannel, event: StatusWebhookEvent): Promise<void> {
    if (event.platform !== 'whatsapp' || !event.messageId) return;
    const now = this.deps.clock.now();
    const at = new Date(event.timestamp);
    const when = Number.isNaN(at.getTime()) ? now : at;
    const messageId = event.messageId;
    const result = await this.deps.db.transaction(async (tx) => {
      const [row] = await tx
        .select({ id: broadcastRecipients.id, state: broadcastRecipients.state, broadcastId: broadcastRecipients.broadcastId, companyId: broadcastRecipients.companyId, phone: broadcastRecipients.phone })
        .from(broadcastRecipients)
        .where(eq(broadcastRecipients.waMessageId, messageId))
        .for('update');
      if (!row) return null;
      const to = event.status as RecipientState;
      const delta = deltaOf(row.state, to);
      if (isZero(delta)) return { row, changed: false };
      const code = event.status === 'failed' ? errorCodeOf(event.error) : null;
      await tx
        .update(broadcastRecipients)
        .set({
          state: to,
          ...(to === 'delivered' ? { deliveredAt: when } : {}),
          ...(to === 'read' ? { readAt: when } : {}),
          ...(to === 'failed' ? { failedAt: when, errorCode: code, errorTitle: code !== null ? `Meta error ${code}` : 'Not delivered', errorDetail: event.error } : {}),
        })
        .where(eq(broadcastRecipients.id, row.id));
      await applyDelta(tx, row.broadcastId, delta, now);
      if (code === 131050) {
        await tx
          .insert(optOuts)
          .values({ companyId: row.companyId, channelId: null, phone: row.phone, reason: 'marketing_opt_out', source: 'error_131050', detail: messageId })
          .onConflictDoNothing();
      }
      return { row, changed: true };
    });
    if (result?.changed) this.deps.changed(result.row.broadcastId);
    if (result) return;
    // Not a broadcast message — unless its send's answer is not written yet: then try again later.
    const phone = `+${event.recipientId.replace(/\D/g, '')}`;
    const [inFlight] = await this.deps.db
      .select({ id: broadcastRecipients.id })
      .from(broadcastRecipients)
      .innerJoin(broadcasts, eq(broadcasts.id, broadcastRecipients.broadcastId))
      .where(and(eq(broadcasts.channelId, channel.id), eq(broadcastRecipients.phone, phone), eq(broadcastRecipients.state, 'sending')))
      .limit(1);
    if (inFlight) throw new StatusNotYetRecorded(messageId);
  }

  /** A customer message: replies to broadcasts of this number, and opt-out keywords. */
  async inbound(channel: EventChannel, event: InboundWebhookMessage): Promise<void> {
    if (event.platform !== 'whatsapp') return;
    const now = this.deps.clock.now();
    const at = new Date(event.timestamp);
    const when = Number.isNaN(at.getTime()) ? now : at;
    const phone = `+${event.customerId.replace(/\D/g, '')}`;
    const since = new Date(when.getTime() - BROADCAST_REPLY_WINDOW_MS);
    const touched = new Set<number>();

    const optOut = isOptOutMessage(event.text, channel.settings);
    await this.deps.db.transaction(async (tx) => {
      // An opt-out is not engagement: STOP does not count as a reply.
      const replied = optOut ? [] : await tx
        .select({ id: broadcastRecipients.id, state: broadcastRecipients.state, broadcastId: broadcastRecipients.broadcastId })
        .from(broadcastRecipients)
        .innerJoin(broadcasts, eq(broadcasts.id, broadcastRecipients.broadcastId))
        .where(
          and(
            eq(broadcastRecipients.companyId, channel.companyId),
            eq(broadcasts.channelId, channel.id),
            eq(broadcastRecipients.phone, phone),
            inArray(broadcastRecipients.state, ['sent', 'delivered', 'read']),
            gte(broadcastRecipients.sentAt, since),
            // Meta's timestamps are whole seconds: a reply in the same second as the send still counts.
            sql`date_trunc('second', ${broadcastRecipients.sentAt}) <= ${when.toISOString()}::timestamptz`,
          ),
        )
        .for('update', { of: broadcastRecipients });
      for (const row of replied) {
        await tx.update(broadcastRecipients).set({ state: 'replied', repliedAt: when }).where(eq(broadcastRecipients.id, row.id));
        await applyDelta(tx, row.broadcastId, deltaOf(row.state, 'replied'), now);
        touched.add(row.broadcastId);
      }

      if (!optOut) return;
      for (const id of await optOutAndExclude(tx, channel.companyId, phone, { reason: 'stop_keyword', source: 'message', detail: (event.text ?? '').trim().slice(0, 100) }, now)) touched.add(id);
    });
    for (const id of touched) this.deps.changed(id);
  }

  /** Meta's user_preferences webhook: marketing messages stopped or resumed by the customer. */
  async preference(channel: EventChannel, event: UserPreferenceWebhookEvent): Promise<void> {
    if (event.category !== 'marketing_messages') return;
    const phone = `+${event.customerId.replace(/\D/g, '')}`;
    const now = this.deps.clock.now();
    if (event.value === 'resume') {
      await this.deps.db
        .delete(optOuts)
        .where(and(eq(optOuts.companyId, channel.companyId), eq(optOuts.phone, phone), inArray(optOuts.source, ['user_preferences_webhook', 'error_131050'])));
      return;
    }
    if (event.value !== 'stop') return;
    const touched = await this.deps.db.transaction((tx) =>
      optOutAndExclude(tx, channel.companyId, phone, { reason: 'marketing_opt_out', source: 'user_preferences_webhook', detail: (event.detail ?? event.category).slice(0, 100) }, now),
    );
    for (const id of touched) this.deps.changed(id);
  }
}

/** Puts the customer on the company's opt-out list and excludes their still-queued recipients; the broadcasts touched. */
async function optOutAndExclude(tx: Tx, companyId: number, phone: string, why: { reason: OptOutReason; source: OptOutSource; detail: string }, now: Date): Promise<number[]> {
  await tx.insert(optOuts).values({ companyId, channelId: null, phone, ...why }).onConflictDoNothing();
  // Still queued in a broadcast of the company: excluded now (never sent).
  const excluded = await tx.execute<{ broadcast_id: number; n: number }>(sql`
    with ex as (
      update broadcast_recipients r set state = 'excluded', exclusion_reason = 'opted_out'
      from broadcasts b
      where b.id = r.broadcast_id and r.company_id = ${companyId} and r.phone = ${phone} and r.state = 'queued'
      returning r.broadcast_id
    ), c as (select broadcast_id, count(*)::int as n from ex group by broadcast_id)
    update broadcasts b set queued_count = greatest(0, b.queued_count - c.n), excluded_count = b.excluded_count + c.n,
      n_users = greatest(0, b.n_users - c.n), updated_at = ${now.toISOString()}::timestamptz
    from c where b.id = c.broadcast_id
    returning b.id as broadcast_id, c.n`);
  const rows = Array.isArray(excluded) ? excluded : ((excluded as { rows?: { broadcast_id: number }[] }).rows ?? []);
  return rows.map((row) => Number(row.broadcast_id));
}
