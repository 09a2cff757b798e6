/**
 * The inbox's reads: rooms (a page of them, one with its newest messages, lookups), their tags,
 * unread counts and message history, and who may see which room under the agent feature.
 */
import { and, asc, desc, eq, gt, inArray, isNull, lt, sql, type SQL } from 'drizzle-orm';
import { CHAT_PAGE_SIZE, UNREAD_COUNT_LIMIT, type Message, type PageInfo, type Room, type Tag } from '../../../contract/chats';
import { ROOM_STATUSES, type RoomAssignee, type RoomAssigneeFilter, type RoomCounts, type RoomStatusFilter } from '../../../contract/conversations';
import type { RoleId } from '../../../contract/permissions';
import type { Database } from '../../core/db/client';
import { prepared, preparedMapped, shapeOf } from '../../core/db/prepared';
import { isoText } from '../../core/db/isoText';
import { containsPattern } from '../../core/paging';
import { channels, companies, memberships, messages, roomTags, rooms, tags, users } from '../../core/db/schema';
import { ChatError } from './chatError';
import type { ChatActor } from './service';
import { toPageInfo, toRoom, type ChannelRow, type MediaUrlReader, type MessageRow, type RoomRecord } from './views';

export interface FetchRoomsQuery {
  search: string;
  page: number;
  tags?: number[];
  pages?: number[];
  /** Issue #22: one status, or 'all' / absent for every room. */
  status?: RoomStatusFilter;
  assignee?: RoomAssigneeFilter;
  /** Rooms per page (CHAT_PAGE_SIZE unless given: the REST list takes page_size). */
  pageSize?: number;
}

/** Messages returned to a reconnecting client at most (the client reloads the room beyond that). */
export const MAX_MISSED = 500;

const roomColumns = {
  id: rooms.id,
  companyId: rooms.companyId,
  channelId: rooms.channelId,
  externalId: rooms.externalId,
  name: rooms.name,
  pausedUntil: rooms.pausedUntil,
  blockedAt: rooms.blockedAt,
  lastMessageAt: rooms.lastMessageAt,
  lastInboundAt: rooms.lastInboundAt,
  createdAt: rooms.createdAt,
  status: rooms.status,
  snoozedUntil: rooms.snoozedUntil,
  assigneeUserId: rooms.assigneeUserId,
  platform: channels.platform,
};

/** The room's assignee as a room carries it, read in the same statement (null when unassigned). */
const assigneeJson = (roomAlias: SQL) =>
  sql<RoomAssignee | null>`(select json_build_object('id', u.id, 'first_name', u.first_name, 'email', u.email) from users u where u.id = ${roomAlias})`;

/** A literal int[] of ids (numbers only) for unnest(). */
function idArray(ids: number[]): SQL {
  return sql`array[${sql.join(ids.map((id) => sql`${Math.trunc(id)}::int`), sql`, `)}]::int[]`;
}

/**
 * Private notes (origin 'note') only where the client asked for them (contract/notes.ts): a client that
 * knows nothing of notes would draw one as a message sent to the customer.
 */
export const notNote = sql`${messages.origin} <> 'note'`;
const withNotes = (includeNotes: boolean): SQL[] => (includeNotes ? [] : [notNote]);

/** A column of the room list's `page` CTE (fetchRoomsStatement), by its name in the table. */
const pageColumn = (name: string): SQL => sql`${sql.identifier('page')}.${sql.identifier(name)}`;
const pageTime = (column: { name: string }): SQL => isoText(pageColumn(column.name));

/**
 * A member's unread count of a room: its customer messages after the member's read marker (by primary key), index-only
 * (messages_room_customer_idx), at most UNREAD_COUNT_LIMIT of them read (contract/chats.ts).
 */
function unreadCount(roomId: SQL, userId: unknown): SQL {
  return sql`(select count(*) from (select 1 from messages m
              where m.room_id = ${roomId} and m.origin = 'user'
                and m.id > coalesce((select rr.last_read_message_id from room_reads rr where rr.room_id = ${roomId} and rr.user_id = ${userId}), 0)
              limit ${sql.raw(String(UNREAD_COUNT_LIMIT))}) unread)::int`;
}

/**
 * A room of the room list as the contract's JSON (views.ts `toRoom`, with its tags, the user's unread count, its
 * newest message but a note as `toMessage` writes it, and its assignee), built by PostgreSQL in the list's statement.
 * Reading each room's columns and its message's into objects, making a Date of each of their eight timestamps and
 * text of it again, was most of the room list's own CPU beside the bare floor (bench/data, issue #26); pg parses the
 * JSON as it parses any row. Only a private attachment's URL is left to sign (fetchRooms). roomList.test.ts holds
 * it equal to toRoom's rooms (roomSummaries) on both databases.
 */
const roomOfPageJson = sql<Room>`json_build_object(
  'id', ${pageColumn(rooms.id.name)},
  'name', ${pageColumn(rooms.name.name)},
  'external_id', ${pageColumn(rooms.externalId.name)},
  'page_id', ${pageColumn(rooms.channelId.name)},
  'platform', ${pageColumn(channels.platform.name)},
  'tags', coalesce((select json_agg(json_build_object('id', t.id, 'name', t.name) order by t.name, t.id)
                      from room_tags rt inner join tags t on t.id = rt.tag_id where rt.room_id = ${pageColumn(rooms.id.name)}), '[]'::json),
  'paused_until', ${pageTime(rooms.pausedUntil)},
  'blocked_at', ${pageTime(rooms.blockedAt)},
  'unread', ${unreadCount(pageColumn(rooms.id.name), sql.placeholder('userId'))},
  'last_message_at', ${pageTime(rooms.lastMessageAt)},
  'last_inbound_at', ${pageTime(rooms.lastInboundAt)},
  'messages', coalesce((select json_build_array(json_build_object(
                  'id', ${messages.id}, 'room_id', ${messages.roomId}, 'origin', ${messages.origin}, 'type', ${messages.type},
                  'text', ${messages.text}, 'media_url', ${messages.mediaUrl}, 'media_type', ${messages.mediaType},
                  'data', ${messages.data}, 'status', ${messages.status}, 'error', ${messages.error},
                  'client_id', ${messages.clientId}, 'sender_name', ${messages.senderName},
                  'created_at', ${isoText(sql`${messages.createdAt}`)}, 'private', ${messages.origin} = 'note'))
                from ${messages}
                where ${messages.roomId} = ${pageColumn(rooms.id.name)} and ${notNote} order by ${messages.id} desc limit 1), '[]'::json),
  'status', ${pageColumn(rooms.status.name)},
  'snoozed_until', ${pageTime(rooms.snoozedUntil)},
  'assignee', ${assigneeJson(pageColumn(rooms.assigneeUserId.name))})`;

export function isPrivilegedRole(role: RoleId): boolean {
  return role === 'admin' || role === 'manager';
}

/** The room lists' best plans depend on their values (a company's size, the page, the filters): see PreparedOptions. */
const PLAN_EACH_CALL = { planEachCall: true } as const;

/** A list's filter as a prepared statement takes it: its shape (the statement's name), its values, and its conditions built from placeholders. */
interface RoomFilter {
  shape: string;
  params: Record<string, unknown>;
  conditions: () => SQL[];
}

export class RoomQueries {
  constructor(
    private readonly db: Database,
    /** A stored message as it is handed out (its private attachment's URL signed now). */
    private readonly message: (row: MessageRow) => Message,
    /** A stored media URL as it is handed out: the same signing, for a message PostgreSQL wrote as JSON. */
    private readonly mediaUrl: MediaUrlReader,
  ) {}

  async agentFeature(companyId: number): Promise<boolean> {
    const statement = prepared(this.db, 'chat_agent_feature', (db, name) =>
      db.select({ on: companies.agentFeature }).from(companies).where(eq(companies.id, sql.placeholder('companyId'))).prepare(name),
    );
    const [row] = await statement.execute({ companyId });
    return row?.on ?? false;
  }

  /** Under the agent feature, a member who is neither admin nor manager sees only rooms tagged with their e-mail: that e-mail, else null. */
  async restrictedEmail(actor: Pick<ChatActor, 'companyId' | 'role' | 'email'>): Promise<string | null> {
    if (isPrivilegedRole(actor.role)) return null;
    return (await this.agentFeature(actor.companyId)) ? actor.email.toLowerCase() : null;
  }

  async listPages(companyId: number): Promise<PageInfo[]> {
    const rows = await this.db.select().from(channels).where(eq(channels.companyId, companyId)).orderBy(asc(channels.id));
    return rows.map(toPageInfo);
  }

  async channel(companyId: number, channelId: number): Promise<ChannelRow | null> {
    const [row] = await this.db
      .select()
      .from(channels)
      .where(and(eq(channels.id, channelId), eq(channels.companyId, companyId)));
    return row ?? null;
  }

  async roomRecord(roomId: number): Promise<RoomRecord | null> {
    const statement = prepared(this.db, 'chat_room_record', (db, name) =>
      db.select(roomColumns).from(rooms).innerJoin(channels, eq(channels.id, rooms.channelId)).where(eq(rooms.id, sql.placeholder('roomId'))).prepare(name),
    );
    const [row] = await statement.execute({ roomId });
    return row ?? null;
  }

  /** The room if the actor may open it: another company's room is "not found", an agent-feature restriction "forbidden". */
  async accessibleRoom(actor: ChatActor, roomId: number): Promise<RoomRecord> {
    const room = await this.roomRecord(roomId);
    if (!room || room.companyId !== actor.companyId) throw new ChatError('not found');
    const email = await this.restrictedEmail(actor);
    if (email) {
      const tagNames = (await this.tagsOf([room.id])).get(room.id) ?? [];
      if (!tagNames.some((t) => t.name.toLowerCase() === email)) throw new ChatError('forbidden');
    }
    return room;
  }

  private async tagsOf(roomIds: number[]): Promise<Map<number, Tag[]>> {
    const map = new Map<number, Tag[]>();
    if (roomIds.length === 0) return map;
    const rows = await this.db
      .select({ roomId: roomTags.roomId, id: tags.id, name: tags.name })
      .from(roomTags)
      .innerJoin(tags, eq(tags.id, roomTags.tagId))
      .where(inArray(roomTags.roomId, roomIds))
      .orderBy(asc(tags.name), asc(tags.id));
    for (const { roomId, ...tag } of rows) {
      const list = map.get(roomId) ?? [];
      list.push(tag);
      map.set(roomId, list);
    }
    return map;
  }

  private async unreadOf(roomIds: number[], userId: number | null): Promise<Map<number, number>> {
    const map = new Map<number, number>();
    if (roomIds.length === 0) return map;
    // Per room: its read marker by primary key, then its customer messages after it, index-only
    // (messages_room_customer_idx); never the page's rooms' whole history at once (bench/data).
    const result = (await this.db.execute(sql`
      select r.id as room_id, ${unreadCount(sql`r.id`, userId ?? -1)} as unread
      from unnest(${idArray(roomIds)}) as r(id)`)) as unknown as { rows: { room_id: number; unread: number }[] };
    for (const row of result.rows) if (Number(row.unread) > 0) map.set(Number(row.room_id), Number(row.unread));
    return map;
  }

  private async lastMessagesOf(roomIds: number[]): Promise<Map<number, Message>> {
    const map = new Map<number, Message>();
    if (roomIds.length === 0) return map;
    // Each room's newest id by one backward index probe (messages_room_id_idx), then those rows (bench/data).
    const rows = await this.db
      .select()
      .from(messages)
      .where(
        sql`${messages.id} in (select (select m.id from messages m where m.room_id = r.id and m.origin <> 'note' order by m.id desc limit 1) from unnest(${idArray(roomIds)}) as r(id))`,
      );
    for (const row of rows) map.set(row.roomId, this.message(row));
    return map;
  }

  /** Room views for a list: each with its tags, the user's unread count and its last message only. */
  async roomSummaries(records: RoomRecord[], userId: number | null): Promise<Room[]> {
    const ids = records.map((r) => r.id);
    const [tagMap, unreadMap, lastMap, assignees] = await Promise.all([this.tagsOf(ids), this.unreadOf(ids, userId), this.lastMessagesOf(ids), this.assigneesOf(records)]);
    return records.map((r) => {
      const last = lastMap.get(r.id);
      return toRoom(r, { tags: tagMap.get(r.id) ?? [], unread: unreadMap.get(r.id) ?? 0, messages: last ? [last] : [], assignee: assignees.get(r.id) ?? null });
    });
  }

  /** One room with its newest CHAT_PAGE_SIZE messages (ascending). */
  async roomDetail(record: RoomRecord, userId: number | null, includeNotes = false): Promise<Room> {
    const [tagMap, unreadMap, page, assignees] = await Promise.all([
      this.tagsOf([record.id]),
      this.unreadOf([record.id], userId),
      this.newestMessages(record.id, includeNotes),
      this.assigneesOf([record]),
    ]);
    return toRoom(record, { tags: tagMap.get(record.id) ?? [], unread: unreadMap.get(record.id) ?? 0, messages: page, assignee: assignees.get(record.id) ?? null });
  }

  /** The assignees of rooms (by room id), one query for their users. */
  private async assigneesOf(records: RoomRecord[]): Promise<Map<number, RoomAssignee>> {
    const map = new Map<number, RoomAssignee>();
    const userIds = [...new Set(records.map((r) => r.assigneeUserId).filter((id): id is number => id !== null))];
    if (userIds.length === 0) return map;
    const rows = await this.db.select({ id: users.id, first_name: users.firstName, email: users.email }).from(users).where(inArray(users.id, userIds));
    const byId = new Map(rows.map((row) => [row.id, row]));
    for (const r of records) {
      const user = r.assigneeUserId === null ? undefined : byId.get(r.assigneeUserId);
      if (user) map.set(r.id, user);
    }
    return map;
  }

  private async newestMessages(roomId: number, includeNotes: boolean): Promise<Message[]> {
    const statement = prepared(this.db, `chat_newest_messages${shapeOf({ notes: includeNotes })}`, (db, name) =>
      db
        .select()
        .from(messages)
        .where(and(eq(messages.roomId, sql.placeholder('roomId')), ...withNotes(includeNotes)))
        .orderBy(desc(messages.id))
        .limit(CHAT_PAGE_SIZE)
        .prepare(name),
    );
    const rows = await statement.execute({ roomId });
    return rows.reverse().map(this.message);
  }

  /**
   * Which rooms a list shows: the company's, on one channel (pageId) or the chosen ones (pages) or all
   * of them (pageId null), matching the search, tags, status and assignee, and only the restricted
   * member's own under the agent feature.
   *
   * As a shape and its values: the three list statements are prepared once per shape (db/prepared.ts), their
   * SQL built by drizzle once and not on every call (the inbox's list was the hottest kind left over the
   * bare floor, bench/data, issue #26); lists of ids are one array value each (`= any($n)`), so a shape does
   * not depend on how many ids are chosen.
   */
  private async roomFilter(actor: ChatActor, pageId: number | null, query: Omit<FetchRoomsQuery, 'page'>, withStatus = true): Promise<RoomFilter> {
    const term = query.search.trim();
    const status = withStatus && query.status && query.status !== 'all' ? query.status : null;
    const assigneeId = query.assignee === 'me' ? actor.userId : typeof query.assignee === 'number' ? query.assignee : null;
    const email = await this.restrictedEmail(actor);
    const pages = query.pages && query.pages.length > 0 ? query.pages : null;
    const filterTags = query.tags && query.tags.length > 0 ? query.tags : null;
    const parts = {
      pages: pages !== null,
      page: pages === null && pageId !== null,
      search: term !== '',
      tags: filterTags !== null,
      status: status !== null,
      assignee: assigneeId !== null,
      unassigned: query.assignee === 'none',
      restricted: email !== null,
    };
    return {
      shape: shapeOf(parts),
      params: { companyId: actor.companyId, pages, pageId, pattern: containsPattern(term), tags: filterTags, status, assigneeId, email },
      conditions: () => {
        const conditions: SQL[] = [eq(rooms.companyId, sql.placeholder('companyId'))];
        if (parts.pages) conditions.push(sql`${rooms.channelId} = any(${sql.placeholder('pages')}::int[])`);
        if (parts.page) conditions.push(eq(rooms.channelId, sql.placeholder('pageId')));
        if (parts.search) conditions.push(sql`(${rooms.name} ilike ${sql.placeholder('pattern')} or ${rooms.externalId} ilike ${sql.placeholder('pattern')})`);
        if (parts.tags) conditions.push(sql`exists (select 1 from ${roomTags} where ${roomTags.roomId} = ${rooms.id} and ${roomTags.tagId} = any(${sql.placeholder('tags')}::int[]))`);
        if (parts.status) conditions.push(eq(rooms.status, sql.placeholder('status')));
        if (parts.assignee) conditions.push(eq(rooms.assigneeUserId, sql.placeholder('assigneeId')));
        if (parts.unassigned) conditions.push(isNull(rooms.assigneeUserId));
        if (parts.restricted) {
          conditions.push(
            sql`exists (select 1 from ${roomTags} inner join ${tags} on ${tags.id} = ${roomTags.tagId} where ${roomTags.roomId} = ${rooms.id} and lower(${tags.name}) = ${sql.placeholder('email')})`,
          );
        }
        return conditions;
      },
    };
  }

  /** How many rooms a list query matches (the REST list's count). */
  async countRooms(actor: ChatActor, pageId: number | null, query: Omit<FetchRoomsQuery, 'page'>): Promise<number> {
    const filter = await this.roomFilter(actor, pageId, query);
    const statement = prepared(this.db, `chat_room_count${filter.shape}`, (db, name) =>
      db
        .select({ n: sql<number>`count(*)::int` })
        .from(rooms)
        .where(and(...filter.conditions()))
        .prepare(name),
      PLAN_EACH_CALL,
    );
    const [row] = await statement.execute(filter.params);
    return Number(row?.n ?? 0);
  }

  /** Per status: the caller's rooms, the unassigned ones and all of them (what the caller may see), in one statement. */
  async roomCounts(actor: ChatActor, pages: number[] | undefined): Promise<RoomCounts> {
    const filter = await this.roomFilter(actor, null, { search: '', pages }, false);
    const statement = prepared(this.db, `chat_room_counts${filter.shape}`, (db, name) =>
      db
        .select({
          status: rooms.status,
          all: sql<number>`count(*)::int`,
          mine: sql<number>`(count(*) filter (where ${rooms.assigneeUserId} = ${sql.placeholder('userId')}))::int`,
          unassigned: sql<number>`(count(*) filter (where ${rooms.assigneeUserId} is null))::int`,
        })
        .from(rooms)
        .where(and(...filter.conditions()))
        .groupBy(rooms.status)
        .prepare(name),
      PLAN_EACH_CALL,
    );
    const rows = await statement.execute({ ...filter.params, userId: actor.userId });
    const counts = Object.fromEntries(ROOM_STATUSES.map((s) => [s, { mine: 0, unassigned: 0, all: 0 }])) as RoomCounts;
    for (const row of rows) {
      const entry = counts[row.status as keyof RoomCounts];
      if (entry) Object.assign(entry, { mine: Number(row.mine), unassigned: Number(row.unassigned), all: Number(row.all) });
    }
    return counts;
  }

  /** fetch_rooms (and GET /api/rooms/): newest activity first, CHAT_PAGE_SIZE (or pageSize) per page from 1. pageId null: every channel. */
  async fetchRooms(actor: ChatActor, pageId: number | null, query: FetchRoomsQuery): Promise<Room[]> {
    const filter = await this.roomFilter(actor, pageId, query);
    const pageSize = query.pageSize ?? CHAT_PAGE_SIZE;
    const statement = preparedMapped(
      this.db,
      `chat_fetch_rooms${filter.shape}`,
      (db, name) => this.fetchRoomsStatement(db, filter).prepare(name),
      (at) => {
        const room = at('room');
        return (row) => row[room] as Room;
      },
      PLAN_EACH_CALL,
    );
    const rooms = await statement.execute({ ...filter.params, userId: actor.userId ?? -1, limit: pageSize, offset: (query.page - 1) * pageSize });
    // The one thing PostgreSQL cannot write: a private attachment's URL, signed now (as `this.message` signs it).
    for (const room of rooms) {
      const last = room.messages[0];
      if (last && last.media_url !== null) last.media_url = this.mediaUrl(last.media_url, actor.companyId);
    }
    return rooms;
  }

  /**
   * fetch_rooms in one round trip (bench/data): the page of rooms, then per room of the page only its tags,
   * the user's unread count and its newest message (the same index probes as roomSummaries), each room as the
   * contract's JSON built by PostgreSQL (roomOfPageJson).
   */
  private fetchRoomsStatement(db: Database, filter: RoomFilter) {
    const page = db.$with('page').as(
      db
        .select({ ...roomColumns, sortAt: sql<Date>`coalesce(${rooms.lastMessageAt}, ${rooms.createdAt})`.as('sort_at') })
        .from(rooms)
        .innerJoin(channels, eq(channels.id, rooms.channelId))
        .where(and(...filter.conditions()))
        .orderBy(sql`coalesce(${rooms.lastMessageAt}, ${rooms.createdAt}) desc`, desc(rooms.id))
        .limit(sql.placeholder('limit'))
        .offset(sql.placeholder('offset')),
    );
    return db.with(page).select({ room: roomOfPageJson }).from(page).orderBy(desc(page.sortAt), desc(page.id));
  }

  /** room:{id} join: the room with its newest page, the messages after the client's last one, and the room marked read. */
  async openRoom(actor: ChatActor, room: RoomRecord, lastMessageId: number | null | undefined, includeNotes = false): Promise<{ room: Room; missed: Message[] }> {
    let missed: Message[] = [];
    if (lastMessageId !== null && lastMessageId !== undefined) {
      const rows = await this.db
        .select()
        .from(messages)
        .where(and(eq(messages.roomId, room.id), gt(messages.id, lastMessageId), ...withNotes(includeNotes)))
        .orderBy(asc(messages.id))
        .limit(MAX_MISSED);
      missed = rows.map(this.message);
    }
    return { room: await this.roomDetail(room, actor.userId, includeNotes), missed };
  }

  /** fetch_messages: the page before a message (id) or a time, ascending. */
  async olderMessages(roomId: number, before: { timestamp?: string | null; id?: number | null }, includeNotes = false): Promise<{ messages: Message[]; has_more: boolean }> {
    const beforeId = before.id !== null && before.id !== undefined ? before.id : null;
    let beforeAt: Date | null = null;
    if (before.timestamp) {
      beforeAt = new Date(before.timestamp);
      if (Number.isNaN(beforeAt.getTime())) throw new ChatError('invalid payload', { before_timestamp: ['Enter a valid date/time.'] });
    }
    // One statement per shape (notes or not, before an id, before a time): the inbox's most frequent query.
    const statement = prepared(this.db, `chat_older_messages${shapeOf({ notes: includeNotes, id: beforeId !== null, at: beforeAt !== null })}`, (db, name) => {
      const conditions: SQL[] = [eq(messages.roomId, sql.placeholder('roomId')), ...withNotes(includeNotes)];
      if (beforeId !== null) conditions.push(lt(messages.id, sql.placeholder('beforeId')));
      if (beforeAt !== null) conditions.push(lt(messages.createdAt, sql.placeholder('beforeAt')));
      return db
        .select()
        .from(messages)
        .where(and(...conditions))
        .orderBy(desc(messages.createdAt), desc(messages.id))
        .limit(CHAT_PAGE_SIZE + 1)
        .prepare(name);
    });
    const rows = await statement.execute({ roomId, beforeId, beforeAt: beforeAt?.toISOString() ?? null });
    const has_more = rows.length > CHAT_PAGE_SIZE;
    return { messages: rows.slice(0, CHAT_PAGE_SIZE).reverse().map(this.message), has_more };
  }

  /** GET /api/tags/: all company tags; under the agent feature, a restricted member sees only the tags naming members' e-mails. */
  async listTags(actor: ChatActor): Promise<Tag[]> {
    const restricted = (await this.restrictedEmail(actor)) !== null;
    const statement = prepared(this.db, `chat_tags${shapeOf({ restricted })}`, (db, name) => {
      const conditions: SQL[] = [eq(tags.companyId, sql.placeholder('companyId'))];
      if (restricted) {
        const memberEmails = db
          .select({ email: users.email })
          .from(memberships)
          .innerJoin(users, eq(users.id, memberships.userId))
          .where(eq(memberships.companyId, sql.placeholder('companyId')));
        conditions.push(sql`lower(${tags.name}) in (${memberEmails})`);
      }
      return db.select({ id: tags.id, name: tags.name }).from(tags).where(and(...conditions)).orderBy(asc(tags.name), asc(tags.id)).prepare(name);
    });
    return statement.execute({ companyId: actor.companyId });
  }

  /** Every message of a room after an id, ascending (the simulator's polling): never a private note. */
  async messagesAfter(roomId: number, afterId: number, limit = 200): Promise<Message[]> {
    const rows = await this.db
      .select()
      .from(messages)
      .where(and(eq(messages.roomId, roomId), gt(messages.id, afterId), notNote))
      .orderBy(asc(messages.id))
      .limit(limit);
    return rows.map(this.message);
  }

  async roomByCustomer(channelId: number, externalUserId: string): Promise<RoomRecord | null> {
    const [row] = await this.db
      .select(roomColumns)
      .from(rooms)
      .innerJoin(channels, eq(channels.id, rooms.channelId))
      .where(and(eq(rooms.channelId, channelId), eq(rooms.externalId, externalUserId)));
    return row ?? null;
  }
}
