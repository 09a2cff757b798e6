/**
 * A company's knowledge: articles, uploaded documents and the flows' extra context, each stored with
 * the passages it became (./passages.ts). Every query is scoped by the company, so another company's
 * id is not found (404). Writing an item replaces its passages in the same transaction; PostgreSQL
 * computes their search vectors (schema.ts). The flows' context is read through the flows plugin's
 * service (FlowContextSource) and copied in when a flow's version moved on, before each list and
 * each answer: what the assistant searches is what the flows say now.
 */
import { and, asc, count, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Paged } from '../../../contract/api';
import {
  KNOWLEDGE_MESSAGES,
  type KnowledgeArticleBody,
  type KnowledgeFormat,
  type KnowledgeItem,
  type KnowledgeItemSummary,
  type KnowledgeKind,
  type KnowledgePatchBody,
} from '../../../contract/assistant';
import type { Clock } from '../../core/clock';
import type { Database, Tx } from '../../core/db/client';
import { badRequest, notFound } from '../../core/errors';
import { containsPattern, offsetOf, paged, type PageRequest } from '../../core/paging';
import { splitIntoPassages } from './passages';
import { knowledgeItems, knowledgePassages } from './schema';

/** What the assistant needs of a flow: read through the flows plugin's declared service. */
export interface FlowContext {
  id: number;
  flow_name: string;
  version: number;
  extra_context: string[];
}

export interface FlowContextSource {
  list(companyId: number): Promise<FlowContext[]>;
}

export interface KnowledgeListOptions extends PageRequest {
  search?: string;
  kind?: KnowledgeKind;
}

type ItemRow = typeof knowledgeItems.$inferSelect;

function summaryOf(row: ItemRow, passageCount: number): KnowledgeItemSummary {
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    format: row.format,
    file_name: row.fileName,
    flow_id: row.flowId,
    passage_count: passageCount,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export class KnowledgeService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly flows: FlowContextSource,
  ) {}

  async list(requestUrl: string, companyId: number, options: KnowledgeListOptions): Promise<Paged<KnowledgeItemSummary>> {
    await this.syncFlows(companyId);
    const conditions: SQL[] = [eq(knowledgeItems.companyId, companyId)];
    if (options.kind) conditions.push(eq(knowledgeItems.kind, options.kind));
    if (options.search) {
      const pattern = containsPattern(options.search);
      conditions.push(or(ilike(knowledgeItems.title, pattern), ilike(knowledgeItems.body, pattern), ilike(knowledgeItems.fileName, pattern))!);
    }
    const where = and(...conditions);
    const [{ total }] = await this.db.select({ total: count() }).from(knowledgeItems).where(where);
    const rows = await this.db
      .select({ item: knowledgeItems, passages: sql<number>`(select count(*) from knowledge_passages kp where kp.item_id = ${knowledgeItems}.id)`.mapWith(Number) })
      .from(knowledgeItems)
      .where(where)
      .orderBy(desc(knowledgeItems.updatedAt), desc(knowledgeItems.id))
      .limit(options.pageSize)
      .offset(offsetOf(options));
    return paged(requestUrl, options, total, rows.map((r) => summaryOf(r.item, r.passages)));
  }

  async get(companyId: number, id: number, db: Database | Tx = this.db): Promise<KnowledgeItem> {
    const [row] = await db.select().from(knowledgeItems).where(and(eq(knowledgeItems.companyId, companyId), eq(knowledgeItems.id, id)));
    if (!row) throw notFound();
    const passages = await db
      .select({ id: knowledgePassages.id, position: knowledgePassages.position, heading: knowledgePassages.heading, text: knowledgePassages.text })
      .from(knowledgePassages)
      .where(eq(knowledgePassages.itemId, id))
      .orderBy(asc(knowledgePassages.position));
    return { ...summaryOf(row, passages.length), body: row.body, passages };
  }

  createArticle(companyId: number, body: KnowledgeArticleBody): Promise<KnowledgeItem> {
    return this.insert(companyId, { kind: 'article', format: 'markdown', title: body.title, body: body.body, fileName: null });
  }

  createDocument(companyId: number, input: { title: string; fileName: string; format: KnowledgeFormat; text: string }): Promise<KnowledgeItem> {
    return this.insert(companyId, { kind: 'document', format: input.format, title: input.title, body: input.text, fileName: input.fileName });
  }

  async update(companyId: number, id: number, patch: KnowledgePatchBody): Promise<KnowledgeItem> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .select()
        .from(knowledgeItems)
        .where(and(eq(knowledgeItems.companyId, companyId), eq(knowledgeItems.id, id)))
        .for('update');
      if (!row) throw notFound();
      if (row.kind === 'flow') throw badRequest(KNOWLEDGE_MESSAGES.flowReadOnly, 'flow_knowledge');
      const title = patch.title ?? row.title;
      const body = patch.body ?? row.body;
      await tx.update(knowledgeItems).set({ title, body, updatedAt: this.clock.now() }).where(eq(knowledgeItems.id, id));
      await this.replacePassages(tx, companyId, id, body, row.format, title);
      return this.get(companyId, id, tx);
    });
  }

  async remove(companyId: number, id: number): Promise<void> {
    const [row] = await this.db.select({ kind: knowledgeItems.kind }).from(knowledgeItems).where(and(eq(knowledgeItems.companyId, companyId), eq(knowledgeItems.id, id)));
    if (!row) throw notFound();
    if (row.kind === 'flow') throw badRequest(KNOWLEDGE_MESSAGES.flowReadOnly, 'flow_knowledge');
    await this.db.delete(knowledgeItems).where(and(eq(knowledgeItems.companyId, companyId), eq(knowledgeItems.id, id)));
  }

  /** Copies in the context of flows created or saved since the last copy, and drops that of deleted flows. */
  async syncFlows(companyId: number): Promise<void> {
    const flows = await this.flows.list(companyId);
    const stored = await this.db
      .select({ id: knowledgeItems.id, flowId: knowledgeItems.flowId, flowVersion: knowledgeItems.flowVersion })
      .from(knowledgeItems)
      .where(and(eq(knowledgeItems.companyId, companyId), eq(knowledgeItems.kind, 'flow')));
    const byFlow = new Map(stored.map((s) => [s.flowId, s]));
    const withContext = flows.filter((f) => f.extra_context.some((c) => c.trim()));
    const stale = withContext.filter((f) => byFlow.get(f.id)?.flowVersion !== f.version);
    const keep = withContext.map((f) => f.id);
    const gone = stored.filter((s) => s.flowId === null || !keep.includes(s.flowId));
    if (stale.length === 0 && gone.length === 0) return;
    await this.db.transaction(async (tx) => {
      if (gone.length > 0) {
        await tx.delete(knowledgeItems).where(and(eq(knowledgeItems.companyId, companyId), inArray(knowledgeItems.id, gone.map((g) => g.id))));
      }
      for (const flow of stale) {
        const body = flow.extra_context.filter((c) => c.trim()).join('\n\n');
        const now = this.clock.now();
        const [row] = await tx
          .insert(knowledgeItems)
          .values({ companyId, kind: 'flow', format: 'text', title: flow.flow_name, body, flowId: flow.id, flowVersion: flow.version, createdAt: now, updatedAt: now })
          .onConflictDoUpdate({
            target: [knowledgeItems.companyId, knowledgeItems.flowId],
            set: { title: flow.flow_name, body, flowVersion: flow.version, updatedAt: now },
          })
          .returning({ id: knowledgeItems.id });
        await this.replacePassages(tx, companyId, row.id, body, 'text', flow.flow_name);
      }
    });
  }

  /** Ids of items of the company, for tests and the isolation snapshot. */
  async itemIds(companyId: number): Promise<number[]> {
    const rows = await this.db.select({ id: knowledgeItems.id }).from(knowledgeItems).where(eq(knowledgeItems.companyId, companyId));
    return rows.map((r) => r.id);
  }

  private async insert(
    companyId: number,
    input: { kind: KnowledgeKind; format: KnowledgeFormat; title: string; body: string; fileName: string | null },
  ): Promise<KnowledgeItem> {
    return this.db.transaction(async (tx) => {
      const now = this.clock.now();
      const [row] = await tx.insert(knowledgeItems).values({ companyId, ...input, createdAt: now, updatedAt: now }).returning({ id: knowledgeItems.id });
      await this.replacePassages(tx, companyId, row.id, input.body, input.format, input.title);
      return this.get(companyId, row.id, tx);
    });
  }

  private async replacePassages(tx: Tx, companyId: number, itemId: number, body: string, format: KnowledgeFormat, title: string): Promise<void> {
    await tx.delete(knowledgePassages).where(eq(knowledgePassages.itemId, itemId));
    const drafts = splitIntoPassages(body, format, title);
    // Inserted in batches: a long document may become thousands of passages (bound parameters are limited).
    for (let start = 0; start < drafts.length; start += 500) {
      await tx.insert(knowledgePassages).values(
        drafts.slice(start, start + 500).map((d, i) => ({ itemId, companyId, position: start + i, heading: d.heading, text: d.text })),
      );
    }
  }
}
