/**
 * The contacts: the list with the spec's contact search, one contact, creating one by hand (409 with the
 * existing id when the phone or the external id is taken), changing and deleting it, the export, and the
 * contact of a room (made when the room has none yet). Every change is pushed on `contact:{id}`.
 *
 * Deleting a contact removes the record (name, attributes, tags); its conversations stay, and the next
 * message of the customer (or opening one of those conversations) makes a new contact from the room.
 */
import { and, asc, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Paged } from '../../../contract/api';
import type { Platform, Tag } from '../../../contract/chats';
import {
  CONTACT_BROADCASTS_SHOWN,
  CONTACT_EVENTS,
  CONTACT_EXPORT_COLUMNS,
  CONTACT_EXPORT_MAX_ROWS,
  CONTACT_MESSAGES,
  phoneDigitsOf,
  type Contact,
  type ContactBroadcast,
  type ContactCreateBody,
  type ContactFilter,
  type ContactListQuery,
  type ContactPatchBody,
  type ContactRoom,
} from '../../../contract/contacts';
import type { RoomStatus } from '../../../contract/conversations';
import { toCsv } from '../../../contract/csv';
import type { Database } from '../../core/db/client';
import { channels, rooms, roomTags, tags } from '../../core/db/schema';
import { fieldError, notFound } from '../../core/errors';
import { isUniqueViolation } from '../../core/db/uniqueViolation';
import { containsPattern, offsetOf, paged } from '../../core/paging';
import { ContactAttributes } from './attributes';
import { linkRoom } from './linking';
import { contactRooms, contacts, contactTags } from './schema';
import { ownRoomsCondition, type ContactActor, type RestrictedEmail } from './visibility';

type ContactRow = typeof contacts.$inferSelect;

/** POST /api/contacts/ (or a PATCH) naming a phone or external id another contact has: answered 409 with that contact's id. */
export class ContactExistsError extends Error {
  constructor(
    readonly id: number,
    readonly detail: string,
  ) {
    super(detail);
  }
}

export interface ContactServiceDeps {
  db: Database;
  now: () => Date;
  restrictedEmail: RestrictedEmail;
  /** The company's tag of that name (made when missing): the inbox's tag list. */
  ensureTag: (companyId: number, name: string) => Promise<Tag>;
  /** Which customer ids are on the company's opt-out list (the broadcasts plugin's), or none without it. */
  optedOut: (companyId: number, customerIds: string[]) => Promise<Set<string>>;
  /** The broadcasts a phone was sent in the company, newest first (the broadcasts plugin's; none without it). */
  broadcastsOf: (companyId: number, phone: string, limit: number) => Promise<ContactBroadcast[]>;
  /** The room if the actor may open it, else null. */
  accessibleRoom: (actor: ContactActor, roomId: number) => Promise<{ id: number } | null>;
  /** Pushes a change to everyone watching the contact. */
  push: (contactId: number, event: string, payload: unknown) => Promise<void>;
}

const ORDER_COLUMNS = {
  id: contacts.id,
  name: sql`lower(${contacts.name})`,
  phone: contacts.phone,
  email: contacts.email,
  external_id: contacts.externalId,
  created_at: contacts.createdAt,
  last_message_at: contacts.lastMessageAt,
} as const;

export class ContactService {
  readonly attributes: ContactAttributes;

  constructor(private readonly deps: ContactServiceDeps) {
    this.attributes = new ContactAttributes(deps.db);
  }

  private get db(): Database {
    return this.deps.db;
  }

  // ---------- reads ----------

  /** The spec's contact search (name or external id contains the term, any chosen tag, page among the chosen channels) within what the actor sees. */
  private async conditions(actor: ContactActor, filter: Partial<ContactFilter>, extra: SQL[] = []): Promise<SQL[]> {
    const conditions: SQL[] = [eq(contacts.companyId, actor.companyId), ...extra];
    const term = filter.search?.trim();
    if (term) {
      // contract/contacts.ts contactRecordMatches: name, external id or e-mail contains the term; a phone number being
      // typed is compared by its digits, so "+33 6 98" finds "+33698765432".
      const pattern = containsPattern(term);
      const digits = phoneDigitsOf(term);
      const matches = [ilike(contacts.name, pattern), ilike(contacts.externalId, pattern), ilike(contacts.email, pattern)];
      if (digits) matches.push(sql`regexp_replace(coalesce(${contacts.phone}, ''), '[^0-9]', '', 'g') like ${containsPattern(digits)}`);
      conditions.push(or(...matches)!);
    }
    if (filter.tags?.length) conditions.push(sql`exists (select 1 from ${contactTags} where ${contactTags.contactId} = ${contacts.id} and ${inArray(contactTags.tagId, filter.tags)})`);
    if (filter.channels?.length) conditions.push(inArray(contacts.pageId, filter.channels));
    const email = await this.deps.restrictedEmail(actor);
    if (email) conditions.push(ownRoomsCondition(email));
    return conditions;
  }

  private ordering(ordering: string | undefined): SQL[] {
    const field = (ordering ?? '-last_message_at').replace(/^-/, '') as keyof typeof ORDER_COLUMNS;
    const descending = (ordering ?? '-last_message_at').startsWith('-');
    const column = ORDER_COLUMNS[field] ?? contacts.lastMessageAt;
    return [descending ? sql`${column} desc nulls last` : sql`${column} asc nulls last`, descending ? desc(contacts.id) : asc(contacts.id)];
  }

  /** `extra`: conditions on `contacts` beside the search (a segment's, attribute filters: ./segments.ts). */
  async list(actor: ContactActor, query: ContactListQuery, requestUrl: string, extra: SQL[] = []): Promise<Paged<Contact>> {
    const where = and(...(await this.conditions(actor, query, extra)));
    const [{ n }] = await this.db.select({ n: sql<number>`count(*)::int` }).from(contacts).where(where);
    const rows = await this.db
      .select()
      .from(contacts)
      .where(where)
      .orderBy(...this.ordering(query.ordering))
      .limit(query.page_size)
      .offset(offsetOf({ page: query.page, pageSize: query.page_size }));
    return paged(requestUrl, { page: query.page, pageSize: query.page_size }, Number(n), await this.toContacts(actor, rows));
  }

  /** How many contacts the actor sees match these conditions on `contacts` (a segment's count). */
  async count(actor: ContactActor, extra: SQL[]): Promise<number> {
    const [{ n }] = await this.db.select({ n: sql<number>`count(*)::int` }).from(contacts).where(and(...(await this.conditions(actor, {}, extra))));
    return Number(n);
  }

  /** One contact, with the broadcasts its phone was sent (lists leave them out). */
  async get(actor: ContactActor, id: number): Promise<Contact> {
    const [contact] = await this.toContacts(actor, [await this.visibleRow(actor, id)]);
    return this.withBroadcasts(actor, contact);
  }

  /** The row if the actor sees it; 404 otherwise (another company's contact, or one of rooms a limited member does not have). */
  private async visibleRow(actor: ContactActor, id: number): Promise<ContactRow> {
    const [row] = await this.db
      .select()
      .from(contacts)
      .where(and(eq(contacts.id, id), ...(await this.conditions(actor, {}))));
    if (!row) throw notFound();
    return row;
  }

  /** Whether the socket's member may watch the contact (the `contact:{id}` topic's check). */
  async visible(actor: ContactActor, id: number): Promise<boolean> {
    const [row] = await this.db
      .select({ id: contacts.id })
      .from(contacts)
      .where(and(eq(contacts.id, id), ...(await this.conditions(actor, {}))));
    return !!row;
  }

  /** The contact of a room the actor may open (linked, and made from the room, when it has none). */
  async forRoom(actor: ContactActor, roomId: number): Promise<Contact> {
    const room = await this.deps.accessibleRoom(actor, roomId);
    if (!room) throw notFound();
    const contactId = await linkRoom(this.db, room.id);
    if (contactId === null) throw notFound();
    const [row] = await this.db.select().from(contacts).where(eq(contacts.id, contactId));
    const [contact] = await this.toContacts(actor, [row]);
    return this.withBroadcasts(actor, contact);
  }

  private async withBroadcasts(actor: ContactActor, contact: Contact): Promise<Contact> {
    return { ...contact, broadcasts: contact.phone ? await this.deps.broadcastsOf(actor.companyId, contact.phone, CONTACT_BROADCASTS_SHOWN) : [] };
  }

  /** Contacts as the API answers them: tags, the rooms the actor sees, the opt-out state, in a few queries. */
  private async toContacts(actor: ContactActor, rows: ContactRow[]): Promise<Contact[]> {
    if (!rows.length) return [];
    const ids = rows.map((r) => r.id);
    const email = await this.deps.restrictedEmail(actor);
    const [tagRows, roomRows, optedOut] = await Promise.all([
      this.db
        .select({ contactId: contactTags.contactId, id: tags.id, name: tags.name })
        .from(contactTags)
        .innerJoin(tags, eq(tags.id, contactTags.tagId))
        .where(inArray(contactTags.contactId, ids))
        .orderBy(asc(tags.name)),
      this.db
        .select({
          contactId: contactRooms.contactId,
          id: rooms.id,
          pageId: rooms.channelId,
          platform: channels.platform,
          name: rooms.name,
          status: rooms.status,
          lastMessageAt: rooms.lastMessageAt,
          createdAt: rooms.createdAt,
        })
        .from(contactRooms)
        .innerJoin(rooms, eq(rooms.id, contactRooms.roomId))
        .innerJoin(channels, eq(channels.id, rooms.channelId))
        .where(
          and(
            inArray(contactRooms.contactId, ids),
            email ? sql`exists (select 1 from ${roomTags} join ${tags} on ${tags.id} = ${roomTags.tagId} where ${roomTags.roomId} = ${rooms.id} and lower(${tags.name}) = ${email})` : undefined,
          ),
        )
        .orderBy(sql`coalesce(${rooms.lastMessageAt}, ${rooms.createdAt}) desc`, desc(rooms.id)),
      this.deps.optedOut(actor.companyId, rows.flatMap((r) => [r.phone, r.externalId]).filter((v): v is string => !!v)),
    ]);
    const tagsOf = groupBy(tagRows, (t) => t.contactId);
    const roomsOf = groupBy(roomRows, (r) => r.contactId);
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      phone: row.phone,
      email: row.email,
      external_id: row.externalId,
      page_id: row.pageId,
      platform: (row.platform as Platform | null) ?? null,
      attributes: row.attributes ?? {},
      tags: (tagsOf.get(row.id) ?? []).map((t) => ({ id: t.id, name: t.name })),
      opted_out: (!!row.phone && optedOut.has(row.phone)) || (!!row.externalId && optedOut.has(row.externalId)),
      rooms: (roomsOf.get(row.id) ?? []).map(
        (r): ContactRoom => ({
          id: r.id,
          page_id: r.pageId,
          platform: r.platform,
          name: r.name,
          status: r.status as RoomStatus,
          last_message_at: r.lastMessageAt?.toISOString() ?? null,
          created_at: r.createdAt.toISOString(),
        }),
      ),
      created_at: row.createdAt.toISOString(),
      last_message_at: row.lastMessageAt?.toISOString() ?? null,
    }));
  }

  // ---------- the export ----------

  /** The filtered list as CSV (one column per defined attribute after the fixed ones), through the one CSV helper. */
  async exportCsv(actor: ContactActor, filter: ContactFilter, extra: SQL[] = []): Promise<string> {
    const where = and(...(await this.conditions(actor, filter, extra)));
    const rows = await this.db
      .select()
      .from(contacts)
      .where(where)
      .orderBy(...this.ordering(filter.ordering))
      .limit(CONTACT_EXPORT_MAX_ROWS);
    const [definitions, channelRows] = await Promise.all([
      this.attributes.list(actor.companyId),
      this.db.select({ id: channels.id, name: channels.name }).from(channels).where(eq(channels.companyId, actor.companyId)),
    ]);
    const channelName = new Map(channelRows.map((c) => [c.id, c.name]));
    const keys = definitions.map((d) => d.key);
    const out: (string | number | boolean | null)[][] = [];
    // In slices: the tags and opt-outs of a few thousand contacts at a time.
    for (let i = 0; i < rows.length; i += 2000) {
      const slice = await this.toContacts(actor, rows.slice(i, i + 2000));
      for (const c of slice) {
        out.push([
          c.id,
          c.name,
          c.phone,
          c.email,
          c.external_id,
          c.page_id === null ? null : (channelName.get(c.page_id) ?? null),
          c.platform,
          c.tags.map((t) => t.name).join(', '),
          c.opted_out,
          c.created_at,
          c.last_message_at,
          ...keys.map((k) => c.attributes[k] ?? null),
        ]);
      }
    }
    return toCsv(out, [...CONTACT_EXPORT_COLUMNS, ...keys]);
  }

  // ---------- changes ----------

  /** 409 when another contact of the company has the phone, or the external id on the channel. */
  private async assertFree(companyId: number, exceptId: number | null, phone: string | null | undefined, pageId: number | null | undefined, externalId: string | null | undefined): Promise<void> {
    if (phone) {
      const [taken] = await this.db.select({ id: contacts.id }).from(contacts).where(and(eq(contacts.companyId, companyId), eq(contacts.phone, phone)));
      if (taken && taken.id !== exceptId) throw new ContactExistsError(taken.id, CONTACT_MESSAGES.phoneTaken);
    }
    if (externalId && pageId) {
      const [taken] = await this.db
        .select({ id: contacts.id })
        .from(contacts)
        .where(and(eq(contacts.companyId, companyId), eq(contacts.pageId, pageId), eq(contacts.externalId, externalId)));
      if (taken && taken.id !== exceptId) throw new ContactExistsError(taken.id, CONTACT_MESSAGES.externalIdTaken);
    }
  }

  private async channelOf(companyId: number, pageId: number): Promise<{ id: number; platform: Platform }> {
    const [row] = await this.db
      .select({ id: channels.id, platform: channels.platform })
      .from(channels)
      .where(and(eq(channels.id, pageId), eq(channels.companyId, companyId)));
    if (!row) throw fieldError('page_id', CONTACT_MESSAGES.unknownChannel);
    return row;
  }

  async create(actor: ContactActor, body: ContactCreateBody): Promise<Contact> {
    const { companyId } = actor;
    if (body.external_id && !body.page_id) throw fieldError('page_id', CONTACT_MESSAGES.externalIdNeedsChannel);
    const channel = body.page_id ? await this.channelOf(companyId, body.page_id) : null;
    const attributes = await this.attributes.merge(companyId, {}, body.attributes ?? {});
    await this.assertFree(companyId, null, body.phone, channel?.id, body.external_id);
    let row: ContactRow;
    try {
      [row] = await this.db
        .insert(contacts)
        .values({
          companyId,
          name: body.name,
          phone: body.phone ?? null,
          email: body.email ?? null,
          externalId: body.external_id ?? null,
          pageId: channel?.id ?? null,
          platform: channel?.platform ?? null,
          attributes,
          createdAt: this.deps.now(),
        })
        .returning();
    } catch (err) {
      // Made meanwhile by another request: the same answer as when it existed before.
      if (!isUniqueViolation(err)) throw err;
      await this.assertFree(companyId, null, body.phone, channel?.id, body.external_id);
      throw err;
    }
    if (body.tags?.length) await this.addTags(companyId, row.id, body.tags);
    return this.get(actor, row.id);
  }

  async update(actor: ContactActor, id: number, patch: ContactPatchBody): Promise<Contact> {
    const row = await this.visibleRow(actor, id);
    const changes: Partial<typeof contacts.$inferInsert> = {};
    if (patch.name !== undefined) changes.name = patch.name;
    if (patch.email !== undefined) changes.email = patch.email;
    if (patch.phone !== undefined) {
      await this.assertFree(actor.companyId, id, patch.phone, null, null);
      changes.phone = patch.phone;
    }
    if (patch.attributes) changes.attributes = await this.attributes.merge(actor.companyId, row.attributes ?? {}, patch.attributes);
    if (Object.keys(changes).length) {
      try {
        await this.db.update(contacts).set(changes).where(eq(contacts.id, id));
      } catch (err) {
        if (isUniqueViolation(err) && patch.phone) await this.assertFree(actor.companyId, id, patch.phone, null, null);
        throw err;
      }
    }
    if (patch.tags) {
      await this.db.delete(contactTags).where(eq(contactTags.contactId, id));
      await this.addTags(actor.companyId, id, patch.tags);
    }
    if (patch.add_tags?.length) await this.addTags(actor.companyId, id, patch.add_tags);
    if (patch.remove_tags?.length) await this.removeTags(actor.companyId, id, patch.remove_tags);
    const contact = await this.get(actor, id);
    await this.announce(contact);
    return contact;
  }

  async remove(actor: ContactActor, id: number): Promise<void> {
    await this.visibleRow(actor, id);
    await this.db.delete(contacts).where(eq(contacts.id, id));
    await this.deps.push(id, CONTACT_EVENTS.deleted, { id });
  }

  /** The change to everyone watching: without the rooms, which each watcher knows as far as they may see them. */
  private async announce(contact: Contact): Promise<void> {
    const { rooms: _rooms, ...rest } = contact;
    await this.deps.push(contact.id, CONTACT_EVENTS.updated, { contact: rest });
  }

  private async addTags(companyId: number, contactId: number, names: string[]): Promise<void> {
    const ids: number[] = [];
    for (const name of new Set(names.map((n) => n.trim()).filter(Boolean))) ids.push((await this.deps.ensureTag(companyId, name)).id);
    if (ids.length) await this.db.insert(contactTags).values(ids.map((tagId) => ({ contactId, tagId }))).onConflictDoNothing();
  }

  private async removeTags(companyId: number, contactId: number, names: string[]): Promise<void> {
    const lower = names.map((n) => n.trim().toLowerCase());
    await this.db
      .delete(contactTags)
      .where(
        and(
          eq(contactTags.contactId, contactId),
          inArray(contactTags.tagId, this.db.select({ id: tags.id }).from(tags).where(and(eq(tags.companyId, companyId), inArray(sql`lower(${tags.name})`, lower)))),
        ),
      );
  }

  // ---------- the inbound pipeline ----------

  /** A customer wrote: their room has its contact (made on first contact), whose newest activity follows. */
  async onInbound(roomId: number): Promise<number | null> {
    return linkRoom(this.db, roomId);
  }
}

function groupBy<T>(rows: T[], key: (row: T) => number): Map<number, T[]> {
  const map = new Map<number, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = map.get(k);
    if (list) list.push(row);
    else map.set(k, [row]);
  }
  return map;
}
