/**
 * A room's one assignee (issue #22), kept in step with the agent tags of spec §5 in both directions:
 * assigning adds the assignee's e-mail tag and removes every other agent tag (unassigning removes them
 * all); adding a member's e-mail tag assigns that member, removing the assignee's tag unassigns. Older
 * clients (add_tag/remove_tag) and the agent-only-own-rooms rule, which reads the tags, keep working.
 *
 * Each change locks the room row (FOR UPDATE) for its transaction, so two assignments at once end with
 * one assignee and its one tag, never two agent tags.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import { isAgentTagName } from '../../../contract/chats';
import { assigneeNotFoundMessage } from '../../../contract/conversations';
import type { Database, Tx } from '../../core/db/client';
import { memberships, roomTags, rooms, tags, users } from '../../core/db/schema';
import { ChatError } from './chatError';


export interface AssignmentDeps {
  db: Database;
  /** The company's tag of that name, created on first use (ChatService.ensureTag). */
  ensureTag(companyId: number, name: string): Promise<{ id: number; name: string }>;
  /** A member became the room's assignee (after the change is stored); not called when they assigned themselves. */
  assigned?(change: { room: { id: number; companyId: number }; userId: number; byUserId: number | null }): Promise<void>;
}

export class RoomAssignments {
  constructor(private readonly deps: AssignmentDeps) {}

  /** A member of the company (id and lower-cased e-mail), or null. */
  async member(companyId: number, userId: number): Promise<{ id: number; email: string } | null> {
    const [row] = await this.deps.db
      .select({ id: users.id, email: users.email })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(and(eq(memberships.companyId, companyId), eq(memberships.userId, userId)));
    return row ? { id: row.id, email: row.email.toLowerCase() } : null;
  }

  private async memberByEmail(companyId: number, email: string): Promise<{ id: number; email: string } | null> {
    const [row] = await this.deps.db
      .select({ id: users.id, email: users.email })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(and(eq(memberships.companyId, companyId), sql`lower(${users.email}) = ${email.toLowerCase()}`));
    return row ? { id: row.id, email: row.email.toLowerCase() } : null;
  }

  /** The assignee to set: null, or a member of the company (else a 400 on assignee_id). Checked before anything is written. */
  async checkAssignee(companyId: number, userId: number | null): Promise<{ id: number; email: string } | null> {
    if (userId === null) return null;
    const member = await this.member(companyId, userId);
    if (!member) throw new ChatError('invalid payload', { assignee_id: [assigneeNotFoundMessage(userId)] });
    return member;
  }

  /** Locks the room's row for the transaction; its assignee before the change. */
  private async lockRoom(tx: Tx, roomId: number): Promise<number | null> {
    const [row] = await tx.select({ assignee: rooms.assigneeUserId }).from(rooms).where(eq(rooms.id, roomId)).for('update');
    return row?.assignee ?? null;
  }

  /**
   * Sets the assignee (a checked member, or null) and the room's agent tags to match: the one path of
   * every assignment (the PATCH, the agent tags, bots, auto-assignment). `byUserId`: who assigned (null:
   * the system, e.g. auto-assignment); a member who becomes the assignee is notified unless they assigned
   * themselves. `within`: the caller's transaction (auto-assignment decides and assigns under one lock);
   * the notice then waits until that transaction has committed (the caller's `afterCommit`).
   */
  async assign(
    room: { id: number; companyId: number },
    member: { id: number; email: string } | null,
    byUserId: number | null = null,
    within?: { tx: Tx; afterCommit: (notice: () => Promise<void>) => void },
  ): Promise<void> {
    let previous: number | null;
    if (within) {
      previous = await this.assignIn(within.tx, room, member, member ? await this.tagIn(within.tx, room.companyId, member.email) : null);
    } else {
      const tag = member ? await this.deps.ensureTag(room.companyId, member.email) : null;
      previous = await this.deps.db.transaction((tx) => this.assignIn(tx, room, member, tag));
    }
    if (member && member.id !== previous && member.id !== byUserId) {
      const notice = async () => {
        await this.deps.assigned?.({ room, userId: member.id, byUserId });
      };
      if (within) within.afterCommit(notice);
      else await notice();
    }
  }

  /** The member's agent tag inside a transaction (as ChatService.ensureTag: lower-cased e-mail, created on first use). */
  private async tagIn(tx: Tx, companyId: number, email: string): Promise<{ id: number; name: string }> {
    const name = email.trim().toLowerCase();
    await tx.insert(tags).values({ companyId, name }).onConflictDoNothing();
    const [row] = await tx
      .select({ id: tags.id, name: tags.name })
      .from(tags)
      .where(and(eq(tags.companyId, companyId), sql`lower(${tags.name}) = lower(${name})`));
    return row;
  }

  /** Stores the assignment and the agent tags; the assignee before the change. */
  private async assignIn(tx: Tx, room: { id: number; companyId: number }, member: { id: number; email: string } | null, tag: { id: number; name: string } | null): Promise<number | null> {
    const before = await this.lockRoom(tx, room.id);
    await tx.update(rooms).set({ assigneeUserId: member?.id ?? null }).where(eq(rooms.id, room.id));
    const current = await tx
      .select({ id: tags.id, name: tags.name })
      .from(roomTags)
      .innerJoin(tags, eq(tags.id, roomTags.tagId))
      .where(eq(roomTags.roomId, room.id));
    const others = current.filter((t) => isAgentTagName(t.name) && t.id !== tag?.id).map((t) => t.id);
    if (others.length > 0) await tx.delete(roomTags).where(and(eq(roomTags.roomId, room.id), inArray(roomTags.tagId, others)));
    if (tag) await tx.insert(roomTags).values({ roomId: room.id, tagId: tag.id }).onConflictDoNothing();
    return before;
  }

  /**
   * add_tag with an agent tag (socket, bots' assign_agent): a member's e-mail assigns that member;
   * any other address is only added as a tag, as before.
   */
  async addAgentTag(room: { id: number; companyId: number }, name: string, byUserId: number | null = null): Promise<void> {
    const member = await this.memberByEmail(room.companyId, name.trim());
    if (member) return this.assign(room, member, byUserId);
    const tag = await this.deps.ensureTag(room.companyId, name);
    await this.deps.db.insert(roomTags).values({ roomId: room.id, tagId: tag.id }).onConflictDoNothing();
  }

  /** remove_tag with an agent tag: removing the assignee's e-mail unassigns the room. */
  async removeAgentTag(room: { id: number; companyId: number }, name: string): Promise<void> {
    const email = name.trim().toLowerCase();
    await this.deps.db.transaction(async (tx) => {
      await this.lockRoom(tx, room.id);
      const matching = tx
        .select({ id: tags.id })
        .from(tags)
        .where(and(eq(tags.companyId, room.companyId), sql`lower(${tags.name}) = ${email}`));
      await tx.delete(roomTags).where(and(eq(roomTags.roomId, room.id), inArray(roomTags.tagId, matching)));
      const assignee = tx.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = ${email}`);
      await tx
        .update(rooms)
        .set({ assigneeUserId: null })
        .where(and(eq(rooms.id, room.id), inArray(rooms.assigneeUserId, assignee)));
    });
  }
}
