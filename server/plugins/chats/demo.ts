/**
 * The demo's conversations in every status (issue #22), assigned and not: after the sandbox plugin
 * stored the Demo Company's conversations (its seeder, order 100), each gets a status and an assignee,
 * with the agent tag that goes with it (spec §5), as the console would set them.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { isAgentTagName } from '../../../contract/chats';
import type { RoomStatus } from '../../../contract/conversations';
import type { Database } from '../../core/db/client';
import { roomTags, rooms, tags, users } from '../../core/db/schema';

type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];

/** By the sandbox demo's customer ids: status, snooze (hours from now) and assignee ('agent', 'admin' or none). */
export const DEMO_CONVERSATIONS: Record<string, { status: RoomStatus; snoozeHours?: number; assignee: 'agent' | 'admin' | null }> = {
  '+34612345678': { status: 'open', assignee: 'agent' }, // Maria Lopez (her agent tag already says so)
  '+81312345678': { status: 'open', assignee: null }, // Aiko Tanaka
  '+14155550123': { status: 'open', assignee: null }, // James Carter
  '+212612345678': { status: 'open', assignee: null }, // Fatima Zahra
  '+33698765432': { status: 'resolved', assignee: null }, // Lucas Martin, the spam
  '+4915112345678': { status: 'pending', assignee: 'admin' }, // Noah Fischer, waiting on the customer
  '+393331234567': { status: 'snoozed', snoozeHours: 20, assignee: null }, // Giulia Bianchi
};

export async function seedDemoConversations(tx: Tx, companyId: number, people: { agent: string; admin: string }, now = new Date()): Promise<void> {
  const emails = [people.agent.toLowerCase(), people.admin.toLowerCase()];
  const found = await tx.select({ id: users.id, email: users.email }).from(users).where(inArray(users.email, emails));
  const byRole = { agent: found.find((u) => u.email === emails[0]), admin: found.find((u) => u.email === emails[1]) };
  for (const [externalId, plan] of Object.entries(DEMO_CONVERSATIONS)) {
    const [room] = await tx
      .select({ id: rooms.id })
      .from(rooms)
      .where(and(eq(rooms.companyId, companyId), eq(rooms.externalId, externalId)));
    if (!room) continue;
    const assignee = plan.assignee ? byRole[plan.assignee] : undefined;
    await tx
      .update(rooms)
      .set({
        status: plan.status,
        snoozedUntil: plan.snoozeHours ? new Date(now.getTime() + plan.snoozeHours * 3600_000) : null,
        assigneeUserId: assignee?.id ?? null,
      })
      .where(eq(rooms.id, room.id));
    // The agent tags follow the assignee: the assignee's e-mail only.
    const current = await tx.select({ id: tags.id, name: tags.name }).from(roomTags).innerJoin(tags, eq(tags.id, roomTags.tagId)).where(eq(roomTags.roomId, room.id));
    const stale = current.filter((t) => isAgentTagName(t.name) && t.name.toLowerCase() !== assignee?.email.toLowerCase()).map((t) => t.id);
    if (stale.length > 0) await tx.delete(roomTags).where(and(eq(roomTags.roomId, room.id), inArray(roomTags.tagId, stale)));
    if (assignee && !current.some((t) => t.name.toLowerCase() === assignee.email.toLowerCase())) {
      await tx.insert(tags).values({ companyId, name: assignee.email.toLowerCase() }).onConflictDoNothing();
      const [tag] = await tx
        .select({ id: tags.id })
        .from(tags)
        .where(and(eq(tags.companyId, companyId), eq(tags.name, assignee.email.toLowerCase())));
      await tx.insert(roomTags).values({ roomId: room.id, tagId: tag.id }).onConflictDoNothing();
    }
  }
}
