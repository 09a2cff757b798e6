/**
 * Broadcasts (issue #11; spec §3 Broadcast, §7 /api/broadcasts/…): one approved WhatsApp template
 * sent to many customers. Shared by the server (request bodies, answers), the sending engine
 * (statuses, recipient states, counters) and the console (list, stepper, detail page).
 *
 * Vocabulary
 * - Broadcast status (BROADCAST_STATUSES): draft → scheduled → sending ⇄ waiting → completed;
 *   paused and cancelled by the user; failed when nothing can be sent (channel gone, template gone).
 *   `waiting` = held back by Meta's messaging limit (status_reason says until when).
 * - Recipient state (RECIPIENT_STATES): queued → sending (written BEFORE the Graph API call) →
 *   sent → delivered → read → replied, or failed (final, with Meta's error), or unknown (the call
 *   was in flight when the process died: never resent), or excluded (never queued, with a reason).
 * - Stats: spec §3 delivered, failed, read, sent (start at 0) plus replied, unknown, queued, excluded.
 *   Counters are cumulative along the funnel: a read message also counts as delivered and sent.
 *
 * Routes (all under the `Company` header's company):
 *   GET    /api/broadcasts/                     paged list {count,next,previous,results}
 *   POST   /api/broadcasts  (and /api/broadcasts/)   create (BroadcastCreate) → BroadcastDetail
 *   POST   /api/broadcasts/audience/preview/    AudiencePreviewRequest → AudiencePreview (nothing stored)
 *   GET    /api/broadcasts/{id}/                BroadcastDetail
 *   GET    /api/broadcasts/{id}/recipients/     paged BroadcastRecipient, ?status=
 *   GET    /api/broadcasts/{id}/report/         BroadcastReport {headers, data}
 *   POST   /api/broadcasts/{id}/pause/ | resume/ | cancel/ | retry/
 *   DELETE /api/broadcasts/{id}/                body {broadcast_id} (optional); a running one is cancelled first
 * Realtime: event BROADCAST_EVENT on topic `page:{page_id}` with a BroadcastEvent payload.
 */
import { z } from 'zod';
import { MAX_FILTER_IDS } from './chats';
import { pageQuery } from './team';

// ---------- statuses and states ----------

export const BROADCAST_STATUSES = ['draft', 'scheduled', 'waiting', 'sending', 'paused', 'completed', 'cancelled', 'failed'] as const;
export type BroadcastStatus = (typeof BROADCAST_STATUSES)[number];
/** Statuses in which the engine still has work (pause/cancel apply; delete cancels first). */
export const ACTIVE_BROADCAST_STATUSES: readonly BroadcastStatus[] = ['scheduled', 'waiting', 'sending'];
/** Statuses that never change again (except retry of failed recipients, which reopens `completed`). */
export const FINAL_BROADCAST_STATUSES: readonly BroadcastStatus[] = ['completed', 'cancelled', 'failed'];

/** A customer's message within this long of a broadcast message counts as a reply to it (so a broadcast's counters still move this long after its end). */
export const BROADCAST_REPLY_WINDOW_MS = 24 * 60 * 60 * 1000;

export const RECIPIENT_STATES = ['queued', 'sending', 'sent', 'delivered', 'read', 'replied', 'failed', 'unknown', 'excluded'] as const;
export type RecipientState = (typeof RECIPIENT_STATES)[number];
/** States a recipient never leaves by itself (delivery webhooks may still move sent → delivered → read → replied). */
export const FINAL_RECIPIENT_STATES: readonly RecipientState[] = ['failed', 'unknown', 'excluded'];
/**
 * Funnel order: a status webhook only ever moves a recipient forward (out-of-order and replayed
 * events are ignored when their rank is not higher). `failed` may replace queued/sending/sent.
 */
export const RECIPIENT_STATE_RANK: Record<RecipientState, number> = {
  excluded: -1,
  queued: 0,
  sending: 1,
  unknown: 2,
  failed: 2,
  sent: 3,
  delivered: 4,
  read: 5,
  replied: 6,
};

export const EXCLUSION_REASONS = ['opted_out', 'blocked', 'duplicate', 'invalid_number', 'over_limit'] as const;
export type ExclusionReason = (typeof EXCLUSION_REASONS)[number];

/** Why a customer is on the opt-out list (opt_outs.reason). */
export const OPT_OUT_REASONS = ['stop_keyword', 'marketing_opt_out', 'manual'] as const;
export type OptOutReason = (typeof OPT_OUT_REASONS)[number];
/** Where the opt-out came from (opt_outs.source): a customer message, Meta's user_preferences webhook, error 131050, a person. */
export const OPT_OUT_SOURCES = ['message', 'user_preferences_webhook', 'error_131050', 'console'] as const;
export type OptOutSource = (typeof OPT_OUT_SOURCES)[number];

// ---------- messaging limit (Meta, since October 2025: per business portfolio, unique recipients, moving 24 h) ----------

/** Meta's `messaging_limit_tier` values and how many unique business-initiated recipients each allows per 24 h. */
export const MESSAGING_LIMIT_TIERS = {
  TIER_250: 250,
  TIER_2K: 2_000,
  TIER_10K: 10_000,
  TIER_100K: 100_000,
  TIER_UNLIMITED: Number.POSITIVE_INFINITY,
} as const;
export type MessagingLimitTier = keyof typeof MESSAGING_LIMIT_TIERS;
export const DEFAULT_MESSAGING_LIMIT_TIER: MessagingLimitTier = 'TIER_250';

/** Per sending number: messages per second (channel setting `broadcast_rate`). */
export const SEND_RATE = { default: 80, min: 1, max: 1_000 } as const;

// ---------- stats ----------

export interface BroadcastStats {
  /** Spec §3 (start at 0). Cumulative: sent counts everything Meta accepted (incl. delivered/read/replied). */
  sent: number;
  delivered: number;
  read: number;
  failed: number;
  /** broadcast_engagement: the customer wrote back within 24 hours of the message. */
  replied: number;
  /** Still to send (queued or sending). */
  queued: number;
  /** Call in flight when the server stopped: never resent. */
  unknown: number;
  excluded: number;
}
export const EMPTY_STATS: BroadcastStats = { sent: 0, delivered: 0, read: 0, failed: 0, replied: 0, queued: 0, unknown: 0, excluded: 0 };

/** Share of the (non-excluded) recipients that have a result, 0–1. */
export function broadcastProgress(nUsers: number, stats: Pick<BroadcastStats, 'queued'>): number {
  if (nUsers <= 0) return 1;
  return Math.min(1, Math.max(0, (nUsers - stats.queued) / nUsers));
}

// ---------- variables ----------

/** Where one template variable's value comes from: a CSV column name, a contact field, a contact attribute (its key), or a fixed text. */
export const VARIABLE_SOURCES = ['column', 'field', 'attribute', 'fixed'] as const;
export type VariableSource = (typeof VARIABLE_SOURCES)[number];
/** Contact fields a variable may take (source 'field'). */
export const CONTACT_FIELDS = ['name', 'first_name', 'phone'] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number];

const blank = 'This field may not be blank.';

export const VariableMapping = z
  .object({
    source: z.enum(VARIABLE_SOURCES, { message: `Choose one of: ${VARIABLE_SOURCES.join(', ')}.` }),
    value: z.string().trim().min(1, blank).max(1024, 'Ensure this field has no more than 1024 characters.'),
  })
  .refine((m) => m.source !== 'field' || (CONTACT_FIELDS as readonly string[]).includes(m.value), {
    message: `A contact field is one of: ${CONTACT_FIELDS.join(', ')}.`,
    path: ['value'],
  })
  .refine((m) => m.source !== 'attribute' || /^[a-z][a-z0-9_]{0,63}$/.test(m.value), {
    message: 'Choose one of your contact attributes.',
    path: ['value'],
  });
export type VariableMapping = z.infer<typeof VariableMapping>;

/** Keys are the variable numbers as text: {"1": {...}, "2": {...}} for {{1}}, {{2}}. */
const variableMap = z
  .record(z.string().regex(/^[1-9]\d{0,2}$/, 'Variables are numbered {{1}}, {{2}}…'), VariableMapping)
  .refine((m) => Object.keys(m).length <= 100, 'Too many variables.');

export const BroadcastVariables = z.object({
  /** Body {{n}} → mapping. */
  body: variableMap.default({}),
  /** Header TEXT {{1}} → mapping. */
  header: variableMap.optional(),
  /** URL buttons with a variable: button index (0-based, as in the template) → mapping of its {{1}}. */
  buttons: z.record(z.string().regex(/^\d{1,2}$/, 'Invalid button index.'), VariableMapping).optional(),
});
export type BroadcastVariables = z.infer<typeof BroadcastVariables>;

/** The values one recipient gets (resolved at creation; what the engine sends as Meta's `components` parameters). */
export interface ResolvedVariables {
  body: string[];
  header?: string[];
  buttons?: Record<string, string>;
}

// ---------- audience ----------

/** Spec §3 contact search filter (term, tags, channels) — as contract/chats.ts ContactSearchFilter. */
export const ContactFilter = z.object({
  term: z.string().max(200).default(''),
  tags: z.array(z.object({ id: z.number().int().positive() })).max(MAX_FILTER_IDS).default([]),
  channels: z.array(z.number().int().positive()).max(MAX_FILTER_IDS).default([]),
});
export type ContactFilter = z.infer<typeof ContactFilter>;

export const CSV_LIMITS = {
  /** Characters of CSV text accepted in one request (~ 200k short rows). */
  textChars: 10_000_000,
  rows: 200_000,
  columns: 50,
  cell: 1024,
} as const;
/** Header names recognised as the phone column (case-insensitive, spaces and dashes as underscores). */
export const PHONE_COLUMN_NAMES = ['phone', 'phone_number', 'number', 'mobile', 'whatsapp', 'wa_id', 'telephone', 'tel'] as const;
/** Header names recognised as the name column. */
export const NAME_COLUMN_NAMES = ['name', 'full_name', 'first_name', 'customer', 'contact'] as const;

const csvCell = z.string().max(CSV_LIMITS.cell, `Ensure this field has no more than ${CSV_LIMITS.cell} characters.`);
/** One CSV row as column name → value; must hold the phone (any of PHONE_COLUMN_NAMES). */
export const CsvRow = z.record(z.string().max(200), csvCell);
export type CsvRow = z.infer<typeof CsvRow>;

export const ContactsAudience = z.object({
  type: z.literal('contacts'),
  filter: ContactFilter.default({ term: '', tags: [], channels: [] }),
});
/**
 * A CSV list: either the file's text (`csv`, parsed by the server) or rows already parsed by the
 * preview (`rows`, column → value). Either way the server applies the same rules again.
 */
export const CsvAudience = z
  .object({
    type: z.literal('csv'),
    csv: z.string().max(CSV_LIMITS.textChars, 'The CSV file is too large.').optional(),
    rows: z.array(CsvRow).max(CSV_LIMITS.rows, `A CSV list holds at most ${CSV_LIMITS.rows} rows.`).optional(),
    /** The uploaded file's name, for the list and the report. */
    file_name: z.string().max(255).optional(),
  })
  .refine((a) => a.csv !== undefined || a.rows !== undefined, { message: 'Upload a CSV file.', path: ['csv'] });
/** A saved segment of the company's contacts (contract/segments.ts): its members when the broadcast is created. */
export const SegmentAudience = z.object({
  type: z.literal('segment'),
  segment_id: z.number({ message: 'Choose a segment.' }).int('Choose a segment.').positive('Choose a segment.').max(2_147_483_647, 'Choose a segment.'),
});
/** `{segment_id}` alone is read as a segment audience. */
export const BroadcastAudience = z.preprocess(
  (v) => (v && typeof v === 'object' && !Array.isArray(v) && !('type' in v) && 'segment_id' in v ? { ...v, type: 'segment' } : v),
  z.discriminatedUnion('type', [ContactsAudience, CsvAudience, SegmentAudience], {
    message: "Audience type must be 'contacts', 'csv' or 'segment'.",
  }),
);
export type BroadcastAudience = z.infer<typeof BroadcastAudience>;
export type AudienceType = BroadcastAudience['type'];

// ---------- schedule ----------

/** `YYYY-MM-DDTHH:mm` (optionally :ss) — a wall-clock time in `time_zone`. */
const LOCAL_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/;

export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * Companies have no time zone setting: the console sends the browser's IANA zone (or the one
 * the user picked) and the server stores it with the broadcast.
 */
export const BroadcastSchedule = z.discriminatedUnion(
  'mode',
  [
    z.object({ mode: z.literal('now') }),
    z.object({
      mode: z.literal('later'),
      /** Wall-clock time in time_zone, e.g. 2026-11-24T09:30. */
      at: z.string().regex(LOCAL_DATE_TIME, 'Enter a date and time (YYYY-MM-DDTHH:mm).'),
      time_zone: z.string().max(64).refine(isTimeZone, 'Unknown time zone.'),
    }),
  ],
  { message: "Schedule mode must be 'now' or 'later'." },
);
export type BroadcastSchedule = z.infer<typeof BroadcastSchedule>;

/**
 * The instant a wall-clock time in an IANA zone designates (null when not a real date). In a
 * daylight-saving gap the time is moved forward like the clocks; in an overlap the first one wins.
 */
export function zonedTimeToUtc(local: string, timeZone: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(local);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? '0'].map(Number) as [number, number, number, number, number, number];
  const asUtc = Date.UTC(y, mo - 1, d, h, mi, s);
  const check = new Date(asUtc);
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d || h > 23 || mi > 59 || s > 59) return null;
  const offset = (instant: number): number => {
    const parts = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    }).formatToParts(new Date(instant));
    const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
    return Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second')) - instant;
  };
  // Two passes settle the offset around a transition.
  let guess = asUtc - offset(asUtc);
  guess = asUtc - offset(guess);
  return new Date(guess);
}

// ---------- create ----------

export const BROADCAST_NAME_MAX = 200;

/** An absolute http(s) URL, or our own storage's path (`/media/chats/…`, as file_url answers it). */
const mediaUrl = z
  .string()
  .trim()
  .max(2000, 'Ensure this field has no more than 2000 characters.')
  .refine((v) => /^\/media\/[^\s]+$/.test(v) || /^https?:\/\/[^\s/]+(\/[^\s]*)?$/i.test(v), 'Enter a valid URL.');

export const BroadcastTemplateRef = z.object({
  /** Our whatsapp_templates id (contract/templates.ts); name + language are what Meta is sent. */
  id: z.number().int().positive().optional(),
  name: z.string().trim().min(1, blank).max(512),
  language: z.string().trim().min(1, blank).max(20),
});

/** POST /api/broadcasts */
export const BroadcastCreate = z.object({
  name: z.string().trim().min(1, blank).max(BROADCAST_NAME_MAX, `Ensure this field has no more than ${BROADCAST_NAME_MAX} characters.`),
  /** The sending WhatsApp channel (spec §3 page_id). */
  page_id: z.number({ message: 'Choose a WhatsApp number.' }).int().positive('Choose a WhatsApp number.'),
  template: BroadcastTemplateRef,
  variables: BroadcastVariables.default({ body: {} }),
  /** Media header (IMAGE, VIDEO, DOCUMENT): the uploaded file's `file_url` (GET /api/chats/presigned_url/) or a public https URL. */
  header_media_url: mediaUrl.optional(),
  audience: BroadcastAudience,
  schedule: BroadcastSchedule.default({ mode: 'now' }),
});
export type BroadcastCreate = z.infer<typeof BroadcastCreate>;
export type BroadcastCreateInput = z.input<typeof BroadcastCreate>;

/** POST /api/broadcasts/audience/preview/: the audience step and the review step (nothing is stored). */
export const AudiencePreviewRequest = z.object({
  page_id: z.number({ message: 'Choose a WhatsApp number.' }).int().positive('Choose a WhatsApp number.'),
  audience: BroadcastAudience,
  /** With them, the answer includes the first recipient's message as it will be sent. */
  template: BroadcastTemplateRef.optional(),
  variables: BroadcastVariables.optional(),
  /** The media header's file, shown in the rendered message. */
  header_media_url: mediaUrl.optional(),
});
export type AudiencePreviewRequest = z.infer<typeof AudiencePreviewRequest>;
/** What a client sends (defaults not yet applied: `variables.body` may be left out). */
export type AudiencePreviewRequestInput = z.input<typeof AudiencePreviewRequest>;

export interface BadRow {
  /** 1-based line number in the file, the header being row 1 (as a spreadsheet shows it). */
  row: number;
  reason: string;
  /** The offending value (e.g. the phone as written). */
  value?: string;
}

export interface MessagingLimitUsage {
  tier: MessagingLimitTier;
  /** null: unlimited. */
  limit: number | null;
  /** Unique business-initiated recipients of the portfolio in the last 24 hours. */
  used: number;
  /** null: unlimited. */
  remaining: number | null;
}

export interface AudiencePreview {
  /** Rows (CSV) or contacts matched before any rule. */
  total: number;
  /** Who would be sent the message. */
  recipients: number;
  /** Excluded, by reason (every reason present, 0 when none). */
  excluded: Record<ExclusionReason, number>;
  /** CSV only: rows that cannot be used, by row number, with the reason; the good rows are kept. */
  bad_rows: BadRow[];
  /** CSV only: the header's columns (for the variable mapping). */
  columns: string[];
  /** CSV only: the detected phone and name columns. */
  phone_column: string | null;
  name_column: string | null;
  /** The first recipients (at most 20): phone in E.164, name, and the CSV row's values. */
  sample: { phone: string; name: string; values: Record<string, string> }[];
  messaging_limit: MessagingLimitUsage;
  /** The review warning: more recipients than today's messaging limit leaves (the rest wait or are excluded). */
  over_limit_warning: boolean;
  /** With template + variables: the first recipient's message as it will be sent. */
  message?: RenderedMessage | null;
}

export interface RenderedMessage {
  header: string | null;
  header_format: string | null;
  header_media_url: string | null;
  body: string;
  footer: string | null;
  buttons: string[];
}

// ---------- answers ----------

/** Spec §3 Broadcast, plus what the console shows. */
export interface Broadcast {
  id: number;
  name: string;
  created_at: string;
  /** The sending channel. */
  page_id: number;
  template_name: string;
  template_language: string;
  template_id: number | null;
  status: BroadcastStatus;
  /** Why it waits or failed, in words (e.g. the messaging limit's next free slot). */
  status_reason: string | null;
  /** Recipients to send to (excluded ones not counted). */
  n_users: number;
  stats: BroadcastStats;
  /** 0–1 (see broadcastProgress). */
  progress: number;
  audience_type: AudienceType;
  scheduled_at: string | null;
  time_zone: string | null;
  started_at: string | null;
  completed_at: string | null;
  paused_at: string | null;
  cancelled_at: string | null;
  created_by: number | null;
}

export interface FunnelStep {
  step: 'recipients' | 'sent' | 'delivered' | 'read' | 'replied';
  count: number;
}

export interface BroadcastDetail extends Broadcast {
  variables: BroadcastVariables;
  header_media_url: string | null;
  /** The contacts filter or the CSV file name. */
  audience: { type: 'contacts'; filter: ContactFilter } | { type: 'csv'; file_name: string | null } | { type: 'segment'; segment_id: number | null; name: string };
  /** Excluded recipients by reason. */
  excluded: Record<ExclusionReason, number>;
  funnel: FunnelStep[];
  /** Failures grouped by Meta error code, biggest first. */
  failures: { code: number | null; title: string; count: number }[];
}

export interface BroadcastRecipient {
  id: number;
  phone: string;
  name: string;
  state: RecipientState;
  exclusion_reason: ExclusionReason | null;
  attempts: number;
  wa_message_id: string | null;
  error_code: number | null;
  error_title: string | null;
  /** A sentence a person understands (describeMetaError). */
  error_detail: string | null;
  /** CSV row number, when from a CSV. */
  row: number | null;
  /** The text header and body with this recipient's values (what they were sent); null when excluded (never sent). */
  message: string | null;
  queued_at: string | null;
  sent_at: string | null;
  delivered_at: string | null;
  read_at: string | null;
  replied_at: string | null;
  failed_at: string | null;
}

/** GET /api/broadcasts/{id}/report/: one row per recipient; the console downloads it as CSV. */
export interface BroadcastReport {
  headers: string[];
  data: (string | number | null)[][];
}
export const REPORT_HEADERS = [
  'phone',
  'name',
  'status',
  'exclusion_reason',
  'error_code',
  'error',
  'attempts',
  'wa_message_id',
  'queued_at',
  'sent_at',
  'delivered_at',
  'read_at',
  'replied_at',
  'failed_at',
  // Last, so the columns before it keep their places for those who read the report by position.
  'message',
] as const;

// ---------- queries and bodies ----------

export const BroadcastListQuery = z.object({
  ...pageQuery,
  status: z.enum(BROADCAST_STATUSES, { message: `Status must be one of: ${BROADCAST_STATUSES.join(', ')}.` }).optional(),
  page_id: z.coerce.number().int('A valid integer is required.').positive().max(2_147_483_647).optional(),
});
export type BroadcastListQuery = z.infer<typeof BroadcastListQuery>;

export const RecipientListQuery = z.object({
  ...pageQuery,
  status: z.enum(RECIPIENT_STATES, { message: `Status must be one of: ${RECIPIENT_STATES.join(', ')}.` }).optional(),
});
export type RecipientListQuery = z.infer<typeof RecipientListQuery>;

/** DELETE /api/broadcasts/{id}/ (spec §7 body broadcast_id; optional, must match the path when given). */
export const BroadcastDeleteBody = z.object({ broadcast_id: z.coerce.number().int().positive().optional() }).nullish();

/** POST /api/broadcasts/{id}/retry/: all failed recipients, or these ones. */
export const BroadcastRetryBody = z
  .object({ recipient_ids: z.array(z.number().int().positive()).max(100_000).optional() })
  .nullish();

// ---------- realtime ----------

/** Pushed on `page:{page_id}` whenever a broadcast's status or counters change (throttled by the engine). */
export const BROADCAST_EVENT = 'broadcast_update';
export interface BroadcastEvent {
  id: number;
  page_id: number;
  status: BroadcastStatus;
  status_reason: string | null;
  n_users: number;
  stats: BroadcastStats;
  progress: number;
  /** Set when a broadcast was deleted (the console removes it from its list). */
  deleted?: boolean;
}

// ---------- messages ----------

/** Spec-style messages of the broadcast routes (console shows them as they are). */
export const BROADCAST_MESSAGES = {
  created: 'Broadcast successfully created.',
  scheduled: 'Broadcast scheduled.',
  deleted: 'Successfully deleted broadcast.',
  paused: 'Broadcast paused.',
  resumed: 'Broadcast resumed.',
  cancelled: 'Broadcast cancelled.',
  retried: 'Failed recipients queued again.',
  notWhatsapp: 'Broadcasts are sent from a WhatsApp number. Choose a WhatsApp channel.',
  templateNotApproved: 'The template must be approved by Meta before it can be broadcast.',
  templateNotFound: 'Template not found on this WhatsApp number.',
  noRecipients: 'No recipients: every contact of this audience is excluded or invalid.',
  scheduleInPast: 'Choose a date and time in the future.',
  cannotPause: 'Only a scheduled or running broadcast can be paused.',
  cannotResume: 'Only a paused broadcast can be resumed.',
  cannotCancel: 'This broadcast has already ended.',
  nothingToRetry: 'There are no failed recipients to retry.',
  missingVariable: 'Map every variable of the template.',
  missingMedia: 'This template has a media header: upload a file.',
  noPhoneColumn: 'The CSV file needs a phone column (phone, phone_number, number…).',
  manageForbidden: 'Only admins and managers can send broadcasts.',
} as const;

/** CSV row reasons (BadRow.reason). */
export const CSV_ROW_REASONS = {
  missingPhone: 'The phone number is empty.',
  invalidPhone: 'Not a valid phone number (write it with its country code, e.g. +14155550123).',
  duplicate: 'The same phone number is on an earlier row.',
  tooManyColumns: 'The row has more columns than the header.',
  parse: 'The row cannot be read.',
} as const;

/**
 * Meta's WhatsApp Cloud API error codes → a sentence a person understands (console, report).
 * From Meta's "Error codes" page; unknown codes fall back to Meta's own title.
 */
export const META_ERROR_WORDS: Record<number, string> = {
  130429: 'Meta was sending too fast for this number (throughput limit); the message was retried.',
  131000: 'Meta had an unexpected error.',
  131005: 'The WhatsApp number lacks the permission to send.',
  131008: 'A required part of the message was missing.',
  131009: 'A value in the message was not accepted by Meta.',
  131016: 'WhatsApp was temporarily unavailable.',
  131021: 'The recipient is the sending number itself.',
  131026: 'The message could not be delivered: the number may not be on WhatsApp or has an old app version.',
  131042: 'The WhatsApp account has a payment problem.',
  131045: 'The phone number is not registered with Meta yet.',
  131047: 'More than 24 hours since the customer last wrote: only a template can be sent.',
  131048: 'Meta limited this number because too many people blocked or reported its messages.',
  131049: 'Meta did not deliver this marketing message to keep the customer’s experience good (per-user marketing limit).',
  131050: 'The customer has stopped receiving marketing messages from this business.',
  131051: 'This message type is not supported.',
  131052: 'The customer’s media could not be downloaded.',
  131053: 'The media could not be uploaded.',
  131056: 'Too many messages to this customer in a short time; it was retried later.',
  132000: 'The number of variables does not match the template.',
  132001: 'The template does not exist in this language or is not approved.',
  132005: 'The template’s text is too long once the variables are filled in.',
  132007: 'The template’s content breaks a WhatsApp policy.',
  132012: 'A variable’s value has the wrong format.',
  132015: 'The template is paused because of low quality.',
  132016: 'The template is disabled because of low quality.',
  133010: 'The phone number is not registered on WhatsApp Business.',
  368: 'The WhatsApp account is temporarily blocked for policy violations.',
  131031: 'The WhatsApp account has been locked.',
};

export function describeMetaError(code: number | null | undefined, title?: string | null): string | null {
  if (code === null || code === undefined) return title ?? null;
  return META_ERROR_WORDS[code] ?? title ?? `Meta error ${code}.`;
}
