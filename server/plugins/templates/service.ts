/**
 * WhatsApp message templates of a company's channels (issue #10). Our copy lives in
 * `whatsapp_templates` (one row per WhatsApp Business Account, name and language) and is synced
 * from Meta: on demand (`refresh=true`), when a list is opened (in the background, served from the
 * copy at once; only a never-synced account waits, and then at most LIST_SYNC_WAIT_MS), and by
 * Meta's status and quality webhooks. Writes validate with the contract first (the route's
 * schema), check Meta's limits, call Meta, and store only what Meta accepted.
 */
import { and, asc, count, desc, eq, gt, ilike, inArray, notInArray, or, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { FastifyBaseLogger } from 'fastify';
import {
  TEMPLATE_LIMITS,
  TEMPLATE_MESSAGES,
  type TemplateDefinition,
  type TemplateEdit,
  TemplateListQuery,
  type TemplateLimitsUsage,
  type TemplateStats,
  type TemplateStatusChange,
  type WhatsAppTemplate,
} from '../../../contract/templates';
import type { Clock } from '../../core/clock';
import type { Database } from '../../core/db/client';
import { prepared, shapeOf } from '../../core/db/prepared';
import { containsPattern } from '../../core/paging';
import { KeyedJobs, NotYetError } from '../../core/jobs/backgroundJob';
import type { Leases } from '../../core/jobs/leases';
import { channels, messages, rooms, whatsappTemplateCreations, whatsappTemplateStatusHistory, whatsappTemplates } from '../../core/db/schema';
import { ApiError, notFound } from '../../core/errors';
import { GraphApiError, type MetaGraph, type TemplateWebhookEvent } from '../../providers/meta/types';
import { graphFailure, type ChannelService } from '../channels';

type ChannelRow = typeof channels.$inferSelect;
type TemplateRow = typeof whatsappTemplates.$inferSelect;

/** How long opening a never-synced list waits for Meta before answering with what we have. */
export const LIST_SYNC_WAIT_MS = 3000;
/*
 * `status_at` / `quality_at` hold only the times of Meta's events (entry.time, whole seconds), so
 * ordering compares Meta's clock with Meta's clock; our own changes (create, edit, sync) leave them.
 */
/** A list opened again within this time does not ask Meta again. */
export const SYNC_INTERVAL_MS = 30_000;
/** Meta's subcode for "content in this language already exists". */
const DUPLICATE_SUBCODE = 2388024;

export interface TemplateDeps {
  db: Database;
  clock: Clock;
  graph: () => MetaGraph;
  channels: ChannelService;
  log: FastifyBaseLogger;
  /** Pushes a change to open consoles (the channel's `page:{id}` topic). */
  push: (channelId: number, event: string, payload: unknown) => Promise<void>;
  /** The background sync's interval per account, held across processes (Redis in a cluster). */
  leases: Leases;
}

export const TEMPLATE_EVENT = 'template_status';
/** How long after Meta's review an event for a template we do not have is tried again (see applyWebhook). */
export const UNKNOWN_TEMPLATE_RETRY_MS = 60_000;

function notSupported(): ApiError {
  return new ApiError(400, { detail: TEMPLATE_MESSAGES.notSupported, code: 'templates_not_supported' });
}

export function toTemplate(row: TemplateRow): WhatsAppTemplate {
  return {
    id: row.id,
    channel_id: row.channelId,
    meta_template_id: row.metaTemplateId,
    name: row.name,
    language: row.language,
    category: row.category as WhatsAppTemplate['category'],
    components: row.components as WhatsAppTemplate['components'],
    status: row.status as WhatsAppTemplate['status'],
    rejected_reason: row.rejectedReason,
    quality_score: row.qualityScore as WhatsAppTemplate['quality_score'],
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export class TemplateService {
  private readonly lastSync = new Map<string, number>();
  /** Background syncs by WhatsApp Business Account: one at a time per account. */
  private readonly syncs: KeyedJobs<string>;
  /** Creates waiting for Meta's answer or our insert, by account, name and language (see applyWebhook). */
  private readonly creating = new Map<string, Promise<unknown>>();

  constructor(private readonly deps: TemplateDeps) {
    this.syncs = new KeyedJobs({ log: deps.log, failureMessage: 'template sync failed', logFields: (wabaId) => ({ wabaId }) });
  }

  private get db(): Database {
    return this.deps.db;
  }

  /** Waits for background syncs (tests, shutdown). */
  async settled(): Promise<void> {
    await this.syncs.settled();
  }

  /** The company's channel; Messenger and Instagram have no template API (a clear 400). */
  private async channel(companyId: number, channelId: number): Promise<ChannelRow> {
    const row = await this.deps.channels.channelOf(companyId, channelId);
    if (row.platform === 'messenger' || row.platform === 'instagram') throw notSupported();
    return row;
  }

  /** A WhatsApp channel that can call Meta: its WABA and token. */
  async connected(companyId: number, channelId: number): Promise<{ row: ChannelRow; wabaId: string; token: string }> {
    const row = await this.channel(companyId, channelId);
    const token = row.platform === 'whatsapp' && row.status !== 'disconnected' && row.wabaId ? this.deps.channels.tokenOf(row) : null;
    if (!token || !row.wabaId) throw new ApiError(400, { detail: 'Connect this WhatsApp number again to manage its templates.', code: 'channel_not_connected' });
    return { row, wabaId: row.wabaId, token };
  }

  // ---------- list and sync ----------

  async list(companyId: number, channelId: number, query: z.output<typeof TemplateListQuery>) {
    const row = await this.channel(companyId, channelId);
    if (row.platform !== 'whatsapp' || !row.wabaId) return { count: 0, next: null, previous: null, results: [] as WhatsAppTemplate[] };
    if (query.refresh === 'true') await this.sync(companyId, channelId);
    else await this.syncWhenOpened(companyId, row);

    const values = {
      companyId,
      wabaId: row.wabaId,
      status: query.status ?? null,
      category: query.category ?? null,
      language: query.language ?? null,
      pattern: query.search ? containsPattern(query.search) : null,
    };
    // The filter once, bound to the values (the rare empty page's count) or to placeholders (the prepared page).
    const filterOf = (bind: <K extends keyof typeof values>(name: K) => NonNullable<(typeof values)[K]> | Placeholder): SQL => {
      const where: SQL[] = [eq(whatsappTemplates.companyId, bind('companyId')), eq(whatsappTemplates.wabaId, bind('wabaId'))];
      if (query.status) where.push(eq(whatsappTemplates.status, bind('status')));
      if (query.category) where.push(eq(whatsappTemplates.category, bind('category')));
      if (query.language) where.push(eq(whatsappTemplates.language, bind('language')));
      if (query.search) where.push(ilike(whatsappTemplates.name, bind('pattern')));
      return and(...where)!;
    };
    const hourAgo = new Date(this.deps.clock.now().getTime() - 3600_000);
    // The page with the count and the limits' usage as scalar subqueries: one round trip (bench/data), prepared
    // once per shape (which filters are on): the templates page opens with it.
    const shape = shapeOf({ status: Boolean(query.status), category: Boolean(query.category), language: Boolean(query.language), search: Boolean(query.search) });
    const page = prepared(this.db, `templates_page${shape}`, (db, name) => {
      const filtered = filterOf((key) => sql.placeholder(key));
      return db
        .select({
          template: whatsappTemplates,
          total: sql<number>`(${db.select({ n: count() }).from(whatsappTemplates).where(filtered)})`.mapWith(Number),
          recent: sql<number>`(${this.recentCreations(sql.placeholder('wabaId'), sql.placeholder('hourAgo'))})`.mapWith(Number),
          all: sql<number>`(${this.accountTemplates(sql.placeholder('companyId'), sql.placeholder('wabaId'))})`.mapWith(Number),
        })
        .from(whatsappTemplates)
        .where(filtered)
        .orderBy(desc(whatsappTemplates.updatedAt), desc(whatsappTemplates.id))
        .limit(sql.placeholder('limit'))
        .offset(sql.placeholder('offset'))
        .prepare(name);
    });
    const joined = await page.execute({ ...values, hourAgo: hourAgo.toISOString(), limit: query.page_size, offset: (query.page - 1) * query.page_size });
    let total: number;
    let limits: TemplateLimitsUsage;
    if (joined.length > 0) {
      total = joined[0].total;
      limits = this.limitsOf(row, joined[0].recent, joined[0].all);
    } else {
      // An empty page (past the end, or no template): the count and the limits apart.
      const [[counted], usage] = await Promise.all([this.db.select({ total: count() }).from(whatsappTemplates).where(filterOf((key) => values[key]!)), this.limits(companyId, row, row.wabaId)]);
      total = counted.total;
      limits = usage;
    }
    const rows = joined.map((j) => j.template);
    const more = query.page * query.page_size < total;
    return { count: total, next: more ? query.page + 1 : null, previous: query.page > 1 ? query.page - 1 : null, results: rows.map(toTemplate), limits };
  }

  private recentCreations(wabaId: string | Placeholder, hourAgo: Date | Placeholder) {
    return this.db
      .select({ recent: count() })
      .from(whatsappTemplateCreations)
      .where(and(eq(whatsappTemplateCreations.wabaId, wabaId), gt(whatsappTemplateCreations.createdAt, hourAgo)));
  }

  private accountTemplates(companyId: number | Placeholder, wabaId: string | Placeholder) {
    return this.db.select({ total: count() }).from(whatsappTemplates).where(and(eq(whatsappTemplates.companyId, companyId), eq(whatsappTemplates.wabaId, wabaId)));
  }

  private limitsOf(row: ChannelRow, recent: number, total: number): TemplateLimitsUsage {
    return {
      creations_last_hour: recent,
      creations_per_hour: TEMPLATE_LIMITS.creationsPerHour,
      templates: total,
      templates_max: row.settings?.business_verified === true ? null : TEMPLATE_LIMITS.templatesPerUnverifiedAccount,
    };
  }

  /** Meta's limits and how much of them the account has used, so the console shows them before they are hit. */
  async limits(companyId: number, row: ChannelRow, wabaId: string): Promise<TemplateLimitsUsage> {
    const hourAgo = new Date(this.deps.clock.now().getTime() - 3600_000);
    const [[{ recent }], [{ total }]] = await Promise.all([this.recentCreations(wabaId, hourAgo), this.accountTemplates(companyId, wabaId)]);
    return this.limitsOf(row, recent, total);
  }

  /** Opening the list: a never-synced account waits a little for Meta, others are refreshed in the background. */
  private async syncWhenOpened(companyId: number, row: ChannelRow): Promise<void> {
    const key = row.wabaId!;
    const last = this.lastSync.get(key);
    if (last !== undefined && this.deps.clock.now().getTime() - last < SYNC_INTERVAL_MS) return;
    // One background sync per account and interval in the whole cluster: the lease, never released, is
    // the interval (another process synced it less than SYNC_INTERVAL_MS ago: our copy is that fresh).
    // Redis unreachable: sync anyway (a second call to Meta costs less than a stale list).
    const lease = await this.deps.leases.acquire(`template-sync:${key}`, SYNC_INTERVAL_MS).catch(() => 'unshared');
    if (!lease) return;
    const running = this.backgroundSync(companyId, row.id, key);
    if (last !== undefined) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([running, new Promise<void>((resolve) => (timer = setTimeout(resolve, LIST_SYNC_WAIT_MS)))]);
    clearTimeout(timer);
  }

  private backgroundSync(companyId: number, channelId: number, key: string): Promise<void> {
    // A failure is only a warning: the list is served from our copy.
    return this.syncs.run(key, () => this.sync(companyId, channelId).catch((err) => this.deps.log.warn({ err, channelId }, 'template sync failed; the list shows our copy')));
  }

  /**
   * Replaces our copy of the account's templates with Meta's list (status changes recorded in the history).
   *
   * The list is as Meta had it when it answered; meanwhile a create of ours may have stored a template the list
   * does not hold yet, or a webhook may have moved a status past the listed one. So only what was ours *before*
   * the list was asked for, and is unchanged since (read again under a row lock), is updated or
   * deleted: an end-to-end run saw a sync delete a carousel just created, and its approval then found nothing.
   */
  async sync(companyId: number, channelId: number): Promise<void> {
    const { row, wabaId, token } = await this.connected(companyId, channelId);
    const ofAccount = and(eq(whatsappTemplates.companyId, companyId), eq(whatsappTemplates.wabaId, wabaId));
    // The whole row, not only updated_at: two changes may share a clock reading.
    const before = new Map((await this.db.select().from(whatsappTemplates).where(ofAccount)).map((r) => [r.id, JSON.stringify(r)]));
    /** Ours before the list was asked for and not changed since (the caller holds the row's lock). */
    const unchangedSinceListed = (existing: TemplateRow) => before.get(existing.id) === JSON.stringify(existing);
    const listed = await this.deps.graph().messageTemplates(wabaId, token).catch(graphFailure(this.deps.log, [token]));
    this.lastSync.set(wabaId, this.deps.clock.now().getTime());
    const now = this.deps.clock.now();
    const changed: TemplateRow[] = [];
    await this.db.transaction(async (tx) => {
      for (const t of listed) {
        const [existing] = await tx
          .select()
          .from(whatsappTemplates)
          .where(and(eq(whatsappTemplates.wabaId, wabaId), eq(whatsappTemplates.name, t.name), eq(whatsappTemplates.language, t.language)))
          .for('update');
        const values = {
          metaTemplateId: t.id,
          category: t.category,
          components: t.components as unknown[],
          status: t.status,
          rejectedReason: t.status === 'REJECTED' ? (t.rejected_reason ?? existing?.rejectedReason ?? null) : null,
          qualityScore: t.quality_score ?? existing?.qualityScore ?? 'UNKNOWN',
        };
        if (!existing) {
          // A create of ours may store the same template meanwhile: its row wins (it is as fresh as this list).
          const [inserted] = await tx
            .insert(whatsappTemplates)
            .values({ companyId, channelId: row.id, wabaId, name: t.name, language: t.language, ...values, updatedAt: now })
            .onConflictDoNothing()
            .returning();
          if (inserted) await tx.insert(whatsappTemplateStatusHistory).values({ templateId: inserted.id, status: t.status, reason: values.rejectedReason, at: now });
          continue;
        }
        if (existing.companyId !== companyId || !unchangedSinceListed(existing)) continue;
        const statusMoved = existing.status !== t.status;
        const differs = statusMoved || existing.metaTemplateId !== t.id || existing.category !== t.category || existing.qualityScore !== values.qualityScore || JSON.stringify(existing.components) !== JSON.stringify(t.components);
        if (!differs) continue;
        const [updated] = await tx
          .update(whatsappTemplates)
          .set({ ...values, updatedAt: now })
          .where(eq(whatsappTemplates.id, existing.id))
          .returning();
        if (statusMoved) {
          await tx.insert(whatsappTemplateStatusHistory).values({ templateId: existing.id, status: t.status, reason: values.rejectedReason, at: now });
          changed.push(updated);
        }
      }
      // What Meta no longer lists was deleted there (in WhatsApp Manager, or by another tool).
      const ids = listed.map((t) => t.id);
      const unlisted = await tx
        .select()
        .from(whatsappTemplates)
        .where(and(ofAccount, ids.length ? notInArray(whatsappTemplates.metaTemplateId, ids) : undefined))
        .for('update');
      const gone = unlisted.filter(unchangedSinceListed).map((r) => r.id);
      if (gone.length) await tx.delete(whatsappTemplates).where(inArray(whatsappTemplates.id, gone));
    });
    for (const updated of changed) await this.pushChange(updated);
  }

  // ---------- create, edit, delete ----------

  async create(companyId: number, channelId: number, input: TemplateDefinition): Promise<WhatsAppTemplate> {
    const { row, wabaId, token } = await this.connected(companyId, channelId);
    await this.checkLimits(companyId, row, wabaId, input);
    const key = creationKey(wabaId, input.name, input.language);
    const creation = this.createChecked(companyId, row, wabaId, token, input);
    this.creating.set(key, creation);
    try {
      return await creation;
    } finally {
      if (this.creating.get(key) === creation) this.creating.delete(key);
    }
  }

  private async createChecked(companyId: number, row: ChannelRow, wabaId: string, token: string, input: TemplateDefinition): Promise<WhatsAppTemplate> {
    const graph = this.deps.graph();
    let created: { id: string; status: string; category: string };
    try {
      created = await graph.createMessageTemplate(wabaId, token, input);
    } catch (err) {
      if (err instanceof GraphApiError && err.subcode === DUPLICATE_SUBCODE) throw new ApiError(400, { name: [TEMPLATE_MESSAGES.duplicate] });
      return graphFailure(this.deps.log, [token])(err);
    }
    const now = this.deps.clock.now();
    // Only what Meta accepted is stored (a refusal above leaves nothing behind).
    const inserted = await this.db.transaction(async (tx) => {
      const [template] = await tx
        .insert(whatsappTemplates)
        .values({
          companyId,
          channelId: row.id,
          wabaId,
          metaTemplateId: created.id,
          name: input.name,
          language: input.language,
          category: created.category || input.category,
          components: input.components,
          status: created.status || 'PENDING',
        })
        .onConflictDoUpdate({
          target: [whatsappTemplates.wabaId, whatsappTemplates.name, whatsappTemplates.language],
          set: { metaTemplateId: created.id, category: created.category || input.category, components: input.components, status: created.status || 'PENDING', statusAt: null, updatedAt: now },
        })
        .returning();
      await tx.insert(whatsappTemplateStatusHistory).values({ templateId: template.id, status: template.status, at: now });
      await tx.insert(whatsappTemplateCreations).values({ wabaId, createdAt: now });
      return template;
    });
    return toTemplate(inserted);
  }

  /** Duplicate name + language, Meta's hourly creations and its cap for unverified businesses, before Meta is called. */
  private async checkLimits(companyId: number, row: ChannelRow, wabaId: string, input: TemplateDefinition): Promise<void> {
    const [duplicate] = await this.db
      .select({ id: whatsappTemplates.id })
      .from(whatsappTemplates)
      .where(and(eq(whatsappTemplates.wabaId, wabaId), eq(whatsappTemplates.name, input.name), eq(whatsappTemplates.language, input.language)));
    if (duplicate) throw new ApiError(400, { name: [TEMPLATE_MESSAGES.duplicate] });
    const hourAgo = new Date(this.deps.clock.now().getTime() - 3600_000);
    const [{ recent }] = await this.db
      .select({ recent: count() })
      .from(whatsappTemplateCreations)
      .where(and(eq(whatsappTemplateCreations.wabaId, wabaId), gt(whatsappTemplateCreations.createdAt, hourAgo)));
    if (recent >= TEMPLATE_LIMITS.creationsPerHour) throw new ApiError(400, { detail: TEMPLATE_MESSAGES.hourlyLimit, code: 'template_hourly_limit' });
    const verified = row.settings?.business_verified === true;
    if (!verified) {
      const [{ total }] = await this.db.select({ total: count() }).from(whatsappTemplates).where(and(eq(whatsappTemplates.companyId, companyId), eq(whatsappTemplates.wabaId, wabaId)));
      if (total >= TEMPLATE_LIMITS.templatesPerUnverifiedAccount) throw new ApiError(400, { detail: TEMPLATE_MESSAGES.accountLimit, code: 'template_account_limit' });
    }
  }

  /** The company's template, reached through the path's channel (another company's ids are 404). */
  private async templateOf(companyId: number, channelId: number, templateId: number): Promise<{ template: TemplateRow; wabaId: string; token: string }> {
    const { wabaId, token } = await this.connected(companyId, channelId);
    const [template] = await this.db
      .select()
      .from(whatsappTemplates)
      .where(and(eq(whatsappTemplates.id, templateId), eq(whatsappTemplates.companyId, companyId), eq(whatsappTemplates.wabaId, wabaId)));
    if (!template) throw notFound();
    return { template, wabaId, token };
  }

  async edit(companyId: number, channelId: number, templateId: number, input: TemplateEdit): Promise<WhatsAppTemplate> {
    const { template, token } = await this.templateOf(companyId, channelId, templateId);
    if (!template.metaTemplateId) throw notFound();
    await this.deps.graph().editMessageTemplate(template.metaTemplateId, token, input).catch(graphFailure(this.deps.log, [token]));
    const now = this.deps.clock.now();
    const [updated] = await this.db.transaction(async (tx) => {
      const result = await tx
        .update(whatsappTemplates)
        .set({ category: input.category, components: input.components, status: 'PENDING', rejectedReason: null, updatedAt: now })
        .where(eq(whatsappTemplates.id, template.id))
        .returning();
      await tx.insert(whatsappTemplateStatusHistory).values({ templateId: template.id, status: 'PENDING', at: now });
      return result;
    });
    return toTemplate(updated);
  }

  async remove(companyId: number, channelId: number, templateId: number): Promise<void> {
    const { template, wabaId, token } = await this.templateOf(companyId, channelId, templateId);
    await this.deps.graph().deleteMessageTemplate(wabaId, token, template.name, template.metaTemplateId ?? undefined).catch(graphFailure(this.deps.log, [token]));
    await this.db.delete(whatsappTemplates).where(eq(whatsappTemplates.id, template.id));
  }

  async history(companyId: number, channelId: number, templateId: number): Promise<TemplateStatusChange[]> {
    const row = await this.channel(companyId, channelId);
    const [template] = await this.db
      .select({ id: whatsappTemplates.id })
      .from(whatsappTemplates)
      .where(and(eq(whatsappTemplates.id, templateId), eq(whatsappTemplates.companyId, companyId), eq(whatsappTemplates.wabaId, row.wabaId ?? '')));
    if (!template) throw notFound();
    const rows = await this.db
      .select()
      .from(whatsappTemplateStatusHistory)
      .where(eq(whatsappTemplateStatusHistory.templateId, template.id))
      .orderBy(asc(whatsappTemplateStatusHistory.at), asc(whatsappTemplateStatusHistory.id));
    return rows.map((r) => ({ status: r.status as TemplateStatusChange['status'], reason: r.reason, at: r.at.toISOString() }));
  }

  /** The company's WhatsApp channel with this phone number (the carousel route names the channel so). */
  async channelByPhone(companyId: number, phone: string): Promise<number> {
    const digits = phone.replace(/\D/g, '');
    const rows = await this.db
      .select()
      .from(channels)
      .where(and(eq(channels.companyId, companyId), eq(channels.platform, 'whatsapp'), sql`${channels.status} <> 'disconnected'`));
    const found = rows.find((r) => r.externalId === phone || (digits && (r.displayPhoneNumber ?? '').replace(/\D/g, '') === digits));
    if (!found) throw new ApiError(400, { phone_number: ['No connected WhatsApp number of this company has this phone number.'] });
    return found.id;
  }

  // ---------- stats ----------

  /** Sent, delivered, read, replied and failed counts of the template's messages on this channel, from our own records. */
  async stats(companyId: number, channelId: number, templateId: number): Promise<TemplateStats> {
    const row = await this.channel(companyId, channelId);
    const templateStatement = prepared(this.db, 'template_of_account', (db, name) =>
      db
        .select()
        .from(whatsappTemplates)
        .where(
          and(
            eq(whatsappTemplates.id, sql.placeholder('templateId')),
            eq(whatsappTemplates.companyId, sql.placeholder('companyId')),
            eq(whatsappTemplates.wabaId, sql.placeholder('wabaId')),
          ),
        )
        .prepare(name),
    );
    const [template] = await templateStatement.execute({ templateId, companyId, wabaId: row.wabaId ?? '' });
    if (!template) throw notFound();
    const countsStatement = prepared(
      this.db,
      'template_message_counts',
      (db, name) => {
        const status = messages.status;
        const replied = sql<number>`count(*) filter (where exists (
          select 1 from ${messages} as reply where reply.room_id = ${messages.roomId} and reply.origin = 'user' and reply.id > ${messages.id}))`;
        return db
          .select({
            sent: sql<number>`count(*) filter (where ${status} in ('sent', 'delivered', 'read'))`,
            delivered: sql<number>`count(*) filter (where ${status} in ('delivered', 'read'))`,
            read: sql<number>`count(*) filter (where ${status} = 'read')`,
            failed: sql<number>`count(*) filter (where ${status} = 'failed')`,
            replied,
          })
          .from(messages)
          .innerJoin(rooms, eq(rooms.id, messages.roomId))
          .where(
            and(
              eq(messages.companyId, sql.placeholder('companyId')),
              eq(rooms.channelId, sql.placeholder('channelId')),
              eq(messages.type, 'template'),
              sql`${messages.data}->'template'->>'name' = ${sql.placeholder('name')}`,
              sql`${messages.data}->'template'->>'language' = ${sql.placeholder('language')}`,
            ),
          )
          .prepare(name);
      },
      // How many of a company's messages are templates decides the plan.
      { planEachCall: true },
    );
    const [counts] = await countsStatement.execute({ companyId, channelId: row.id, name: template.name, language: template.language });
    return { sent: Number(counts.sent), delivered: Number(counts.delivered), read: Number(counts.read), replied: Number(counts.replied), failed: Number(counts.failed) };
  }

  // ---------- Meta's webhooks ----------

  /**
   * A status or quality event: applied to our copy unless an event at least as recent was applied
   * (Meta may deliver out of order; a replay changes nothing), recorded in the history, pushed.
   */
  async applyWebhook(event: TemplateWebhookEvent): Promise<void> {
    // Meta may review a template before our create has stored it (its answer and its webhook race): a
    // create of this process still under way is waited for.
    const creating = this.creating.get(creationKey(event.wabaId, event.name, event.language));
    if (creating) await creating.catch(() => undefined);
    const at = new Date(event.at);
    const rows = await this.db
      .select()
      .from(whatsappTemplates)
      .where(
        and(
          eq(whatsappTemplates.wabaId, event.wabaId),
          or(eq(whatsappTemplates.metaTemplateId, event.templateId), and(eq(whatsappTemplates.name, event.name), eq(whatsappTemplates.language, event.language))),
        ),
      );
    const template = rows.find((r) => r.metaTemplateId === event.templateId) ?? rows[0];
    const now = this.deps.clock.now();
    if (!template) {
      // A create under way in another process: a fresh event is "not yet" (NotYetError), so the webhook
      // processor tries it again within a second rather than after a failure's back-off; an old one is about a
      // template made elsewhere (Meta's own manager) and is dropped.
      if (Math.abs(now.getTime() - at.getTime()) < UNKNOWN_TEMPLATE_RETRY_MS) throw new NotYetError(`template ${event.templateId} is not stored yet (its creation may still be under way)`);
      this.deps.log.info({ wabaId: event.wabaId, templateId: event.templateId }, 'template event for a template we do not know, ignored');
      return;
    }
    if (event.kind === 'template_quality') {
      if (template.qualityAt && template.qualityAt > at) return;
      const [updated] = await this.db
        .update(whatsappTemplates)
        .set({ qualityScore: event.quality, qualityAt: at, updatedAt: now })
        .where(and(eq(whatsappTemplates.id, template.id), or(sql`${whatsappTemplates.qualityAt} is null`, sql`${whatsappTemplates.qualityAt} <= ${at.toISOString()}::timestamptz`)))
        .returning();
      if (updated) await this.pushChange(updated);
      return;
    }
    if (template.statusAt && template.statusAt > at) return;
    if (template.statusAt && template.statusAt.getTime() === at.getTime() && template.status === event.status) return;
    if (event.status === 'DELETED') {
      await this.db.delete(whatsappTemplates).where(eq(whatsappTemplates.id, template.id));
      await this.deps.push(template.channelId, TEMPLATE_EVENT, { ...toTemplate(template), status: 'DELETED' });
      return;
    }
    const reason = event.status === 'REJECTED' || event.status === 'PAUSED' || event.status === 'DISABLED' ? event.reason : null;
    const updated = await this.db.transaction(async (tx) => {
      const [result] = await tx
        .update(whatsappTemplates)
        .set({ status: event.status, rejectedReason: reason, statusAt: at, updatedAt: now })
        .where(and(eq(whatsappTemplates.id, template.id), or(sql`${whatsappTemplates.statusAt} is null`, sql`${whatsappTemplates.statusAt} <= ${at.toISOString()}::timestamptz`)))
        .returning();
      if (result) await tx.insert(whatsappTemplateStatusHistory).values({ templateId: template.id, status: event.status, reason, at });
      return result;
    });
    if (updated) await this.pushChange(updated);
  }

  private async pushChange(row: TemplateRow): Promise<void> {
    try {
      await this.deps.push(row.channelId, TEMPLATE_EVENT, toTemplate(row));
    } catch (err) {
      this.deps.log.warn({ err, templateId: row.id }, 'template push failed');
    }
  }
}

/** A template's identity at Meta before it has an id: its account, name and language. */
function creationKey(wabaId: string, name: string, language: string): string {
  return `${wabaId}\u0000${name}\u0000${language}`;
}
