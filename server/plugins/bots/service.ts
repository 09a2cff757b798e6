/**
 * Bots, their steps and options, their channels (the bot service and the main API's bot calls,
 * contract/bots.ts). Every query is scoped by the company (another company's bot answers 404).
 *
 * Every change of a graph runs in ONE transaction: the bot row is locked (`FOR UPDATE`, so two
 * edits of one bot are serialised), the whole graph is loaded, the change applied in memory,
 * checked with the contract's findGraphProblem (targets exist, no cycle without customer input,
 * nothing deleted still referenced), then only the changed steps are written. A refusal throws
 * before anything is written, so nothing half-saved remains.
 *
 * A step message's media_url is kept like a chat message's (server/providers/storage/privateMedia.ts):
 * rows keep the plain URL of an upload (a signed URL sent back by the canvas is stored without its
 * signature, which expires), and what the API hands out (readableBot, readableStep, readableGraph)
 * carries a signed URL for our own private object of the company, whose plain URL answers 403.
 */
import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import {
  BOT_LIMITS,
  BOT_MESSAGES,
  findGraphProblem,
  NOTHING_TO_DELETE,
  type Bot,
  type BotListResponse,
  type BotMessage,
  type BotStep,
  type BotSummary,
  type BranchGraph,
  type Layout,
  type StepAction,
  type StepOption,
} from '../../../contract/bots';
import { normalizedContent, type BotContent, type BotVersionKind } from '../../../contract/botDrafts';
import type { Clock } from '../../core/clock';
import type { Database, Tx } from '../../core/db/client';
import { prepared } from '../../core/db/prepared';
import { channels } from '../../core/db/schema';
import { ApiError, fieldError, notFound } from '../../core/errors';
import { companyOfPrivateKey, mediaUrlForCompany, storedMediaUrl } from '../../providers/storage/privateMedia';
import type { MediaStorage } from '../../providers/storage/types';
import { isUniqueViolation } from '../../core/db/uniqueViolation';
import type { PlanLimits } from '../../core/planLimits';
import { botChannels, botConversations, botOperations, bots, botSteps, botVersions, stepOptions } from './schema';

type BotRow = typeof bots.$inferSelect;

/** A graph refusal: names the step (the bot service shows it as the error's `step`). */
export class BotGraphError extends ApiError {
  readonly step: string;
  constructor(code: string, message: string, step: string) {
    super(400, { detail: message, code });
    this.step = step;
  }
}

/** The in-memory model of one step while a change is applied. */
export interface StepModel {
  id: string;
  messages: BotMessage[];
  options: { id: string; text: string; next_step: string | null }[];
  next_step_id: string | null;
  layout: Layout | null;
  actions: StepAction[];
  input: { variable: string } | null;
  position: number;
}

export interface GraphModel {
  bot: BotRow;
  start: string | null;
  fallback: string | null;
  steps: Map<string, StepModel>;
}

/** What a step in a request says (contract StepSchema after parsing). */
export interface StepData {
  id: string;
  messages: BotMessage[];
  options: { id: string; text: string; next_step: string | null; step?: string }[];
  next_step_id: string | null;
  layout: Layout | null;
  actions: StepAction[];
  input: { variable: string } | null;
}

export type StepPatch = Partial<Omit<StepData, 'id'>>;

/** How a change of the live graph is kept in the bot's versions (contract/botDrafts.ts BotVersion). */
export interface VersionRecord {
  kind: BotVersionKind;
  by: string;
  restoredFrom: number | null;
}

/** The bot service's own calls change the live graph directly: each change is a version "saved through the API". */
const API_SAVE: VersionRecord = { kind: 'save', by: 'API', restoredFrom: null };

/** The live graph as a version's or a draft's content. */
export function contentOf(graph: GraphModel): BotContent {
  return normalizedContent({ step: graph.start, fallback_step_id: graph.fallback, steps: orderedSteps(graph).map(toStep) });
}

export interface BotPatch {
  name?: string;
  step?: string | null;
  fallback_step_id?: string | null;
  active?: boolean;
  channels?: number[];
  steps?: (StepPatch & { id: string })[];
}

function toStep(model: StepModel): BotStep {
  return {
    id: model.id,
    messages: model.messages,
    options: model.options.map((o) => ({ id: o.id, text: o.text, next_step: o.next_step, step: model.id })),
    next_step_id: model.next_step_id,
    layout: model.layout,
    actions: model.actions,
    input: model.input,
    position: model.position,
  };
}

function sameStep(a: StepModel, b: StepModel): boolean {
  return JSON.stringify(toStep(a)) === JSON.stringify(toStep(b));
}

function duplicateBotName(): ApiError {
  return fieldError('name', 'A bot with this name already exists.');
}

function stepNotFound(stepId: string): ApiError {
  return new ApiError(404, { detail: `Step "${stepId}" does not exist in this bot.`, code: 'step_not_found' });
}

function orderedSteps(graph: GraphModel): StepModel[] {
  return [...graph.steps.values()].sort((a, b) => a.position - b.position || (a.id < b.id ? -1 : 1));
}

export class BotService {
  /**
   * `planLimits`: the company's plan (a new bot counts towards it); `storage`: our media storage
   * (absent in seeds and unit tests: media URLs are kept and handed out as given).
   */
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly planLimits: PlanLimits,
    private readonly storage?: () => MediaStorage,
    /** Whether the company has the flow a start_flow names (null or absent: no flows plugin, not checked). */
    private readonly flowExists?: (companyId: number, flow: number | string, db: Database) => Promise<boolean> | null,
  ) {}

  // ------------------------------------------------------------------ media as handed out

  /** A step as the company's editor receives it: its own private media as signed URLs (the runtime signs on its own when sending). */
  readableStep(companyId: number, step: BotStep): BotStep {
    const storage = this.storage?.();
    if (!storage) return step;
    return { ...step, messages: step.messages.map((m) => ({ ...m, media_url: mediaUrlForCompany(storage, m.media_url, companyId) })) };
  }

  readableSteps(companyId: number, steps: BotStep[]): BotStep[] {
    return steps.map((step) => this.readableStep(companyId, step));
  }

  readableBot(companyId: number, bot: Bot): Bot {
    return { ...bot, steps: this.readableSteps(companyId, bot.steps) };
  }

  readableGraph(companyId: number, graph: BranchGraph): BranchGraph {
    return { ...graph, steps: this.readableSteps(companyId, graph.steps) };
  }

  /** What a row keeps for the messages a client sent: our own objects' URLs without their signature. */
  storedMessages(messages: BotMessage[]): BotMessage[] {
    const storage = this.storage?.();
    if (!storage) return messages;
    return messages.map((m) => ({ ...m, media_url: storedMediaUrl(storage, m.media_url) }));
  }

  // ------------------------------------------------------------------ bots

  async list(companyId: number): Promise<BotListResponse> {
    // The bots and, for the company's bots, their step counts, channels and conversation counts: four prepared
    // statements at once (one round trip's wait, SQL built once: bench/data, issue #26). A bot made between
    // them has no counts yet; a count of one deleted between them is not shown.
    const statements = botListStatements(this.db);
    const [rows, stepCounts, channelRows, conversationCounts] = await Promise.all([
      statements.bots.execute({ companyId }),
      statements.stepCounts.execute({ companyId }),
      statements.channels.execute({ companyId }),
      statements.conversationCounts.execute({ companyId }),
    ]);
    const results: BotSummary[] = rows.map((row) => ({
      ...this.botFields(row, channelRows.filter((c) => c.botId === row.id).map((c) => c.channelId), conversationCounts.find((c) => c.botId === row.id)?.n ?? 0),
      steps_count: stepCounts.find((s) => s.botId === row.id)?.n ?? 0,
    }));
    return { count: results.length, results };
  }

  async create(companyId: number, body: { name: string; channels: number[] }): Promise<Bot> {
    // The plan's bot limit (issue #14).
    await this.planLimits.check(companyId, 'bots');
    try {
      const id = await this.db.transaction(async (tx) => {
        const now = this.clock.now();
        const [row] = await tx.insert(bots).values({ companyId, name: body.name, createdAt: now, updatedAt: now }).returning({ id: bots.id });
        if (body.channels.length > 0) await this.assignChannels(tx, companyId, row.id, body.channels);
        return row.id;
      });
      return this.get(companyId, id);
    } catch (err) {
      if (isUniqueViolation(err)) throw duplicateBotName();
      throw err;
    }
  }

  async get(companyId: number, botId: number): Promise<Bot> {
    const graph = await this.load(this.db, companyId, botId, false);
    return this.toBot(this.db, graph);
  }

  async remove(companyId: number, botId: number): Promise<void> {
    const deleted = await this.db.delete(bots).where(and(eq(bots.companyId, companyId), eq(bots.id, botId))).returning({ id: bots.id });
    if (deleted.length === 0) throw notFound();
  }

  /** PATCH /api/bots/{id}/ (both surfaces): name, start, fallback, active, channels, and partial steps by id. */
  async update(companyId: number, botId: number, patch: BotPatch): Promise<Bot> {
    try {
      await this.mutate(companyId, botId, async (graph, tx) => {
        for (const stepPatch of patch.steps ?? []) {
          const current = graph.steps.get(stepPatch.id);
          if (!current) throw stepNotFound(stepPatch.id);
          graph.steps.set(stepPatch.id, this.patched(current, stepPatch));
        }
        if (patch.step !== undefined) graph.start = patch.step;
        if (patch.fallback_step_id !== undefined) graph.fallback = patch.fallback_step_id;
        const fields: Partial<typeof bots.$inferInsert> = {};
        if (patch.name !== undefined) fields.name = patch.name;
        if (patch.active !== undefined) fields.active = patch.active;
        if (Object.keys(fields).length > 0) await tx.update(bots).set(fields).where(eq(bots.id, botId));
        if (patch.channels !== undefined) await this.assignChannels(tx, companyId, botId, patch.channels);
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw duplicateBotName();
      throw err;
    }
    return this.get(companyId, botId);
  }

  // ------------------------------------------------------------------ steps

  async listSteps(companyId: number, botId: number): Promise<BotStep[]> {
    const graph = await this.load(this.db, companyId, botId, false);
    return orderedSteps(graph).map(toStep);
  }

  /** Bot service POST /api/bots/{id}/steps/: one new step (its id chosen by the client). The first step becomes the start. */
  async createStep(companyId: number, botId: number, data: StepData): Promise<BotStep> {
    const graph = await this.mutate(companyId, botId, async (g) => {
      if (g.steps.has(data.id)) throw fieldError('id', `A step with id "${data.id}" already exists in this bot.`);
      this.checkStepCount(g.steps.size + 1);
      g.steps.set(data.id, this.model(data, this.nextPosition(g)));
      if (g.start === null) g.start = data.id;
    });
    return toStep(graph.steps.get(data.id)!);
  }

  /** Bot service PATCH /api/bots/{id}/steps/{stepId}/: `options`, when given, replaces the step's options. */
  async updateStep(companyId: number, botId: number, stepId: string, patch: StepPatch): Promise<BotStep> {
    const graph = await this.mutate(companyId, botId, async (g) => {
      const current = g.steps.get(stepId);
      if (!current) throw stepNotFound(stepId);
      g.steps.set(stepId, this.patched(current, patch));
    });
    return toStep(graph.steps.get(stepId)!);
  }

  /**
   * Deletes steps (bot service DELETE …/steps/{stepId}/ with `steps`; main API DELETE /api/bots/{id}/)
   * and options. Refused, naming both, when something left still points at a deleted step.
   */
  async deleteSteps(companyId: number, botId: number, stepIds: string[], optionIds: string[] = []): Promise<string[]> {
    const doomed = new Set(stepIds);
    await this.mutate(companyId, botId, async (g) => {
      if (doomed.size === 0 && optionIds.length === 0) throw fieldError('steps', NOTHING_TO_DELETE);
      for (const id of doomed) if (!g.steps.has(id)) throw stepNotFound(id);
      const doomedOptions = new Set(optionIds);
      const foundOptions = new Set<string>();
      for (const step of g.steps.values()) for (const o of step.options) if (doomedOptions.has(o.id)) foundOptions.add(o.id);
      for (const id of doomedOptions) if (!foundOptions.has(id)) throw new ApiError(404, { detail: `Option "${id}" does not exist in this bot.`, code: 'option_not_found' });
      for (const id of doomed) g.steps.delete(id);
      for (const [id, step] of g.steps) {
        if (doomedOptions.size > 0) g.steps.set(id, { ...step, options: step.options.filter((o) => !doomedOptions.has(o.id)) });
      }
      for (const step of g.steps.values()) {
        if (step.next_step_id && doomed.has(step.next_step_id)) {
          throw new BotGraphError('step_in_use', `Step "${step.next_step_id}" cannot be deleted: step "${step.id}" still leads to it.`, step.next_step_id);
        }
        for (const option of step.options) {
          if (option.next_step && doomed.has(option.next_step)) {
            throw new BotGraphError('step_in_use', `Step "${option.next_step}" cannot be deleted: option "${option.text}" of step "${step.id}" still leads to it.`, option.next_step);
          }
        }
      }
      if (g.start && doomed.has(g.start)) {
        if (g.steps.size > 0) throw new BotGraphError('step_in_use', `Step "${g.start}" cannot be deleted: it is the bot's start step.`, g.start);
        g.start = null;
      }
      if (g.fallback && doomed.has(g.fallback)) throw new BotGraphError('step_in_use', `Step "${g.fallback}" cannot be deleted: it is the bot's fallback step.`, g.fallback);
    });
    return [...doomed];
  }

  /** Main API POST /api/bots/{id}/steps/: new steps and options (options name their step), all or nothing. */
  async bulkCreate(companyId: number, botId: number, data: { steps: StepData[]; options: (StepOption | { id: string; text: string; next_step: string | null; step: string })[] }): Promise<BotStep[]> {
    const created: string[] = [];
    const graph = await this.mutate(companyId, botId, async (g) => {
      for (const step of data.steps) {
        if (g.steps.has(step.id)) throw fieldError('steps', `A step with id "${step.id}" already exists in this bot.`);
        g.steps.set(step.id, this.model(step, this.nextPosition(g)));
        created.push(step.id);
        if (g.start === null) g.start = step.id;
      }
      this.checkStepCount(g.steps.size);
      for (const option of data.options) {
        const owner = g.steps.get(option.step);
        if (!owner) throw new BotGraphError('missing_option_step', `Option "${option.id}" belongs to step "${option.step}", which does not exist.`, option.step);
        this.checkOptionCount(owner.id, owner.options.length + 1);
        owner.options = [...owner.options, { id: option.id, text: option.text, next_step: option.next_step }];
      }
    });
    return created.map((id) => toStep(graph.steps.get(id)!));
  }

  // ------------------------------------------------------------------ branch graph

  async fetchGraph(companyId: number, botId: number): Promise<BranchGraph> {
    const graph = await this.load(this.db, companyId, botId, false);
    return this.toGraph(graph);
  }

  /** POST /branch/update_or_create/: the whole graph replaces the stored one, in one transaction. */
  async saveGraph(companyId: number, body: { bot: number; step?: string | null; fallback_step_id?: string | null; steps: StepData[] }, record: VersionRecord = API_SAVE): Promise<BranchGraph> {
    const graph = await this.mutate(companyId, body.bot, async (g) => {
      const steps = new Map<string, StepModel>();
      body.steps.forEach((step, index) => {
        if (steps.has(step.id)) throw new BotGraphError('duplicate_step', `Step "${step.id}" appears twice.`, step.id);
        steps.set(step.id, this.model(step, index));
      });
      this.checkStepCount(steps.size);
      g.steps = steps;
      g.start = body.step !== undefined ? body.step : g.start && steps.has(g.start) ? g.start : (body.steps[0]?.id ?? null);
      if (body.fallback_step_id !== undefined) g.fallback = body.fallback_step_id;
    }, record);
    return this.toGraph(graph);
  }

  // ------------------------------------------------------------------ internals

  /**
   * Issue #25: a step saved with another company's ids is refused (400), though nothing would cross at
   * run time: an operation, a flow (by id or name) or one of our private media objects must be the
   * company's own. Only the steps this save changes are checked, so a flow deleted later never blocks
   * an unrelated edit.
   */
  private async checkReferences(tx: Tx, companyId: number, steps: StepModel[]): Promise<void> {
    const operationIds = new Set<number>();
    for (const step of steps) {
      for (const action of step.actions) {
        if (action.type === 'run_operation') operationIds.add(action.operation_id);
        if (action.type === 'start_flow') {
          const exists = await this.flowExists?.(companyId, action.flow_id, tx);
          if (exists === false) throw new BotGraphError('unknown_flow', `Step "${step.id}" starts the flow "${action.flow_id}", which does not exist in your company.`, step.id);
        }
      }
      const storage = this.storage?.();
      for (const message of step.messages) {
        const key = storage && message.media_url ? storage.keyOfUrl(message.media_url) : null;
        const owner = key === null ? null : companyOfPrivateKey(key);
        if (owner !== null && owner !== companyId) throw new BotGraphError('foreign_media', `Step "${step.id}" uses a file that does not belong to your company: upload it again.`, step.id);
      }
    }
    if (operationIds.size === 0) return;
    const own = await tx
      .select({ id: botOperations.id })
      .from(botOperations)
      .where(and(eq(botOperations.companyId, companyId), inArray(botOperations.id, [...operationIds])));
    const found = new Set(own.map((o) => o.id));
    for (const step of steps) {
      for (const action of step.actions) {
        if (action.type === 'run_operation' && !found.has(action.operation_id)) {
          throw new BotGraphError('unknown_operation', `Step "${step.id}" runs operation ${action.operation_id}, which does not exist in your company.`, step.id);
        }
      }
    }
  }

  private checkStepCount(n: number): void {
    if (n > BOT_LIMITS.stepsPerBot) throw fieldError('steps', `A bot has at most ${BOT_LIMITS.stepsPerBot} steps.`);
  }

  private checkOptionCount(stepId: string, n: number): void {
    if (n > BOT_LIMITS.optionsPerStep) throw new BotGraphError('too_many_options', `Step "${stepId}" has more than ${BOT_LIMITS.optionsPerStep} options.`, stepId);
  }

  private nextPosition(graph: GraphModel): number {
    let max = -1;
    for (const step of graph.steps.values()) max = Math.max(max, step.position);
    return max + 1;
  }

  private model(data: StepData, position: number): StepModel {
    return {
      id: data.id,
      messages: this.storedMessages(data.messages),
      options: data.options.map((o) => ({ id: o.id, text: o.text, next_step: o.next_step })),
      next_step_id: data.next_step_id,
      layout: data.layout,
      actions: data.actions,
      input: data.input,
      position,
    };
  }

  private patched(current: StepModel, patch: StepPatch): StepModel {
    return {
      ...current,
      ...(patch.messages !== undefined ? { messages: this.storedMessages(patch.messages) } : {}),
      ...(patch.options !== undefined ? { options: patch.options.map((o) => ({ id: o.id, text: o.text, next_step: o.next_step })) } : {}),
      ...(patch.next_step_id !== undefined ? { next_step_id: patch.next_step_id } : {}),
      ...(patch.layout !== undefined ? { layout: patch.layout } : {}),
      ...(patch.actions !== undefined ? { actions: patch.actions } : {}),
      ...(patch.input !== undefined ? { input: patch.input } : {}),
    };
  }

  /** Loads the bot's live graph (locked for update inside a transaction). Another company's bot: 404. */
  async load(db: Database | Tx, companyId: number, botId: number, lock: boolean): Promise<GraphModel> {
    const query = db.select().from(bots).where(and(eq(bots.companyId, companyId), eq(bots.id, botId)));
    const [bot] = lock ? await query.for('update') : await query;
    if (!bot) throw notFound();
    const [stepRows, optionRows] = await Promise.all([
      db.select().from(botSteps).where(eq(botSteps.botId, botId)).orderBy(asc(botSteps.position), asc(botSteps.id)),
      db.select().from(stepOptions).where(eq(stepOptions.botId, botId)).orderBy(asc(stepOptions.position), asc(stepOptions.id)),
    ]);
    const steps = new Map<string, StepModel>();
    for (const row of stepRows) {
      steps.set(row.id, {
        id: row.id,
        messages: row.messages,
        options: [],
        next_step_id: row.nextStepId,
        layout: row.layoutX !== null && row.layoutY !== null ? { x: row.layoutX, y: row.layoutY } : null,
        actions: row.actions,
        input: row.inputVariable ? { variable: row.inputVariable } : null,
        position: row.position,
      });
    }
    for (const row of optionRows) steps.get(row.stepId)?.options.push({ id: row.id, text: row.text, next_step: row.nextStep });
    return { bot, start: bot.startStepId, fallback: bot.fallbackStepId, steps };
  }

  /**
   * Applies `change` to the bot's graph in one transaction, checks the result and writes only what
   * changed. Returns the graph as saved.
   */
  private async mutate(companyId: number, botId: number, change: (graph: GraphModel, tx: Tx) => Promise<void>, record: VersionRecord = API_SAVE): Promise<GraphModel> {
    return this.db.transaction(async (tx) => {
      const before = await this.load(tx, companyId, botId, true);
      const after: GraphModel = { ...before, steps: new Map([...before.steps].map(([id, s]) => [id, { ...s, options: [...s.options] }])) };
      await change(after, tx);
      for (const step of after.steps.values()) this.checkOptionCount(step.id, step.options.length);
      const problem = findGraphProblem([...after.steps.values()], after.start, after.fallback);
      if (problem) throw new BotGraphError(problem.code, problem.message, problem.step);

      const removed = [...before.steps.keys()].filter((id) => !after.steps.has(id));
      const changed = [...after.steps.values()].filter((s) => {
        const old = before.steps.get(s.id);
        return !old || !sameStep(old, s);
      });
      await this.checkReferences(tx, companyId, changed);
      if (removed.length > 0) await tx.delete(botSteps).where(and(eq(botSteps.botId, botId), inArray(botSteps.id, removed)));
      if (changed.length > 0) {
        const ids = changed.map((s) => s.id);
        // Options move between steps only by being replaced: drop the changed steps' options (and any
        // option id they now reuse from another step), then write them again.
        const optionIds = changed.flatMap((s) => s.options.map((o) => o.id));
        await tx.delete(stepOptions).where(and(eq(stepOptions.botId, botId), inArray(stepOptions.stepId, ids)));
        if (optionIds.length > 0) await tx.delete(stepOptions).where(and(eq(stepOptions.botId, botId), inArray(stepOptions.id, optionIds)));
        await tx.delete(botSteps).where(and(eq(botSteps.botId, botId), inArray(botSteps.id, ids)));
        await tx.insert(botSteps).values(
          changed.map((s) => ({
            botId,
            id: s.id,
            messages: s.messages,
            nextStepId: s.next_step_id,
            actions: s.actions,
            inputVariable: s.input?.variable ?? null,
            layoutX: s.layout?.x ?? null,
            layoutY: s.layout?.y ?? null,
            position: s.position,
          })),
        );
        const options = changed.flatMap((s) => s.options.map((o, position) => ({ botId, id: o.id, stepId: s.id, text: o.text, nextStep: o.next_step, position })));
        if (options.length > 0) await tx.insert(stepOptions).values(options);
      }
      const now = this.clock.now();
      await tx.update(bots).set({ startStepId: after.start, fallbackStepId: after.fallback, updatedAt: now }).where(eq(bots.id, botId));
      await this.recordVersion(tx, companyId, botId, contentOf(after), record);
      return { ...after, bot: { ...after.bot, startStepId: after.start, fallbackStepId: after.fallback, updatedAt: now } };
    });
  }

  /** The live version's number (null: the bot never had content live). */
  async liveVersion(db: Database | Tx, botId: number): Promise<{ version: number; snapshot: BotContent } | null> {
    const [latest] = await db
      .select({ version: botVersions.version, snapshot: botVersions.snapshot })
      .from(botVersions)
      .where(eq(botVersions.botId, botId))
      .orderBy(sql`${botVersions.version} desc`)
      .limit(1);
    return latest ?? null;
  }

  /**
   * Keeps the live content as a new version when it differs from the last one (a rename, a channel
   * change or a layout-identical save makes none). A bot that never had content makes none either.
   */
  private async recordVersion(tx: Tx, companyId: number, botId: number, content: BotContent, record: VersionRecord): Promise<void> {
    const latest = await this.liveVersion(tx, botId);
    const before = latest ? normalizedContent(latest.snapshot) : normalizedContent({ step: null, fallback_step_id: null, steps: [] });
    if (JSON.stringify(before) === JSON.stringify(content)) return;
    await tx.insert(botVersions).values({
      botId,
      companyId,
      version: (latest?.version ?? 0) + 1,
      kind: record.kind,
      restoredFrom: record.restoredFrom,
      snapshot: content,
      createdBy: record.by,
      createdAt: this.clock.now(),
    });
  }

  /** Replaces the bot's channels; a channel of another bot of the company moves to this one. Unknown or foreign channels: 400. */
  private async assignChannels(tx: Tx, companyId: number, botId: number, channelIds: number[]): Promise<void> {
    const wanted = [...new Set(channelIds)];
    if (wanted.length > 0) {
      const owned = await tx
        .select({ id: channels.id })
        .from(channels)
        .where(and(eq(channels.companyId, companyId), inArray(channels.id, wanted), sql`${channels.status} <> 'disconnected'`));
      const found = new Set(owned.map((c) => c.id));
      const missing = wanted.find((id) => !found.has(id));
      if (missing !== undefined) throw fieldError('channels', `Invalid pk "${missing}" - object does not exist.`);
    }
    await tx.delete(botChannels).where(eq(botChannels.botId, botId));
    if (wanted.length > 0) {
      await tx.delete(botChannels).where(and(eq(botChannels.companyId, companyId), inArray(botChannels.channelId, wanted)));
      await tx.insert(botChannels).values(wanted.map((channelId) => ({ botId, channelId, companyId })));
    }
    await tx.update(bots).set({ updatedAt: this.clock.now() }).where(eq(bots.id, botId));
  }

  private botFields(row: BotRow, channelIds: number[], conversations: number): Omit<Bot, 'steps'> {
    return {
      id: row.id,
      name: row.name,
      step: row.startStepId,
      fallback_step_id: row.fallbackStepId,
      active: row.active,
      channels: channelIds,
      conversations_handled: conversations,
      created_at: row.createdAt.toISOString(),
      updated_at: row.updatedAt.toISOString(),
    };
  }

  private async toBot(db: Database, graph: GraphModel): Promise<Bot> {
    const [channelRows, [{ n }]] = await Promise.all([
      db.select({ channelId: botChannels.channelId }).from(botChannels).where(eq(botChannels.botId, graph.bot.id)).orderBy(asc(botChannels.channelId)),
      db.select({ n: count() }).from(botConversations).where(eq(botConversations.botId, graph.bot.id)),
    ]);
    return {
      ...this.botFields(graph.bot, channelRows.map((c) => c.channelId), n),
      step: graph.start,
      fallback_step_id: graph.fallback,
      steps: orderedSteps(graph).map(toStep),
    };
  }

  private toGraph(graph: GraphModel): BranchGraph {
    return {
      bot: graph.bot.id,
      name: graph.bot.name,
      step: graph.start,
      fallback_step_id: graph.fallback,
      steps: orderedSteps(graph).map(toStep),
      updated_at: graph.bot.updatedAt.toISOString(),
    };
  }
}

export { BOT_MESSAGES };

/** The bots list's statements, prepared once per database; each takes the company's id. */
function botListStatements(db: Database) {
  return prepared(db, 'bots_list', (db, name) => {
    const companyBots = db.select({ id: bots.id }).from(bots).where(eq(bots.companyId, sql.placeholder('companyId')));
    return {
      bots: db.select().from(bots).where(eq(bots.companyId, sql.placeholder('companyId'))).orderBy(asc(bots.id)).prepare(`${name}_bots`),
      stepCounts: db
        .select({ botId: botSteps.botId, n: count() })
        .from(botSteps)
        .where(inArray(botSteps.botId, companyBots))
        .groupBy(botSteps.botId)
        .prepare(`${name}_steps`),
      channels: db
        .select({ botId: botChannels.botId, channelId: botChannels.channelId })
        .from(botChannels)
        .where(inArray(botChannels.botId, companyBots))
        .orderBy(asc(botChannels.channelId))
        .prepare(`${name}_channels`),
      conversationCounts: db
        .select({ botId: botConversations.botId, n: count() })
        .from(botConversations)
        .where(inArray(botConversations.botId, companyBots))
        .groupBy(botConversations.botId)
        .prepare(`${name}_conversations`),
    };
  });
}
