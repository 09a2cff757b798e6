/**
 * Broadcasts tables (issue #11). Vocabulary (statuses, states, reasons) in contract/broadcasts.ts.
 *
 * At most once per recipient: the engine writes `state = 'sending'`, `sending_at` and
 * `attempts + 1` (committed) BEFORE calling Meta, and the result (`sent` + wa_message_id, or
 * `failed` + error) after. A recipient found in `sending` after a crash is set to `unknown`,
 * never sent again. Counters on `broadcasts` are kept equal to the recipients' states (the engine
 * updates both in one transaction; `recountBroadcast` in ./service.ts recomputes them).
 */
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type {
  AudienceType,
  BroadcastStatus,
  BroadcastVariables,
  ContactFilter,
  ExclusionReason,
  OptOutReason,
  OptOutSource,
  RecipientState,
  ResolvedVariables,
} from '../../../contract/broadcasts';
import { channels, companies, rooms, users, whatsappTemplates } from '../../core/db/schema';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const createdAt = () => at('created_at').notNull().defaultNow();
const counter = (name: string) => integer(name).notNull().default(0);

export const broadcasts = pgTable(
  'broadcasts',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    /** The sending WhatsApp channel (spec §3 page_id). */
    channelId: integer('channel_id').notNull().references(() => channels.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** What Meta is sent: template name + language; our template row when known. */
    templateName: text('template_name').notNull(),
    templateLanguage: text('template_language').notNull(),
    templateId: integer('template_id').references(() => whatsappTemplates.id, { onDelete: 'set null' }),
    /** The template's components (Meta's format) as they were when the broadcast was created. */
    templateComponents: jsonb('template_components').$type<unknown[]>().notNull().default([]),
    templateCategory: text('template_category'),
    /** {{n}} → source mapping as created (contract BroadcastVariables); per-recipient values are on the recipient. */
    variables: jsonb('variables').$type<BroadcastVariables>().notNull(),
    headerMediaUrl: text('header_media_url'),
    audienceType: text('audience_type').$type<AudienceType>().notNull(),
    /** contacts: the filter; csv: null. */
    audienceFilter: jsonb('audience_filter').$type<ContactFilter>(),
    csvFileName: text('csv_file_name'),
    /** segment: the segment as it was named when the broadcast was created (its members are the recipients). */
    audienceSegment: jsonb('audience_segment').$type<{ id: number; name: string }>(),
    /**
     * Exclusions by reason at creation (contract ExclusionReason → count). Opted-out and blocked
     * ones are also recipient rows (state 'excluded'); duplicates and invalid numbers have no row.
     */
    exclusions: jsonb('exclusions').$type<Partial<Record<ExclusionReason, number>>>().notNull().default({}),
    status: text('status').$type<BroadcastStatus>().notNull().default('draft'),
    /** Why waiting/failed, in words. */
    statusReason: text('status_reason'),
    /** Send time (UTC); null = send now. The wall-clock the user chose was in time_zone. */
    scheduledAt: at('scheduled_at'),
    /** IANA zone the schedule was given in (companies have no time zone of their own). */
    timeZone: text('time_zone'),
    /** waiting: when the messaging limit frees the next slot (the engine's estimate). */
    waitingUntil: at('waiting_until'),
    startedAt: at('started_at'),
    completedAt: at('completed_at'),
    pausedAt: at('paused_at'),
    cancelledAt: at('cancelled_at'),
    /** Recipients to send to (not excluded). */
    nUsers: counter('n_users'),
    // Counters (contract BroadcastStats), cumulative along the funnel: sent ⊇ delivered ⊇ read ⊇ replied.
    queuedCount: counter('queued_count'),
    sentCount: counter('sent_count'),
    deliveredCount: counter('delivered_count'),
    readCount: counter('read_count'),
    repliedCount: counter('replied_count'),
    failedCount: counter('failed_count'),
    unknownCount: counter('unknown_count'),
    excludedCount: counter('excluded_count'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('broadcasts_company_created_idx').on(t.companyId, t.createdAt.desc()),
    index('broadcasts_channel_idx').on(t.channelId),
    // The engine's scan for due and running work.
    index('broadcasts_active_idx').on(t.status, t.scheduledAt).where(sql`${t.status} in ('scheduled', 'sending', 'waiting')`),
  ],
);

export const broadcastRecipients = pgTable(
  'broadcast_recipients',
  {
    id: serial('id').primaryKey(),
    broadcastId: integer('broadcast_id').notNull().references(() => broadcasts.id, { onDelete: 'cascade' }),
    companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    /** E.164 with '+' (e.g. +14155550123); Meta's `to` / wa_id is the digits. */
    phone: text('phone').notNull(),
    name: text('name').notNull().default(''),
    /** The contact's room when the audience came from contacts (or a CSV phone that has one). */
    roomId: integer('room_id').references(() => rooms.id, { onDelete: 'set null' }),
    /** CSV: 1-based row number in the file (header = row 1). */
    rowNumber: integer('row_number'),
    /** The parameter values this recipient gets (resolved at creation). */
    variables: jsonb('variables').$type<ResolvedVariables>().notNull(),
    state: text('state').$type<RecipientState>().notNull().default('queued'),
    exclusionReason: text('exclusion_reason').$type<ExclusionReason>(),
    /** Graph API calls made for this recipient (incremented before each call). */
    attempts: integer('attempts').notNull().default(0),
    /** Earliest time of the next attempt (per-user pair rate 131056, 5xx back-off); null = now. */
    nextAttemptAt: at('next_attempt_at'),
    /** Meta's message id (wamid…) once accepted: delivery webhooks are matched on it. */
    waMessageId: text('wa_message_id'),
    errorCode: integer('error_code'),
    errorTitle: text('error_title'),
    /** Meta's error_data.details, or ours. */
    errorDetail: text('error_detail'),
    queuedAt: at('queued_at'),
    /** Written with state 'sending' before the call (at most once). */
    sendingAt: at('sending_at'),
    sentAt: at('sent_at'),
    deliveredAt: at('delivered_at'),
    readAt: at('read_at'),
    repliedAt: at('replied_at'),
    failedAt: at('failed_at'),
    createdAt: createdAt(),
  },
  (t) => [
    // De-duplication is also a constraint: one row per phone per broadcast.
    uniqueIndex('broadcast_recipients_broadcast_phone_uq').on(t.broadcastId, t.phone),
    index('broadcast_recipients_broadcast_state_idx').on(t.broadcastId, t.state, t.id),
    uniqueIndex('broadcast_recipients_wa_message_uq').on(t.waMessageId),
    // Replies (same company, same phone, recent send) and the 24 h unique-recipient count.
    index('broadcast_recipients_company_phone_idx').on(t.companyId, t.phone, t.sentAt),
    index('broadcast_recipients_sent_at_idx').on(t.sentAt).where(sql`${t.sentAt} is not null`),
    // The messaging limit's count (engine/limits.ts): a portfolio's broadcasts read from their last 24 hours of sends,
    // not through every recipient they ever had nor every company's sends of the day (bench/broadcast: 464 → 24 ms).
    index('broadcast_recipients_broadcast_sent_idx').on(t.broadcastId, t.sentAt).where(sql`${t.sentAt} is not null`),
    // The plan's recipients this month (billing usage and its limit check): bounded by the month, not by every recipient the company ever had.
    index('broadcast_recipients_company_created_idx').on(t.companyId, t.createdAt),
  ],
);

/**
 * Customers who must never receive a broadcast again: STOP (and configured keywords), Meta's
 * `user_preferences` webhook (marketing messages stopped) and error 131050. channel_id null =
 * every channel of the company; portfolio_id (Meta business portfolio) when known.
 */
export const optOuts = pgTable(
  'opt_outs',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    channelId: integer('channel_id').references(() => channels.id, { onDelete: 'cascade' }),
    portfolioId: text('portfolio_id'),
    /** E.164 with '+' for WhatsApp; another channel's user id otherwise. */
    phone: text('phone').notNull(),
    reason: text('reason').$type<OptOutReason>().notNull(),
    source: text('source').$type<OptOutSource>().notNull(),
    /** The keyword, webhook id or message id that caused it. */
    detail: text('detail'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('opt_outs_company_channel_phone_uq').on(t.companyId, sql`coalesce(${t.channelId}, 0)`, t.phone),
    index('opt_outs_company_phone_idx').on(t.companyId, t.phone),
  ],
);
