/**
 * The flows of a company (issue #13): create, list, read, save the whole flow, delete, versions and
 * restore. Every write runs in ONE transaction with the flow row locked (`FOR UPDATE`), so a refused
 * save changes nothing and two saves of one flow never interleave; every save and restore keeps a
 * version (snapshot, who, when). Another company's flow is a 404, like one that does not exist.
 *
 * Media (intro_media_url, find_out_more_media_url) is kept like a chat message's media_url
 * (server/providers/storage/privateMedia.ts): rows and snapshots keep the plain URL of an upload
 * (a signed URL sent back by the editor is stored without its signature, which expires), and what
 * the API hands out (readable, readableVersion) carries a signed URL for our own private object of
 * the company, since its plain URL answers 403 and the editor's preview would show a broken image.
 */
import { and, asc, eq, ne, sql } from 'drizzle-orm';
import {
  diffFlows,
  FLOW_EXTRA_LIMITS,
  FLOW_MESSAGES,
  FlowFieldsSchema,
  type Flow,
  type FlowFields,
  type FlowStep,
  type FlowVersion,
  type FlowVersionDetail,
} from '../../../contract/flows';
import type { Clock } from '../../core/clock';
import type { Database, Tx } from '../../core/db/client';
import { prepared } from '../../core/db/prepared';
import { fieldError, notFound } from '../../core/errors';
import { mediaUrlForCompany, storedMediaUrl } from '../../providers/storage/privateMedia';
import type { MediaStorage } from '../../providers/storage/types';
import { isUniqueViolation } from '../../core/db/uniqueViolation';
import { flows, flowSteps, flowVersions } from './schema';

type Db = Database | Tx;
type FlowRow = typeof flows.$inferSelect;
type StepRow = typeof flowSteps.$inferSelect;

export const duplicateFlowName = () => fieldError('flow_name', FLOW_MESSAGES.duplicateName);

function stepOut(row: StepRow): FlowStep {
  return { step_id: row.stepId, next_step_id: row.nextStepId, step_msg: row.stepMsg, type: row.type, options: row.options };
}

function fieldsOf(row: FlowRow, steps: StepRow[]): FlowFields {
  return {
    flow_name: row.flowName,
    description: row.description,
    company_name: row.companyName,
    company_domain: row.companyDomain,
    extra_context: row.extraContext,
    intro_msg: row.introMsg,
    intro_media_url: row.introMediaUrl,
    find_out_more_msg: row.findOutMoreMsg,
    find_out_more_media_url: row.findOutMoreMediaUrl,
    call_to_action: row.callToAction,
    keywords: row.keywords,
    steps: [...steps].sort((a, b) => a.position - b.position).map(stepOut),
  };
}

function flowOut(row: FlowRow, steps: StepRow[]): Flow {
  return { id: row.id, ...fieldsOf(row, steps), version: row.version, created_at: row.createdAt.toISOString(), updated_at: row.updatedAt.toISOString() };
}

type VersionRow = typeof flowVersions.$inferSelect;

function versionOut(row: VersionRow, previous: VersionRow | undefined): FlowVersion {
  return {
    id: row.id,
    version: row.version,
    created_by: row.createdBy,
    created_at: row.createdAt.toISOString(),
    kind: row.kind,
    restored_from: row.restoredFrom,
    changes: diffFlows(previous?.snapshot ?? null, row.snapshot),
  };
}

export class FlowService {
  /** `storage`: our media storage (absent in seeds and unit tests: media URLs are kept and handed out as given). */
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly storage?: () => MediaStorage,
  ) {}

  /** A flow as the company's editor receives it: its own private media as signed URLs (the runtime signs on its own when sending). */
  readable<T extends FlowFields>(companyId: number, flow: T): T {
    const storage = this.storage?.();
    if (!storage) return flow;
    return {
      ...flow,
      intro_media_url: mediaUrlForCompany(storage, flow.intro_media_url, companyId),
      find_out_more_media_url: mediaUrlForCompany(storage, flow.find_out_more_media_url, companyId),
    };
  }

  /** A version's detail as handed out: its snapshot's media signed like a flow's (restoring it stores the plain URL again). */
  readableVersion(companyId: number, detail: FlowVersionDetail): FlowVersionDetail {
    return { ...detail, snapshot: this.readable(companyId, detail.snapshot) };
  }

  /** What a row keeps for a media URL from a client: our own object's URL without its signature. */
  private stored(url: string | null): string | null {
    const storage = this.storage?.();
    return storage ? storedMediaUrl(storage, url) : url;
  }

  async list(companyId: number): Promise<Flow[]> {
    // The flows and their steps at once, both prepared (bench/data, issue #26).
    const statements = prepared(this.db, 'flows_list', (db, name) => ({
      flows: db.select().from(flows).where(eq(flows.companyId, sql.placeholder('companyId'))).orderBy(asc(flows.id)).prepare(`${name}_flows`),
      steps: db
        .select()
        .from(flowSteps)
        .innerJoin(flows, eq(flows.id, flowSteps.flowId))
        .where(eq(flows.companyId, sql.placeholder('companyId')))
        .orderBy(asc(flowSteps.flowId), asc(flowSteps.position))
        .prepare(`${name}_steps`),
    }));
    const [rows, steps] = await Promise.all([statements.flows.execute({ companyId }), statements.steps.execute({ companyId })]);
    if (rows.length === 0) return [];
    const byFlow = new Map<number, StepRow[]>();
    for (const { flow_steps: s } of steps) (byFlow.get(s.flowId) ?? byFlow.set(s.flowId, []).get(s.flowId)!).push(s);
    return rows.map((r) => flowOut(r, byFlow.get(r.id) ?? []));
  }

  async get(companyId: number, flowId: number, db: Db = this.db): Promise<Flow> {
    const row = await this.row(db, companyId, flowId);
    return flowOut(row, await this.steps(db, flowId));
  }

  /** The company's flow by name (case-insensitive), or null (the runtime, the demo seed). */
  async findByName(companyId: number, flowName: string): Promise<Flow | null> {
    const [row] = await this.db.select().from(flows).where(and(eq(flows.companyId, companyId), sql`lower(${flows.flowName}) = lower(${flowName})`)).limit(1);
    return row ? flowOut(row, await this.steps(this.db, row.id)) : null;
  }

  /**
   * The company's flow that a message of exactly this keyword starts (keywords are stored trimmed and lower-case;
   * the oldest flow wins when two share one), or null; `exceptId` leaves one flow out (the test chat's own).
   */
  async byKeyword(companyId: number, keyword: string, exceptId?: number): Promise<{ id: number; flow_name: string } | null> {
    const k = keyword.trim().toLowerCase();
    if (k === '' || k.length > FLOW_EXTRA_LIMITS.keyword) return null;
    const [match] = await this.db
      .select({ id: flows.id, flow_name: flows.flowName })
      .from(flows)
      .where(and(eq(flows.companyId, companyId), sql`${flows.keywords} ? ${k}`, exceptId !== undefined ? ne(flows.id, exceptId) : undefined))
      .orderBy(asc(flows.id))
      .limit(1);
    return match ?? null;
  }

  /** POST /api/flows/: the five creation fields; version 1 is kept. */
  async create(companyId: number, body: Pick<FlowFields, 'flow_name' | 'description' | 'company_name' | 'company_domain' | 'extra_context'>, by: string): Promise<Flow> {
    try {
      return await this.db.transaction(async (tx) => {
        const now = this.clock.now();
        const [row] = await tx
          .insert(flows)
          .values({ companyId, flowName: body.flow_name, description: body.description, companyName: body.company_name, companyDomain: body.company_domain, extraContext: body.extra_context, version: 1, createdAt: now, updatedAt: now })
          .returning();
        await tx.insert(flowVersions).values({ flowId: row.id, companyId, version: 1, kind: 'create', snapshot: fieldsOf(row, []), createdBy: by, createdAt: now });
        return flowOut(row, []);
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw duplicateFlowName();
      throw err;
    }
  }

  /** POST /api/flows/{id}/save/: the whole flow replaces the stored one, in one transaction; a new version. */
  async save(companyId: number, flowId: number, fields: FlowFields, by: string): Promise<Flow> {
    return this.write(companyId, flowId, fields, by, 'save', null);
  }

  /** POST /api/flows/{id}/versions/{versionId}/restore/: the version's snapshot saved as a new version. */
  async restore(companyId: number, flowId: number, versionId: number, by: string): Promise<Flow> {
    const [version] = await this.db
      .select()
      .from(flowVersions)
      .where(and(eq(flowVersions.id, versionId), eq(flowVersions.flowId, flowId), eq(flowVersions.companyId, companyId)))
      .limit(1);
    if (!version) throw notFound();
    // The snapshot is checked again (rules may have tightened since it was taken).
    const parsed = FlowFieldsSchema.safeParse(version.snapshot);
    if (!parsed.success) throw fieldError('non_field_errors', 'This version no longer passes the flow rules.');
    return this.write(companyId, flowId, parsed.data, by, 'restore', version.version);
  }

  async remove(companyId: number, flowId: number): Promise<void> {
    const deleted = await this.db.delete(flows).where(and(eq(flows.id, flowId), eq(flows.companyId, companyId))).returning({ id: flows.id });
    if (deleted.length === 0) throw notFound();
  }

  /** Newest first, each with what changed since the one before. */
  async versions(companyId: number, flowId: number): Promise<FlowVersion[]> {
    await this.row(this.db, companyId, flowId);
    const rows = await this.db.select().from(flowVersions).where(and(eq(flowVersions.flowId, flowId), eq(flowVersions.companyId, companyId))).orderBy(asc(flowVersions.version));
    return rows.map((r, i) => versionOut(r, rows[i - 1])).reverse();
  }

  async version(companyId: number, flowId: number, versionId: number): Promise<FlowVersionDetail> {
    const rows = await this.db.select().from(flowVersions).where(and(eq(flowVersions.flowId, flowId), eq(flowVersions.companyId, companyId))).orderBy(asc(flowVersions.version));
    const i = rows.findIndex((r) => r.id === versionId);
    if (i < 0) throw notFound();
    return { ...versionOut(rows[i], rows[i - 1]), snapshot: rows[i].snapshot };
  }

  private async write(companyId: number, flowId: number, fields: FlowFields, by: string, kind: 'save' | 'restore', restoredFrom: number | null): Promise<Flow> {
    try {
      return await this.db.transaction(async (tx) => {
        const [locked] = await tx
          .select()
          .from(flows)
          .where(and(eq(flows.id, flowId), eq(flows.companyId, companyId)))
          .for('update');
        if (!locked) throw notFound();
        const now = this.clock.now();
        const version = locked.version + 1;
        const [row] = await tx
          .update(flows)
          .set({
            flowName: fields.flow_name,
            description: fields.description,
            companyName: fields.company_name,
            companyDomain: fields.company_domain,
            extraContext: fields.extra_context,
            introMsg: fields.intro_msg,
            introMediaUrl: this.stored(fields.intro_media_url),
            findOutMoreMsg: fields.find_out_more_msg,
            findOutMoreMediaUrl: this.stored(fields.find_out_more_media_url),
            callToAction: fields.call_to_action,
            keywords: fields.keywords,
            version,
            updatedAt: now,
          })
          .where(eq(flows.id, flowId))
          .returning();
        await tx.delete(flowSteps).where(eq(flowSteps.flowId, flowId));
        if (fields.steps.length > 0) {
          await tx.insert(flowSteps).values(
            fields.steps.map((s, position) => ({ flowId, stepId: s.step_id, position, nextStepId: s.next_step_id, stepMsg: s.step_msg, type: s.type, options: s.options })),
          );
        }
        const steps = await this.steps(tx, flowId);
        const snapshot = fieldsOf(row, steps);
        await tx.insert(flowVersions).values({ flowId, companyId, version, kind, restoredFrom, snapshot, createdBy: by, createdAt: now });
        return flowOut(row, steps);
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw duplicateFlowName();
      throw err;
    }
  }

  private async row(db: Db, companyId: number, flowId: number): Promise<FlowRow> {
    const [row] = await db.select().from(flows).where(and(eq(flows.id, flowId), eq(flows.companyId, companyId))).limit(1);
    if (!row) throw notFound();
    return row;
  }

  private async steps(db: Db, flowId: number): Promise<StepRow[]> {
    return db.select().from(flowSteps).where(eq(flowSteps.flowId, flowId)).orderBy(asc(flowSteps.position));
  }
}
