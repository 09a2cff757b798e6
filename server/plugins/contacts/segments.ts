/**
 * Segments (issue #23): the company's saved contact filters (GET, POST /api/segments/, GET, PATCH,
 * DELETE by id), their counts (saved, or the builder's unsaved conditions), the `?segment=` and
 * `attr.<key>=` filters of the contacts list, and a segment's members for a broadcast. Conditions are
 * checked against the company's attribute definitions, tags and channels when written or counted, and
 * compiled to SQL by ./segmentSql.ts.
 */
import { and, asc, count, eq, inArray, type SQL } from 'drizzle-orm';
import type { AttributeValue } from '../../../contract/contacts';
import { SEGMENT_LIMITS, SEGMENT_MESSAGES, type Segment, type SegmentConditions, type SegmentCreate, type SegmentPatch } from '../../../contract/segments';
import type { Database } from '../../core/db/client';
import { channels, tags } from '../../core/db/schema';
import { fieldError, notFound, validationError } from '../../core/errors';
import { isUniqueViolation } from '../../core/db/uniqueViolation';
import type { ContactAttributes } from './attributes';
import { attributeFilters, checkConditions, segmentWhere } from './segmentSql';
import { contacts, segments } from './schema';
import type { ContactService } from './service';
import type { ContactActor } from './visibility';

type Row = typeof segments.$inferSelect;

export function toSegment(row: Row): Segment {
  return { id: row.id, name: row.name, conditions: row.conditions, created_at: row.createdAt.toISOString(), updated_at: row.updatedAt.toISOString() };
}

/** One member as a broadcast needs it. */
export interface SegmentMember {
  name: string;
  phone: string | null;
  externalId: string | null;
  platform: string | null;
  attributes: Record<string, AttributeValue>;
}

export interface SegmentServiceDeps {
  db: Database;
  now: () => Date;
  attributes: ContactAttributes;
  contacts: ContactService;
}

export class SegmentService {
  constructor(private readonly deps: SegmentServiceDeps) {}

  private get db(): Database {
    return this.deps.db;
  }

  async list(companyId: number): Promise<{ count: number; next: null; previous: null; results: Segment[] }> {
    const rows = await this.db.select().from(segments).where(eq(segments.companyId, companyId)).orderBy(asc(segments.name), asc(segments.id));
    return { count: rows.length, next: null, previous: null, results: rows.map(toSegment) };
  }

  private async row(companyId: number, id: number): Promise<Row> {
    const [row] = await this.db.select().from(segments).where(and(eq(segments.id, id), eq(segments.companyId, companyId)));
    if (!row) throw notFound();
    return row;
  }

  async get(companyId: number, id: number): Promise<Segment> {
    return toSegment(await this.row(companyId, id));
  }

  /** Tags and channels must be the company's (400 on the field otherwise); attributes are checked by checkConditions. */
  private async checkIds(companyId: number, conditions: SegmentConditions): Promise<void> {
    const errors: Record<string, string[]> = {};
    if (conditions.tags.length) {
      const own = await this.db.select({ id: tags.id }).from(tags).where(and(eq(tags.companyId, companyId), inArray(tags.id, conditions.tags)));
      if (own.length !== new Set(conditions.tags).size) errors['conditions.tags'] = [SEGMENT_MESSAGES.unknownTag];
    }
    if (conditions.channels.length) {
      const own = await this.db.select({ id: channels.id }).from(channels).where(and(eq(channels.companyId, companyId), inArray(channels.id, conditions.channels)));
      if (own.length !== new Set(conditions.channels).size) errors['conditions.channels'] = [SEGMENT_MESSAGES.unknownChannel];
    }
    if (Object.keys(errors).length) throw validationError(errors);
  }

  /** The conditions checked (ids, attributes) and as they are stored. */
  private async checked(companyId: number, conditions: SegmentConditions): Promise<SegmentConditions> {
    await this.checkIds(companyId, conditions);
    const checked = checkConditions(conditions, await this.deps.attributes.list(companyId));
    return {
      ...conditions,
      tags: [...new Set(conditions.tags)],
      channels: [...new Set(conditions.channels)],
      attributes: checked.attributes.map((a) => ({ key: a.key, op: a.op, ...(a.value === null ? {} : { value: a.value }) })),
    };
  }

  /** The SQL of conditions on `contacts` (checked against the company's attribute definitions). */
  async where(companyId: number, conditions: SegmentConditions): Promise<SQL[]> {
    return segmentWhere(checkConditions(conditions, await this.deps.attributes.list(companyId)), this.deps.now());
  }

  async create(companyId: number, userId: number | null, body: SegmentCreate): Promise<Segment> {
    const [{ n }] = await this.db.select({ n: count() }).from(segments).where(eq(segments.companyId, companyId));
    if (Number(n) >= SEGMENT_LIMITS.perCompany) throw fieldError('name', SEGMENT_MESSAGES.tooMany);
    const conditions = await this.checked(companyId, body.conditions);
    const now = this.deps.now();
    try {
      const [row] = await this.db.insert(segments).values({ companyId, name: body.name, conditions, createdBy: userId, createdAt: now, updatedAt: now }).returning();
      return toSegment(row);
    } catch (err) {
      if (isUniqueViolation(err)) throw fieldError('name', SEGMENT_MESSAGES.nameTaken);
      throw err;
    }
  }

  async update(companyId: number, id: number, patch: SegmentPatch): Promise<Segment> {
    const row = await this.row(companyId, id);
    const conditions = patch.conditions ? await this.checked(companyId, patch.conditions) : row.conditions;
    try {
      const [updated] = await this.db
        .update(segments)
        .set({ name: patch.name ?? row.name, conditions, updatedAt: this.deps.now() })
        .where(and(eq(segments.id, id), eq(segments.companyId, companyId)))
        .returning();
      return toSegment(updated);
    } catch (err) {
      if (isUniqueViolation(err)) throw fieldError('name', SEGMENT_MESSAGES.nameTaken);
      throw err;
    }
  }

  async remove(companyId: number, id: number): Promise<void> {
    const deleted = await this.db
      .delete(segments)
      .where(and(eq(segments.id, id), eq(segments.companyId, companyId)))
      .returning({ id: segments.id });
    if (!deleted.length) throw notFound();
  }

  /** How many contacts the actor sees match the conditions (the builder's preview: ids checked too). */
  async countOf(actor: ContactActor, conditions: SegmentConditions): Promise<{ count: number }> {
    await this.checkIds(actor.companyId, conditions);
    return { count: await this.deps.contacts.count(actor, await this.where(actor.companyId, conditions)) };
  }

  async count(actor: ContactActor, id: number): Promise<{ count: number }> {
    const row = await this.row(actor.companyId, id);
    return { count: await this.deps.contacts.count(actor, await this.where(actor.companyId, row.conditions)) };
  }

  /**
   * The contacts list's extra filters: `segment` (the company's segment, else 400 on the field) and
   * `attr.<key>=value` of the raw URL.
   */
  async listFilters(companyId: number, segmentId: number | undefined, url: string): Promise<SQL[]> {
    const where: SQL[] = [];
    if (segmentId !== undefined) {
      const [row] = await this.db.select().from(segments).where(and(eq(segments.id, segmentId), eq(segments.companyId, companyId)));
      if (!row) throw fieldError('segment', SEGMENT_MESSAGES.unknownSegment);
      where.push(...(await this.where(companyId, row.conditions)));
    }
    if (url.includes('attr.')) {
      const filters = attributeFilters(url, await this.deps.attributes.list(companyId));
      if (filters.length) where.push(...segmentWhere({ tags: [], channels: [], attributes: filters, last_message_within_days: null, opted_in_only: false }, this.deps.now()));
    }
    return where;
  }

  /** A segment's members now, company-wide (a broadcast's recipients); null when the company has no such segment. */
  async members(companyId: number, id: number): Promise<{ id: number; name: string; members: SegmentMember[] } | null> {
    const [row] = await this.db.select().from(segments).where(and(eq(segments.id, id), eq(segments.companyId, companyId)));
    if (!row) return null;
    const where = await this.where(companyId, row.conditions);
    const members = await this.db
      .select({ name: contacts.name, phone: contacts.phone, externalId: contacts.externalId, platform: contacts.platform, attributes: contacts.attributes })
      .from(contacts)
      .where(and(eq(contacts.companyId, companyId), ...where))
      .orderBy(asc(contacts.id));
    return { id: row.id, name: row.name, members };
  }
}
