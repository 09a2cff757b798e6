/**
 * The broadcasts API's work (issue #11): list, detail, audience preview, create (recipients
 * written in one transaction, then handed to the engine), recipients, report, pause / resume /
 * cancel / retry / delete. Every lookup is inside the caller's company: another company's ids
 * answer 404 (broadcasts) or a field error (channels, templates), never their data.
 * Sending, pacing, delivery statuses and opt-outs are the engine's (./engine, ./engineApi.ts).
 */
import { and, asc, count, desc, eq, ilike, inArray, sql, type SQL } from 'drizzle-orm';
import type { Paged } from '../../../contract/api';
import {
  ACTIVE_BROADCAST_STATUSES,
  BROADCAST_EVENT,
  BROADCAST_MESSAGES,
  EXCLUSION_REASONS,
  REPORT_HEADERS,
  broadcastProgress,
  describeMetaError,
  zonedTimeToUtc,
  type AudiencePreview,
  type AudiencePreviewRequest,
  type Broadcast,
  type BroadcastCreate,
  type BroadcastDetail,
  type BroadcastVariables,
  type BroadcastEvent,
  type BroadcastListQuery,
  type BroadcastRecipient,
  type BroadcastReport,
  type BroadcastStats,
  type BroadcastStatus,
  type ExclusionReason,
  type RecipientListQuery,
} from '../../../contract/broadcasts';
import type { Clock } from '../../core/clock';
import type { Database } from '../../core/db/client';
import { prepared, shapeOf } from '../../core/db/prepared';
import { channels, whatsappTemplates } from '../../core/db/schema';
import { badRequest, fieldError, notFound, validationError } from '../../core/errors';
import { companyOfPrivateKey, storedMediaUrl } from '../../providers/storage/privateMedia';
import type { MediaStorage } from '../../providers/storage/types';
import { containsPattern, offsetOf, paged } from '../../core/paging';
import { buildAudience, emptyExclusions, type Audience } from './audience';
import { OneFilePerCompany } from './audience/oneFilePerCompany';
import { messagingLimitUsage } from './engine/limits';
import { missingMappings, recipientMessage, renderMessage, resolveVariables, templateShape, unknownAttributes, unknownColumns, usesAttributes, type TemplateShape } from './audience/variables';
import type { PlanLimits } from '../../core/planLimits';
import type { BroadcastEngine } from './engineApi';
import type { BroadcastContactSource } from './index';
import { broadcastRecipients, broadcasts } from './schema';

export type BroadcastRow = typeof broadcasts.$inferSelect;
type RecipientRow = typeof broadcastRecipients.$inferSelect;
type ChannelRow = typeof channels.$inferSelect;
type TemplateRow = typeof whatsappTemplates.$inferSelect;

export interface BroadcastServiceDeps {
  db: Database;
  clock: Clock;
  engine: () => BroadcastEngine;
  /** The company's plan (the recipients a broadcast queues count towards it). */
  planLimits: PlanLimits;
  /** Realtime push on `page:{channelId}`. */
  push: (channelId: number, event: string, payload: unknown) => Promise<void>;
  /** Our media storage (a media header's uploaded file); absent in unit tests. */
  storage?: () => MediaStorage;
  /** The company's contacts (segment audiences, attribute variables), from the contacts plugin when it runs. */
  contacts?: () => BroadcastContactSource | null;
}

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
const INSERT_CHUNK = 1000;
const CANCELLABLE: readonly BroadcastStatus[] = [...ACTIVE_BROADCAST_STATUSES, 'paused', 'draft'];

/** CSV error codes of ./audience/csv.ts → the words shown under the file. */
const CSV_ERRORS: Record<string, string> = {
  empty: 'The CSV file is empty.',
  noPhoneColumn: BROADCAST_MESSAGES.noPhoneColumn,
  tooManyRows: 'A CSV list holds at most 200000 rows.',
  tooManyColumns: 'A CSV list holds at most 50 columns.',
};

export function statsOf(row: BroadcastRow): BroadcastStats {
  return {
    sent: row.sentCount,
    delivered: row.deliveredCount,
    read: row.readCount,
    failed: row.failedCount,
    replied: row.repliedCount,
    queued: row.queuedCount,
    unknown: row.unknownCount,
    excluded: row.excludedCount,
  };
}

export function toBroadcast(row: BroadcastRow): Broadcast {
  const stats = statsOf(row);
  return {
    id: row.id,
    name: row.name,
    created_at: row.createdAt.toISOString(),
    page_id: row.channelId,
    template_name: row.templateName,
    template_language: row.templateLanguage,
    template_id: row.templateId,
    status: row.status,
    status_reason: row.statusReason,
    n_users: row.nUsers,
    stats,
    progress: broadcastProgress(row.nUsers, stats),
    audience_type: row.audienceType,
    scheduled_at: iso(row.scheduledAt),
    time_zone: row.timeZone,
    started_at: iso(row.startedAt),
    completed_at: iso(row.completedAt),
    paused_at: iso(row.pausedAt),
    cancelled_at: iso(row.cancelledAt),
    created_by: row.createdBy,
  };
}

/** The realtime payload of a broadcast row (the engine sends the same through `pushBroadcast`). */
export function broadcastEvent(row: BroadcastRow, deleted = false): BroadcastEvent {
  const b = toBroadcast(row);
  return { id: b.id, page_id: b.page_id, status: b.status, status_reason: b.status_reason, n_users: b.n_users, stats: b.stats, progress: b.progress, ...(deleted ? { deleted } : {}) };
}

/** A recipient as the API answers it; `shape` is its broadcast's template as it was at creation (for the message it was sent). */
export function toRecipient(r: RecipientRow, shape: TemplateShape): BroadcastRecipient {
  return {
    id: r.id,
    phone: r.phone,
    name: r.name,
    state: r.state,
    exclusion_reason: r.exclusionReason,
    attempts: r.attempts,
    wa_message_id: r.waMessageId,
    error_code: r.errorCode,
    error_title: r.errorTitle,
    error_detail: r.state === 'failed' || r.errorCode !== null ? describeMetaError(r.errorCode, r.errorTitle) : null,
    row: r.rowNumber,
    message: messageOf(r, shape),
    queued_at: iso(r.queuedAt),
    sent_at: iso(r.sentAt),
    delivered_at: iso(r.deliveredAt),
    read_at: iso(r.readAt),
    replied_at: iso(r.repliedAt),
    failed_at: iso(r.failedAt),
  };
}

/** What the report reads of a recipient: its columns, without the ones it never shows. */
const REPORT_COLUMNS = {
  id: broadcastRecipients.id,
  phone: broadcastRecipients.phone,
  name: broadcastRecipients.name,
  state: broadcastRecipients.state,
  exclusionReason: broadcastRecipients.exclusionReason,
  errorCode: broadcastRecipients.errorCode,
  errorTitle: broadcastRecipients.errorTitle,
  attempts: broadcastRecipients.attempts,
  waMessageId: broadcastRecipients.waMessageId,
  queuedAt: broadcastRecipients.queuedAt,
  sentAt: broadcastRecipients.sentAt,
  deliveredAt: broadcastRecipients.deliveredAt,
  readAt: broadcastRecipients.readAt,
  repliedAt: broadcastRecipients.repliedAt,
  failedAt: broadcastRecipients.failedAt,
  variables: broadcastRecipients.variables,
};

/** What the recipient was (or will be) sent; none for an excluded one, which is never sent. */
function messageOf(r: Pick<RecipientRow, 'state' | 'variables'>, shape: TemplateShape): string | null {
  return r.state === 'excluded' ? null : recipientMessage(shape, r.variables) || null;
}

/**
 * Recomputes a broadcast's counters from its recipients' states (cumulative along the funnel)
 * plus the duplicates and invalid numbers that have no row. Used after API changes (retry) and
 * available to the engine and tests: counters always equal the recipients' states.
 */
export async function recountBroadcast(db: Database, broadcastId: number): Promise<BroadcastRow | null> {
  const [row] = await db.select().from(broadcasts).where(eq(broadcasts.id, broadcastId));
  if (!row) return null;
  const states = await db
    .select({ state: broadcastRecipients.state, n: count() })
    .from(broadcastRecipients)
    .where(eq(broadcastRecipients.broadcastId, broadcastId))
    .groupBy(broadcastRecipients.state);
  const by = (...names: string[]) => states.filter((s) => names.includes(s.state)).reduce((a, s) => a + Number(s.n), 0);
  const noRow = (row.exclusions.duplicate ?? 0) + (row.exclusions.invalid_number ?? 0);
  const [updated] = await db
    .update(broadcasts)
    .set({
      queuedCount: by('queued', 'sending'),
      sentCount: by('sent', 'delivered', 'read', 'replied'),
      deliveredCount: by('delivered', 'read', 'replied'),
      readCount: by('read', 'replied'),
      repliedCount: by('replied'),
      failedCount: by('failed'),
      unknownCount: by('unknown'),
      excludedCount: by('excluded') + noRow,
      updatedAt: new Date(),
    })
    .where(eq(broadcasts.id, broadcastId))
    .returning();
  return updated ?? null;
}

export class BroadcastService {
  /** CSV audiences are read one file at a time per company (./audience/oneFilePerCompany.ts). */
  private readonly csvLine = new OneFilePerCompany();

  constructor(private readonly deps: BroadcastServiceDeps) {}

  private get db(): Database {
    return this.deps.db;
  }

  private async push(row: BroadcastRow, deleted = false): Promise<void> {
    try {
      await this.deps.push(row.channelId, BROADCAST_EVENT, broadcastEvent(row, deleted));
    } catch {
      // A lost push is repaired by the next one or a reload; the change itself is stored.
    }
  }

  // ---------- lookups ----------

  private async row(companyId: number, id: number): Promise<BroadcastRow> {
    const statement = prepared(this.db, 'broadcast_row', (db, name) =>
      db
        .select()
        .from(broadcasts)
        .where(and(eq(broadcasts.id, sql.placeholder('id')), eq(broadcasts.companyId, sql.placeholder('companyId'))))
        .prepare(name),
    );
    const [row] = await statement.execute({ id, companyId });
    if (!row) throw notFound();
    return row;
  }

  /** The company's WhatsApp channel (another company's id answers the same as a wrong one). */
  private async channel(companyId: number, pageId: number): Promise<ChannelRow> {
    const [row] = await this.db.select().from(channels).where(and(eq(channels.id, pageId), eq(channels.companyId, companyId)));
    if (!row || row.platform !== 'whatsapp' || row.status === 'disconnected') throw fieldError('page_id', BROADCAST_MESSAGES.notWhatsapp);
    return row;
  }

  private async template(companyId: number, channelId: number, ref: { id?: number; name: string; language: string }): Promise<TemplateRow> {
    const where = [eq(whatsappTemplates.companyId, companyId), eq(whatsappTemplates.channelId, channelId)];
    if (ref.id !== undefined) where.push(eq(whatsappTemplates.id, ref.id));
    else where.push(eq(whatsappTemplates.name, ref.name), eq(whatsappTemplates.language, ref.language));
    const [row] = await this.db.select().from(whatsappTemplates).where(and(...where));
    if (!row) throw fieldError('template', BROADCAST_MESSAGES.templateNotFound);
    if (row.status !== 'APPROVED') throw fieldError('template', BROADCAST_MESSAGES.templateNotApproved);
    return row;
  }

  private contactSource(): BroadcastContactSource | null {
    return this.deps.contacts?.() ?? null;
  }

  private async audience(companyId: number, channelId: number, request: Pick<AudiencePreviewRequest, 'audience' | 'variables'>): Promise<Audience> {
    const build = () => buildAudience(this.db, companyId, channelId, request.audience, this.contactSource());
    const result = request.audience.type === 'csv' ? await this.csvLine.run(companyId, build) : await build();
    if (!result.ok) throw fieldError(result.field, CSV_ERRORS[result.error] ?? result.error);
    const audience = result.value;
    // Attribute variables of a contacts filter or a CSV list: the attributes of the company's contact with that phone.
    const source = this.contactSource();
    if (source && request.audience.type !== 'segment' && request.variables && usesAttributes(request.variables)) {
      const byPhone = await source.attributesByPhone(companyId, audience.members.map((m) => m.phone));
      for (const m of audience.members) m.attributes = byPhone.get(m.phone) ?? {};
    }
    return audience;
  }

  /** Attribute variables name defined attributes (none can be used without the contacts plugin). */
  private async attributeProblems(companyId: number, variables: BroadcastVariables | undefined): Promise<Record<string, string>> {
    if (!variables || !usesAttributes(variables)) return {};
    const source = this.contactSource();
    return unknownAttributes(variables, source ? await source.attributeKeys(companyId) : []);
  }

  // ---------- reads ----------

  async list(companyId: number, query: BroadcastListQuery, url: string): Promise<Paged<Broadcast>> {
    // Prepared once per shape (which filters are on): the list is the broadcasts page's first request.
    const shape = shapeOf({ status: Boolean(query.status), channel: Boolean(query.page_id), search: Boolean(query.search) });
    const where = (): SQL => {
      const conditions: SQL[] = [eq(broadcasts.companyId, sql.placeholder('companyId'))];
      if (query.status) conditions.push(eq(broadcasts.status, sql.placeholder('status')));
      if (query.page_id) conditions.push(eq(broadcasts.channelId, sql.placeholder('channelId')));
      if (query.search) conditions.push(ilike(broadcasts.name, sql.placeholder('pattern')));
      return and(...conditions)!;
    };
    const counted = prepared(this.db, `broadcasts_count${shape}`, (db, name) => db.select({ n: count() }).from(broadcasts).where(where()).prepare(name));
    const listed = prepared(this.db, `broadcasts_page${shape}`, (db, name) =>
      db.select().from(broadcasts).where(where()).orderBy(desc(broadcasts.createdAt), desc(broadcasts.id)).limit(sql.placeholder('limit')).offset(sql.placeholder('offset')).prepare(name),
    );
    const page = { page: query.page, pageSize: query.page_size };
    const values = { companyId, status: query.status ?? null, channelId: query.page_id ?? null, pattern: query.search ? containsPattern(query.search) : null };
    const [{ n }] = await counted.execute(values);
    const rows = await listed.execute({ ...values, limit: page.pageSize, offset: offsetOf(page) });
    return paged(url, page, Number(n), rows.map(toBroadcast));
  }

  async detail(companyId: number, id: number): Promise<BroadcastDetail> {
    return this.detailOf(await this.row(companyId, id));
  }

  private async detailOf(row: BroadcastRow): Promise<BroadcastDetail> {
    const base = toBroadcast(row);
    const failures = await this.db
      .select({ code: broadcastRecipients.errorCode, title: sql<string | null>`min(${broadcastRecipients.errorTitle})`, n: count() })
      .from(broadcastRecipients)
      .where(and(eq(broadcastRecipients.broadcastId, row.id), eq(broadcastRecipients.state, 'failed')))
      .groupBy(broadcastRecipients.errorCode)
      .orderBy(desc(count()));
    // Duplicates and invalid numbers have no row (counted at creation); the others are counted from the rows,
    // so a customer who opts out while the broadcast runs (the engine excludes them) shows up too.
    const excluded = emptyExclusions();
    for (const reason of EXCLUSION_REASONS) excluded[reason] = row.exclusions[reason] ?? 0;
    const byReason = await this.db
      .select({ reason: broadcastRecipients.exclusionReason, n: count() })
      .from(broadcastRecipients)
      .where(and(eq(broadcastRecipients.broadcastId, row.id), eq(broadcastRecipients.state, 'excluded')))
      .groupBy(broadcastRecipients.exclusionReason);
    for (const r of byReason) if (r.reason && r.reason !== 'duplicate' && r.reason !== 'invalid_number') excluded[r.reason] = Number(r.n);
    return {
      ...base,
      variables: row.variables,
      header_media_url: row.headerMediaUrl,
      audience:
        row.audienceType === 'contacts'
          ? { type: 'contacts', filter: row.audienceFilter ?? { term: '', tags: [], channels: [] } }
          : row.audienceType === 'segment'
            ? { type: 'segment', segment_id: row.audienceSegment?.id ?? null, name: row.audienceSegment?.name ?? '' }
            : { type: 'csv', file_name: row.csvFileName },
      excluded,
      funnel: [
        { step: 'recipients', count: row.nUsers },
        { step: 'sent', count: row.sentCount },
        { step: 'delivered', count: row.deliveredCount },
        { step: 'read', count: row.readCount },
        { step: 'replied', count: row.repliedCount },
      ],
      failures: failures.map((f) => ({ code: f.code, title: describeMetaError(f.code, f.title) ?? 'Failed', count: Number(f.n) })),
    };
  }

  async recipients(companyId: number, id: number, query: RecipientListQuery, url: string): Promise<Paged<BroadcastRecipient>> {
    const shape = templateShape((await this.row(companyId, id)).templateComponents);
    const where: SQL[] = [eq(broadcastRecipients.broadcastId, id)];
    if (query.status) where.push(eq(broadcastRecipients.state, query.status));
    if (query.search) {
      const pattern = containsPattern(query.search);
      where.push(sql`(${ilike(broadcastRecipients.phone, pattern)} or ${ilike(broadcastRecipients.name, pattern)})`);
    }
    const page = { page: query.page, pageSize: query.page_size };
    const [{ n }] = await this.db.select({ n: count() }).from(broadcastRecipients).where(and(...where));
    const rows = await this.db
      .select()
      .from(broadcastRecipients)
      .where(and(...where))
      .orderBy(asc(broadcastRecipients.id))
      .limit(page.pageSize)
      .offset(offsetOf(page));
    return paged(url, page, Number(n), rows.map((r) => toRecipient(r, shape)));
  }

  /** One row per recipient (excluded ones included), in the order they were added. */
  async report(companyId: number, id: number): Promise<BroadcastReport> {
    const shape = templateShape((await this.row(companyId, id)).templateComponents);
    const data: BroadcastReport['data'] = [];
    const PAGE = 5000;
    // The columns the report shows, in pages by id, prepared once (bench/data, issue #26).
    const statement = prepared(this.db, 'broadcast_report_page', (db, name) =>
      db
        .select(REPORT_COLUMNS)
        .from(broadcastRecipients)
        .where(and(eq(broadcastRecipients.broadcastId, sql.placeholder('id')), sql`${broadcastRecipients.id} > ${sql.placeholder('after')}`))
        .orderBy(asc(broadcastRecipients.id))
        .limit(PAGE)
        .prepare(name),
    );
    for (let after = 0; ; ) {
      const rows = await statement.execute({ id, after });
      for (const r of rows) {
        data.push([
          r.phone,
          r.name,
          r.state,
          r.exclusionReason,
          r.errorCode,
          r.state === 'failed' || r.errorCode !== null ? describeMetaError(r.errorCode, r.errorTitle) : null,
          r.attempts,
          r.waMessageId,
          iso(r.queuedAt),
          iso(r.sentAt),
          iso(r.deliveredAt),
          iso(r.readAt),
          iso(r.repliedAt),
          iso(r.failedAt),
          messageOf(r, shape),
        ]);
      }
      if (rows.length < PAGE) break;
      after = rows[rows.length - 1].id;
    }
    return { headers: [...REPORT_HEADERS], data };
  }

  // ---------- preview and create ----------

  /** A media header's URL as stored: our own file only of this company (without its signature), or a public URL. */
  private mediaUrl(companyId: number, url: string | undefined): string | null {
    if (!url) return null;
    const storage = this.deps.storage?.();
    if (!storage) return url;
    const key = storage.keyOfUrl(url);
    if (key !== null && companyOfPrivateKey(key) !== null && companyOfPrivateKey(key) !== companyId) throw fieldError('header_media_url', 'Upload the file again.');
    return storedMediaUrl(storage, url);
  }

  private checkVariables(shape: TemplateShape, body: Pick<BroadcastCreate, 'variables' | 'header_media_url'>, columns: string[], attributeProblems: Record<string, string>): void {
    const problems = { ...missingMappings(shape, body.variables, body.header_media_url), ...unknownColumns(body.variables, columns), ...attributeProblems };
    const entries = Object.entries(problems);
    if (entries.length) throw validationError(Object.fromEntries(entries.map(([k, v]) => [k, [v]])));
  }

  async preview(companyId: number, request: AudiencePreviewRequest): Promise<AudiencePreview> {
    const channel = await this.channel(companyId, request.page_id);
    const audience = await this.audience(companyId, channel.id, request);
    const sendable = audience.members.filter((m) => !m.excluded);
    const limit = await messagingLimitUsage(this.db, channel, this.deps.clock.now());
    const overLimit = limit.remaining === null ? 0 : Math.max(0, sendable.length - limit.remaining);
    const excluded = { ...audience.excluded, over_limit: overLimit };
    let message: AudiencePreview['message'];
    if (request.template) {
      const template = await this.template(companyId, channel.id, request.template);
      const shape = templateShape(template.components);
      const variables = request.variables ?? { body: {} };
      const first = sendable[0];
      const missing = { ...missingMappings(shape, variables, 'preview'), ...unknownColumns(variables, audience.columns), ...(await this.attributeProblems(companyId, variables)) };
      message = first && !Object.keys(missing).length ? renderMessage(shape, resolveVariables(shape, variables, first), request.header_media_url ?? null) : null;
    }
    return {
      total: audience.total,
      recipients: sendable.length,
      excluded,
      bad_rows: audience.badRows.slice(0, 1000),
      columns: audience.columns,
      phone_column: audience.phoneColumn,
      name_column: audience.nameColumn,
      sample: sendable.slice(0, 20).map((m) => ({ phone: m.phone, name: m.name, values: m.values })),
      messaging_limit: limit,
      over_limit_warning: overLimit > 0,
      ...(message !== undefined ? { message } : {}),
    };
  }

  async create(companyId: number, userId: number | null, body: BroadcastCreate): Promise<BroadcastDetail> {
    const channel = await this.channel(companyId, body.page_id);
    const template = await this.template(companyId, channel.id, body.template);
    const shape = templateShape(template.components);
    const audience = await this.audience(companyId, channel.id, body);
    this.checkVariables(shape, body, audience.columns, await this.attributeProblems(companyId, body.variables));
    const sendable = audience.members.filter((m) => !m.excluded);
    if (!sendable.length) throw fieldError('audience', BROADCAST_MESSAGES.noRecipients);
    // The plan's broadcast recipients per month (issue #14).
    await this.deps.planLimits.check(companyId, 'broadcast_recipients_per_month', sendable.length);

    const now = this.deps.clock.now();
    let status: BroadcastStatus = 'sending';
    let scheduledAt: Date | null = null;
    let timeZone: string | null = null;
    if (body.schedule.mode === 'later') {
      scheduledAt = zonedTimeToUtc(body.schedule.at, body.schedule.time_zone);
      if (!scheduledAt) throw fieldError('schedule.at', 'Enter a date and time (YYYY-MM-DDTHH:mm).');
      if (scheduledAt.getTime() <= now.getTime()) throw fieldError('schedule.at', BROADCAST_MESSAGES.scheduleInPast);
      status = 'scheduled';
      timeZone = body.schedule.time_zone;
    }

    const exclusions: Partial<Record<ExclusionReason, number>> = {};
    for (const reason of EXCLUSION_REASONS) if (audience.excluded[reason]) exclusions[reason] = audience.excluded[reason];
    const excludedCount = Object.values(exclusions).reduce((a, n) => a + (n ?? 0), 0);

    const row = await this.db.transaction(async (tx) => {
      const [created] = await tx
        .insert(broadcasts)
        .values({
          companyId,
          channelId: channel.id,
          name: body.name,
          templateName: template.name,
          templateLanguage: template.language,
          templateId: template.id,
          templateComponents: template.components,
          templateCategory: template.category,
          variables: body.variables,
          headerMediaUrl: this.mediaUrl(companyId, body.header_media_url),
          audienceType: body.audience.type,
          audienceFilter: body.audience.type === 'contacts' ? body.audience.filter : null,
          csvFileName: audience.fileName,
          audienceSegment: audience.segment,
          exclusions,
          status,
          scheduledAt,
          timeZone,
          startedAt: status === 'sending' ? now : null,
          nUsers: sendable.length,
          queuedCount: sendable.length,
          excludedCount,
          createdBy: userId,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      const values = audience.members.map((m) => ({
        broadcastId: created.id,
        companyId,
        phone: m.phone,
        name: m.name.slice(0, 256),
        roomId: m.roomId,
        rowNumber: m.row,
        variables: resolveVariables(shape, body.variables, m),
        state: m.excluded ? ('excluded' as const) : ('queued' as const),
        exclusionReason: m.excluded,
        queuedAt: m.excluded ? null : now,
        createdAt: now,
      }));
      for (let i = 0; i < values.length; i += INSERT_CHUNK) await tx.insert(broadcastRecipients).values(values.slice(i, i + INSERT_CHUNK));
      return created;
    });
    await this.deps.engine().start(row.id);
    await this.push(row);
    return this.detailOf(row);
  }

  // ---------- controls ----------

  /** Sets the status only if it is still one of `from` (the engine may have moved it meanwhile, e.g. sending → completed). */
  private async setStatus(row: BroadcastRow, values: Partial<BroadcastRow>, from: readonly BroadcastStatus[], refusal: string): Promise<BroadcastRow> {
    if (!from.includes(row.status)) throw badRequest(refusal, 'invalid_status');
    const [updated] = await this.db
      .update(broadcasts)
      .set({ ...values, updatedAt: this.deps.clock.now() })
      .where(and(eq(broadcasts.id, row.id), inArray(broadcasts.status, [...from])))
      .returning();
    if (!updated) throw badRequest(refusal, 'invalid_status');
    return updated;
  }

  async pause(companyId: number, id: number): Promise<Broadcast> {
    const row = await this.row(companyId, id);
    const updated = await this.setStatus(row, { status: 'paused', pausedAt: this.deps.clock.now(), statusReason: null }, ACTIVE_BROADCAST_STATUSES, BROADCAST_MESSAGES.cannotPause);
    await this.deps.engine().pause(id);
    await this.push(updated);
    return toBroadcast(updated);
  }

  async resume(companyId: number, id: number): Promise<Broadcast> {
    const row = await this.row(companyId, id);
    const now = this.deps.clock.now();
    const future = row.scheduledAt !== null && row.scheduledAt.getTime() > now.getTime();
    const updated = await this.setStatus(row, {
      status: future ? 'scheduled' : 'sending',
      pausedAt: null,
      statusReason: null,
      startedAt: future ? row.startedAt : (row.startedAt ?? now),
    }, ['paused'], BROADCAST_MESSAGES.cannotResume);
    await this.deps.engine().resume(id);
    await this.push(updated);
    return toBroadcast(updated);
  }

  async cancel(companyId: number, id: number): Promise<Broadcast> {
    const row = await this.row(companyId, id);
    return toBroadcast(await this.cancelRow(row));
  }

  private async cancelRow(row: BroadcastRow): Promise<BroadcastRow> {
    const updated = await this.setStatus(row, { status: 'cancelled', cancelledAt: this.deps.clock.now(), statusReason: null }, CANCELLABLE, BROADCAST_MESSAGES.cannotCancel);
    await this.deps.engine().cancel(row.id);
    await this.push(updated);
    return updated;
  }

  /** Failed recipients (all, or the given ones) back to queued; the broadcast sends again. */
  async retry(companyId: number, id: number, recipientIds: number[] | undefined): Promise<Broadcast> {
    const row = await this.row(companyId, id);
    if (row.status === 'cancelled') throw badRequest(BROADCAST_MESSAGES.cannotCancel, 'invalid_status');
    const now = this.deps.clock.now();
    const where = [eq(broadcastRecipients.broadcastId, id), eq(broadcastRecipients.state, 'failed')];
    if (recipientIds?.length) where.push(inArray(broadcastRecipients.id, recipientIds));
    const retried = await this.db.transaction(async (tx) => {
      const rows = await tx
        .update(broadcastRecipients)
        .set({ state: 'queued', queuedAt: now, failedAt: null, nextAttemptAt: null, errorCode: null, errorTitle: null, errorDetail: null })
        .where(and(...where))
        .returning({ id: broadcastRecipients.id });
      if (rows.length && row.status !== 'paused') {
        const future = row.scheduledAt !== null && row.scheduledAt.getTime() > now.getTime();
        await tx
          .update(broadcasts)
          .set({ status: future ? 'scheduled' : 'sending', completedAt: null, statusReason: null, updatedAt: now })
          .where(eq(broadcasts.id, id));
      }
      return rows.map((r) => r.id);
    });
    if (!retried.length) throw badRequest(BROADCAST_MESSAGES.nothingToRetry, 'nothing_to_retry');
    const updated = (await recountBroadcast(this.db, id))!;
    await this.deps.engine().retry(id, retried);
    await this.push(updated);
    return toBroadcast(updated);
  }

  /** Spec §7 DELETE: a running (or scheduled, paused) broadcast is cancelled first, then removed with its recipients. */
  async remove(companyId: number, id: number, bodyId: number | undefined): Promise<void> {
    if (bodyId !== undefined && bodyId !== id) throw fieldError('broadcast_id', 'Does not match the broadcast in the address.');
    let row = await this.row(companyId, id);
    if (CANCELLABLE.includes(row.status)) {
      try {
        row = await this.cancelRow(row);
      } catch {
        // It ended meanwhile: nothing left to cancel.
        row = await this.row(companyId, id);
      }
    }
    await this.db.delete(broadcasts).where(and(eq(broadcasts.id, id), eq(broadcasts.companyId, companyId)));
    await this.push(row, true);
  }
}
