/**
 * Auto-assignment per channel (issue #22): off by default. When on, a room that opens (a new
 * conversation, a customer re-opening it) or that a bot or flow hands over goes to the next member,
 * round-robin by user id, who is
 *  - online: has the channel's inbox open, i.e. a presence on `page:{channel}` (tracked at the join for
 *    members who may manage chats, ./handlers.ts; with Redis the presences of every process, and a
 *    dead process's are reaped), and
 *  - under their capacity: fewer open rooms assigned to them in the company than their capacity
 *    (`member_capacities`, default DEFAULT_ASSIGNMENT_CAPACITY).
 *
 * Several processes: the decision and the assignment run in ONE transaction holding a lock on the
 * company (a transaction-scoped advisory lock), so two processes never decide at once: the second sees
 * the first's assignment in the loads and the round-robin cursor (`auto_assign_channels.last_user_id`,
 * in the database) it moved. The assignment itself is RoomAssignments.assign, the function every
 * assignment goes through (agent tags kept in step, and whatever hooks it carries).
 */
import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import { DEFAULT_ASSIGNMENT_CAPACITY, type AssignmentCapacity, type AutoAssignmentSetting } from '../../../contract/conversations';
import type { Database } from '../../core/db/client';
import { channels, memberships, rooms, users } from '../../core/db/schema';
import { notFound } from '../../core/errors';
import type { RoomAssignments } from './assignment';
import { autoAssignChannels, memberCapacities } from './schema';

/** The first key of the advisory lock taken per company (the second is the company id). */
const AUTO_ASSIGN_LOCK = 22_001;

export interface AutoAssignmentDeps {
  db: Database;
  assignments: RoomAssignments;
  /** User ids with a presence on the topic (every process). */
  presentUsers(topic: string): Promise<number[]>;
  /** Pushes the room's change (room_info). */
  announce(roomId: number): Promise<void>;
}

export class AutoAssignment {
  constructor(private readonly deps: AutoAssignmentDeps) {}

  private get db(): Database {
    return this.deps.db;
  }

  async settings(companyId: number): Promise<AutoAssignmentSetting[]> {
    const rows = await this.db
      .select({ channel_id: autoAssignChannels.channelId, enabled: autoAssignChannels.enabled })
      .from(autoAssignChannels)
      .where(and(eq(autoAssignChannels.companyId, companyId), eq(autoAssignChannels.enabled, true)))
      .orderBy(asc(autoAssignChannels.channelId));
    return rows;
  }

  /** Turns the channel's auto-assignment on or off (another company's channel: 404). The cursor is kept. */
  async setEnabled(companyId: number, channelId: number, enabled: boolean): Promise<AutoAssignmentSetting> {
    const [channel] = await this.db
      .select({ id: channels.id })
      .from(channels)
      .where(and(eq(channels.id, channelId), eq(channels.companyId, companyId)));
    if (!channel) throw notFound();
    await this.db
      .insert(autoAssignChannels)
      .values({ channelId, companyId, enabled })
      .onConflictDoUpdate({ target: autoAssignChannels.channelId, set: { enabled, updatedAt: sql`now()` } });
    return { channel_id: channelId, enabled };
  }

  /** Every member of the company with their capacity. */
  async capacities(companyId: number): Promise<AssignmentCapacity[]> {
    const rows = await this.db
      .select({ user_id: memberships.userId, capacity: memberCapacities.capacity })
      .from(memberships)
      .leftJoin(memberCapacities, and(eq(memberCapacities.companyId, memberships.companyId), eq(memberCapacities.userId, memberships.userId)))
      .where(eq(memberships.companyId, companyId))
      .orderBy(asc(memberships.userId));
    return rows.map((r) => ({ user_id: r.user_id, capacity: r.capacity ?? DEFAULT_ASSIGNMENT_CAPACITY }));
  }

  /** Sets a member's capacity (not a member of the company: 404). */
  async setCapacity(companyId: number, userId: number, capacity: number): Promise<AssignmentCapacity> {
    const [member] = await this.db
      .select({ id: memberships.id })
      .from(memberships)
      .where(and(eq(memberships.companyId, companyId), eq(memberships.userId, userId)));
    if (!member) throw notFound();
    await this.db
      .insert(memberCapacities)
      .values({ companyId, userId, capacity })
      .onConflictDoUpdate({ target: [memberCapacities.companyId, memberCapacities.userId], set: { capacity } });
    return { user_id: userId, capacity };
  }

  /**
   * The room opened or was handed over: when its channel auto-assigns and it is open and unassigned,
   * it goes to the next online member under capacity. Returns the member's user id, or null (off,
   * nobody available, assigned meanwhile).
   */
  async roomOpened(roomId: number): Promise<number | null> {
    const [room] = await this.db
      .select({ id: rooms.id, companyId: rooms.companyId, channelId: rooms.channelId, status: rooms.status, assignee: rooms.assigneeUserId })
      .from(rooms)
      .where(eq(rooms.id, roomId));
    if (!room || room.status !== 'open' || room.assignee !== null) return null;
    const [setting] = await this.db.select({ enabled: autoAssignChannels.enabled }).from(autoAssignChannels).where(eq(autoAssignChannels.channelId, room.channelId));
    if (!setting?.enabled) return null;
    const online = [...new Set(await this.deps.presentUsers(`page:${room.channelId}`))];
    if (online.length === 0) return null;

    const notices: (() => Promise<void>)[] = [];
    const picked = await this.db.transaction(async (tx) => {
      // One decision at a time per company (capacity counts the company's open rooms of each member).
      await tx.execute(sql`select pg_advisory_xact_lock(${AUTO_ASSIGN_LOCK}, ${room.companyId})`);
      const [current] = await tx.select({ status: rooms.status, assignee: rooms.assigneeUserId }).from(rooms).where(eq(rooms.id, room.id)).for('update');
      if (!current || current.status !== 'open' || current.assignee !== null) return null;
      const [cursor] = await tx
        .select({ enabled: autoAssignChannels.enabled, lastUserId: autoAssignChannels.lastUserId })
        .from(autoAssignChannels)
        .where(eq(autoAssignChannels.channelId, room.channelId));
      if (!cursor?.enabled) return null;
      const members = await tx
        .select({ id: users.id, email: users.email, capacity: memberCapacities.capacity })
        .from(memberships)
        .innerJoin(users, eq(users.id, memberships.userId))
        .leftJoin(memberCapacities, and(eq(memberCapacities.companyId, memberships.companyId), eq(memberCapacities.userId, memberships.userId)))
        .where(and(eq(memberships.companyId, room.companyId), inArray(memberships.userId, online)))
        .orderBy(asc(users.id));
      if (members.length === 0) return null;
      const loads = await tx
        .select({ userId: rooms.assigneeUserId, n: count() })
        .from(rooms)
        .where(and(eq(rooms.companyId, room.companyId), eq(rooms.status, 'open'), inArray(rooms.assigneeUserId, members.map((m) => m.id))))
        .groupBy(rooms.assigneeUserId);
      const load = new Map(loads.map((l) => [l.userId, Number(l.n)]));
      const available = members.filter((m) => (load.get(m.id) ?? 0) < (m.capacity ?? DEFAULT_ASSIGNMENT_CAPACITY));
      if (available.length === 0) return null;
      const last = cursor.lastUserId ?? 0;
      const next = available.find((m) => m.id > last) ?? available[0];
      await tx.update(autoAssignChannels).set({ lastUserId: next.id }).where(eq(autoAssignChannels.channelId, room.channelId));
      await this.deps.assignments.assign(room, { id: next.id, email: next.email.toLowerCase() }, null, { tx, afterCommit: (notice) => notices.push(notice) });
      return next.id;
    });
    if (picked !== null) await this.deps.announce(room.id);
    // The assignee's notification, once the assignment is committed (they may open the room at once).
    for (const notice of notices) await notice();
    return picked;
  }
}
