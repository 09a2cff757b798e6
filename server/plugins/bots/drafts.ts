/**
 * A bot's draft, its publication and its versions (issue #25; contract/botDrafts.ts lists the calls).
 *
 * The live graph stays where the runtime and the bot service's step calls have always read and
 * written it (bot_steps, step_options): it IS the published version. The draft (bot_drafts) is
 * what the canvas saves, bounded but possibly incomplete, and never read by the runtime. Publish
 * checks the draft (contract draftProblems: every problem named in plain words, per step), then
 * writes it as the live graph through BotService.saveGraph, which keeps it as a new version in the
 * same transaction, and drops the draft. A restored version comes back as the draft, to be published.
 */
import { and, asc, count, desc, eq } from 'drizzle-orm';
import { StepSchema } from '../../../contract/bots';
import {
  draftProblems,
  normalizedContent,
  problemSentence,
  type BotContent,
  type BotDraft,
  type BotDraftBody,
  type BotNotReadyBody,
  type BotVersionListResponse,
  type DraftProblem,
} from '../../../contract/botDrafts';
import type { Clock } from '../../core/clock';
import type { Database } from '../../core/db/client';
import { ApiError, notFound } from '../../core/errors';
import { botDrafts, bots, botVersions } from './schema';
import { contentOf, type BotService, type StepData } from './service';
import type { z } from 'zod';
import type { BotDraftBody as BotDraftSchema } from '../../../contract/botDrafts';

/** Publish refused: what the draft lacks, each problem in plain words naming its step. */
export class BotNotReadyError extends ApiError {
  constructor(problems: DraftProblem[], content: BotContent) {
    const worded = problems.map((p) => ({ ...p, detail: problemSentence(p, content.steps) }));
    const body: BotNotReadyBody = { detail: `The bot cannot be published yet. ${worded[0].detail}`, code: 'not_ready', problems: worded };
    super(400, body as unknown as { detail: string; code: string });
  }
}

export class BotDraftService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly bots: BotService,
  ) {}

  /** GET /api/bots/{id}/draft/: the draft, or the live graph when nothing is being edited. */
  async get(companyId: number, botId: number): Promise<BotDraft> {
    const live = await this.bots.load(this.db, companyId, botId, false);
    const [row] = await this.db.select().from(botDrafts).where(eq(botDrafts.botId, botId));
    const liveContent = contentOf(live);
    const content = row ? normalizedContent(row.content) : liveContent;
    const version = await this.bots.liveVersion(this.db, botId);
    return {
      bot: botId,
      ...content,
      steps: this.bots.readableSteps(companyId, content.steps),
      problems: draftProblems(content),
      unpublished_changes: !!row && JSON.stringify(content) !== JSON.stringify(liveContent),
      published_version: version?.version ?? null,
      updated_at: (row?.updatedAt ?? live.bot.updatedAt).toISOString(),
    };
  }

  /** PUT /api/bots/{id}/draft/: the whole graph being built; its problems are listed, never refused. */
  async save(companyId: number, botId: number, body: z.output<typeof BotDraftSchema>, by: string): Promise<BotDraft> {
    await this.ownBot(companyId, botId);
    const content = normalizedContent({
      step: body.step,
      fallback_step_id: body.fallback_step_id,
      steps: body.steps.map((s, position) => ({
        ...s,
        messages: this.bots.storedMessages(s.messages),
        options: s.options.map((o) => ({ id: o.id, text: o.text, next_step: o.next_step, step: s.id })),
        position,
      })),
    });
    await this.writeDraft(companyId, botId, content, by, null);
    return this.get(companyId, botId);
  }

  /** POST /api/bots/{id}/publish/: the draft becomes the live graph and a new version, or a 400 naming what it lacks. */
  async publish(companyId: number, botId: number, by: string): Promise<BotDraft> {
    await this.ownBot(companyId, botId);
    const [row] = await this.db.select().from(botDrafts).where(eq(botDrafts.botId, botId));
    const content = row ? normalizedContent(row.content) : contentOf(await this.bots.load(this.db, companyId, botId, false));
    const problems = draftProblems(content);
    if (problems.length > 0) throw new BotNotReadyError(problems, content);
    if (!row) return this.get(companyId, botId);
    const steps: StepData[] = content.steps.map((s) => StepSchema.parse(s));
    await this.bots.saveGraph(
      companyId,
      { bot: botId, step: content.step ?? undefined, fallback_step_id: content.fallback_step_id, steps },
      { kind: 'publish', by, restoredFrom: row.restoredFrom },
    );
    // Only the draft that was published: an edit saved meanwhile stays a draft.
    await this.db.delete(botDrafts).where(and(eq(botDrafts.botId, botId), eq(botDrafts.updatedAt, row.updatedAt)));
    return this.get(companyId, botId);
  }

  /** GET /api/bots/{id}/versions/: newest first, paged. */
  async versions(companyId: number, botId: number, page: number, pageSize: number): Promise<BotVersionListResponse> {
    await this.ownBot(companyId, botId);
    const where = and(eq(botVersions.botId, botId), eq(botVersions.companyId, companyId));
    const [[{ n }], rows, [latest]] = await Promise.all([
      this.db.select({ n: count() }).from(botVersions).where(where),
      this.db
        .select()
        .from(botVersions)
        .where(where)
        .orderBy(desc(botVersions.version))
        .limit(pageSize)
        .offset((page - 1) * pageSize),
      this.db.select({ version: botVersions.version }).from(botVersions).where(where).orderBy(desc(botVersions.version)).limit(1),
    ]);
    return {
      count: Number(n),
      results: rows.map((r) => ({
        id: r.id,
        version: r.version,
        kind: r.kind,
        created_by: r.createdBy,
        created_at: r.createdAt.toISOString(),
        restored_from: r.restoredFrom,
        steps_count: r.snapshot.steps.length,
        live: r.version === latest?.version,
      })),
    };
  }

  /** POST /api/bots/{id}/versions/{versionId}/restore/: the version's content becomes the draft (Publish makes it live). */
  async restore(companyId: number, botId: number, versionId: number, by: string): Promise<BotDraft> {
    await this.ownBot(companyId, botId);
    const [version] = await this.db
      .select()
      .from(botVersions)
      .where(and(eq(botVersions.id, versionId), eq(botVersions.botId, botId), eq(botVersions.companyId, companyId)))
      .orderBy(asc(botVersions.id));
    if (!version) throw notFound();
    await this.writeDraft(companyId, botId, normalizedContent(version.snapshot), by, version.version);
    return this.get(companyId, botId);
  }

  private async ownBot(companyId: number, botId: number): Promise<void> {
    const [row] = await this.db
      .select({ id: bots.id })
      .from(bots)
      .where(and(eq(bots.id, botId), eq(bots.companyId, companyId)));
    if (!row) throw notFound();
  }

  private async writeDraft(companyId: number, botId: number, content: BotContent, by: string, restoredFrom: number | null): Promise<void> {
    const now = this.clock.now();
    await this.db
      .insert(botDrafts)
      .values({ botId, companyId, content, restoredFrom, updatedBy: by, updatedAt: now })
      .onConflictDoUpdate({
        target: botDrafts.botId,
        // An edit after a restore keeps where the draft came from; a new restore says so.
        set: restoredFrom === null ? { content, updatedBy: by, updatedAt: now } : { content, restoredFrom, updatedBy: by, updatedAt: now },
      });
  }
}

export type { BotDraftBody };
