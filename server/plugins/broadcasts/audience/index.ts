/**
 * Who a broadcast goes to (issue #11): a contacts filter (spec §3 contact search: term, tags,
 * channels — over the company's WhatsApp conversations), a CSV list (./csv.ts) or a saved segment of
 * the company's contacts (issue #23: its members at this moment, from the contacts plugin; a member
 * without a phone counts as an invalid number). Then the
 * exclusions, in this order: invalid number, duplicate, opted out (opt_outs of the company, for
 * every channel or this one), blocked (a blocked conversation with that number on any of the
 * company's WhatsApp channels). The messaging limit (./limit.ts) does not exclude: recipients
 * beyond today's allowance wait for the 24-hour window; the preview counts them as `over_limit`.
 */
import { and, eq, ilike, inArray, isNotNull, isNull, ne, or, sql } from 'drizzle-orm';
import { EXCLUSION_REASONS, type BadRow, type BroadcastAudience, type ExclusionReason } from '../../../../contract/broadcasts';
import type { Database } from '../../../core/db/client';
import { channels, roomTags, rooms } from '../../../core/db/schema';
import { containsPattern } from '../../../core/paging';
import type { AttributeValue } from '../../../../contract/contacts';
import type { BroadcastContactSource } from '../index';
import { optOuts } from '../schema';
import { parseCsvRows, parseCsvText } from './csv';
import { toE164, waIdOf } from './phone';

export interface AudienceMember {
  phone: string;
  name: string;
  roomId: number | null;
  /** CSV row number (header = 1). */
  row: number | null;
  /** CSV values by column ({} for contacts). */
  values: Record<string, string>;
  /** The contact's attributes (segment members; others get theirs by phone when a variable needs them). */
  attributes?: Record<string, AttributeValue>;
  excluded: ExclusionReason | null;
}

export interface Audience {
  total: number;
  /** Everyone with a valid, unique number: sendable ones (`excluded` null) and opted-out / blocked ones. */
  members: AudienceMember[];
  excluded: Record<ExclusionReason, number>;
  badRows: BadRow[];
  columns: string[];
  phoneColumn: string | null;
  nameColumn: string | null;
  fileName: string | null;
  /** A segment audience: the segment as it is named now. */
  segment: { id: number; name: string } | null;
}

export type AudienceResult = { ok: true; value: Audience } | { ok: false; field: string; error: string };

export function emptyExclusions(): Record<ExclusionReason, number> {
  return Object.fromEntries(EXCLUSION_REASONS.map((r) => [r, 0])) as Record<ExclusionReason, number>;
}

type Candidate = Omit<AudienceMember, 'excluded'>;

async function contactsOf(db: Database, companyId: number, filter: { term: string; tags: { id: number }[]; channels: number[] }) {
  const conditions = [eq(rooms.companyId, companyId), eq(channels.platform, 'whatsapp'), ne(channels.status, 'disconnected')];
  const term = filter.term.trim();
  if (term) conditions.push(or(ilike(rooms.name, containsPattern(term)), ilike(rooms.externalId, containsPattern(term)))!);
  if (filter.channels.length) conditions.push(inArray(rooms.channelId, filter.channels));
  if (filter.tags.length) {
    const tagIds = filter.tags.map((t) => t.id);
    conditions.push(sql`exists (select 1 from ${roomTags} where ${roomTags.roomId} = ${rooms.id} and ${inArray(roomTags.tagId, tagIds)})`);
  }
  return db
    .select({ id: rooms.id, externalId: rooms.externalId, name: rooms.name })
    .from(rooms)
    .innerJoin(channels, eq(channels.id, rooms.channelId))
    .where(and(...conditions))
    .orderBy(rooms.id);
}

/** A segment member's number: its phone, else its WhatsApp id (a phone's digits). */
function memberPhone(m: { phone: string | null; externalId: string | null; platform: string | null }): string | null {
  if (m.phone) return toE164(m.phone);
  return m.platform === 'whatsapp' && m.externalId ? toE164(m.externalId) : null;
}

export async function buildAudience(db: Database, companyId: number, channelId: number, audience: BroadcastAudience, contactSource: BroadcastContactSource | null = null): Promise<AudienceResult> {
  const excluded = emptyExclusions();
  let candidates: Candidate[] = [];
  let badRows: BadRow[] = [];
  let columns: string[] = [];
  let phoneColumn: string | null = null;
  let nameColumn: string | null = null;
  let total: number;
  let fileName: string | null = null;
  let segment: { id: number; name: string } | null = null;

  if (audience.type === 'csv') {
    const parsed = audience.csv !== undefined ? await parseCsvText(audience.csv) : await parseCsvRows(audience.rows ?? []);
    if (!parsed.ok) return { ok: false, field: 'audience.csv', error: parsed.error };
    const v = parsed.value;
    candidates = v.recipients.map((r) => ({ phone: r.phone, name: r.name, roomId: null, row: r.row, values: r.values }));
    badRows = v.badRows;
    columns = v.columns;
    phoneColumn = v.phoneColumn;
    nameColumn = v.nameColumn;
    total = v.total;
    excluded.invalid_number = v.invalid;
    excluded.duplicate = v.duplicates;
    fileName = audience.file_name ?? null;
  } else if (audience.type === 'segment') {
    const found = contactSource ? await contactSource.segmentMembers(companyId, audience.segment_id) : null;
    if (!found) return { ok: false, field: 'audience.segment_id', error: 'Choose one of your segments.' };
    segment = { id: found.id, name: found.name };
    total = found.members.length;
    const seen = new Set<string>();
    for (const m of found.members) {
      const phone = memberPhone(m);
      if (!phone) {
        excluded.invalid_number += 1;
        continue;
      }
      if (seen.has(phone)) {
        excluded.duplicate += 1;
        continue;
      }
      seen.add(phone);
      candidates.push({ phone, name: m.name, roomId: null, row: null, values: {}, attributes: m.attributes });
    }
  } else {
    const contacts = await contactsOf(db, companyId, audience.filter);
    total = contacts.length;
    const seen = new Set<string>();
    for (const c of contacts) {
      const phone = toE164(c.externalId);
      if (!phone) {
        excluded.invalid_number += 1;
        continue;
      }
      if (seen.has(phone)) {
        excluded.duplicate += 1;
        continue;
      }
      seen.add(phone);
      candidates.push({ phone, name: c.name, roomId: c.id, row: null, values: {} });
    }
  }

  // Opt-outs of the company (every channel, or this one) and blocked WhatsApp conversations: small sets, read whole.
  const opted = await db
    .select({ phone: optOuts.phone })
    .from(optOuts)
    .where(and(eq(optOuts.companyId, companyId), or(isNull(optOuts.channelId), eq(optOuts.channelId, channelId))));
  const optedOut = new Set(opted.map((o) => o.phone));
  const blockedRows = await db
    .select({ externalId: rooms.externalId, id: rooms.id })
    .from(rooms)
    .innerJoin(channels, eq(channels.id, rooms.channelId))
    .where(and(eq(rooms.companyId, companyId), eq(channels.platform, 'whatsapp'), isNotNull(rooms.blockedAt)));
  const blocked = new Set(blockedRows.map((r) => r.externalId));

  // A CSV (or segment) phone with a conversation on the sending number is linked to it (replies, the report).
  const roomByWaId = new Map<string, number>();
  if (audience.type !== 'contacts' && candidates.length) {
    const own = await db.select({ id: rooms.id, externalId: rooms.externalId }).from(rooms).where(eq(rooms.channelId, channelId));
    for (const r of own) roomByWaId.set(r.externalId, r.id);
  }

  const members: AudienceMember[] = candidates.map((c) => {
    const waId = waIdOf(c.phone);
    let reason: ExclusionReason | null = null;
    if (optedOut.has(c.phone) || optedOut.has(waId)) reason = 'opted_out';
    else if (blocked.has(waId) || blocked.has(c.phone)) reason = 'blocked';
    if (reason) excluded[reason] += 1;
    return { ...c, roomId: c.roomId ?? roomByWaId.get(waId) ?? null, excluded: reason };
  });
  return { ok: true, value: { total, members, excluded, badRows, columns, phoneColumn, nameColumn, fileName, segment } };
}
