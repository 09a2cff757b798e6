/**
 * Agent reply templates of a company ("saved replies"): paged list with search, create, update,
 * delete. Every query is scoped by the company, so another company's id is simply not found (404).
 * Names are unique per company, case-insensitively (unique index on lower(name)): a clash answers
 * 400 {name: [...]}, also when two requests race past the pre-check.
 */
import { and, asc, count, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { Paged } from '../../../contract/api';
import { AGENT_TEMPLATE_MESSAGES, type AgentTemplate, type AgentTemplateBody } from '../../../contract/agentTemplates';
import type { Clock } from '../../core/clock';
import type { Database } from '../../core/db/client';
import { prepared, shapeOf } from '../../core/db/prepared';
import { agentTemplates } from '../../core/db/schema';
import { fieldError, notFound } from '../../core/errors';
import { isUniqueViolation } from '../../core/db/uniqueViolation';
import { containsPattern, offsetOf, paged, type PageRequest } from '../../core/paging';

export interface AgentTemplateListOptions extends PageRequest {
  search?: string;
}

type Row = typeof agentTemplates.$inferSelect;

function toTemplate(row: Row): AgentTemplate {
  return { id: row.id, name: row.name, text: row.text, created_at: row.createdAt.toISOString(), updated_at: row.updatedAt.toISOString() };
}

function duplicateName() {
  return fieldError('name', AGENT_TEMPLATE_MESSAGES.duplicateName);
}

export class AgentTemplateService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /** Name order (case-insensitive), then id. `search` matches name or text, case-insensitively, wildcards literal. */
  async list(requestUrl: string, companyId: number, options: AgentTemplateListOptions): Promise<Paged<AgentTemplate>> {
    // Built once per shape (a search or not), bench/data.
    const search = Boolean(options.search);
    const where = () => {
      const conditions: SQL[] = [eq(agentTemplates.companyId, sql.placeholder('companyId'))];
      const pattern = sql.placeholder('pattern');
      if (search) conditions.push(or(ilike(agentTemplates.name, pattern), ilike(agentTemplates.text, pattern))!);
      return and(...conditions);
    };
    const shape = shapeOf({ search });
    const params = { companyId, pattern: search ? containsPattern(options.search!) : null };
    const countStatement = prepared(this.db, `agent_template_count${shape}`, (db, name) => db.select({ total: count() }).from(agentTemplates).where(where()).prepare(name));
    // Planned on each call: its LIMIT and OFFSET are values (see prepared.ts).
    const listStatement = prepared(
      this.db,
      `agent_template_list${shape}`,
      (db, name) =>
        db
          .select()
          .from(agentTemplates)
          .where(where())
          .orderBy(asc(sql`lower(${agentTemplates.name})`), asc(agentTemplates.id))
          .limit(sql.placeholder('limit'))
          .offset(sql.placeholder('offset'))
          .prepare(name),
      { planEachCall: true },
    );
    const [[{ total }], rows] = await Promise.all([countStatement.execute(params), listStatement.execute({ ...params, limit: options.pageSize, offset: offsetOf(options) })]);
    return paged(requestUrl, options, total, rows.map(toTemplate));
  }

  private async nameTaken(companyId: number, name: string, exceptId?: number): Promise<boolean> {
    const rows = await this.db
      .select({ id: agentTemplates.id })
      .from(agentTemplates)
      .where(and(eq(agentTemplates.companyId, companyId), sql`lower(${agentTemplates.name}) = lower(${name})`));
    return rows.some((r) => r.id !== exceptId);
  }

  async create(companyId: number, userId: number, body: AgentTemplateBody): Promise<AgentTemplate> {
    if (await this.nameTaken(companyId, body.name)) throw duplicateName();
    const now = this.clock.now();
    try {
      const [row] = await this.db
        .insert(agentTemplates)
        .values({ companyId, createdBy: userId, name: body.name, text: body.text, createdAt: now, updatedAt: now })
        .returning();
      return toTemplate(row);
    } catch (err) {
      if (isUniqueViolation(err)) throw duplicateName();
      throw err;
    }
  }

  async update(companyId: number, id: number, body: AgentTemplateBody): Promise<AgentTemplate> {
    if (await this.nameTaken(companyId, body.name, id)) throw duplicateName();
    try {
      const [row] = await this.db
        .update(agentTemplates)
        .set({ name: body.name, text: body.text, updatedAt: this.clock.now() })
        .where(and(eq(agentTemplates.companyId, companyId), eq(agentTemplates.id, id)))
        .returning();
      if (!row) throw notFound();
      return toTemplate(row);
    } catch (err) {
      if (isUniqueViolation(err)) throw duplicateName();
      throw err;
    }
  }

  async remove(companyId: number, id: number): Promise<void> {
    const rows = await this.db
      .delete(agentTemplates)
      .where(and(eq(agentTemplates.companyId, companyId), eq(agentTemplates.id, id)))
      .returning({ id: agentTemplates.id });
    if (rows.length === 0) throw notFound();
  }
}
