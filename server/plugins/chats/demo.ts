/**
 * The demo's conversations in every status (issue #22), assigned and not: after the sandbox plugin
 * stored the Demo Company's conversations (its seeder, order 100), each gets a status and an assignee,
 * with the agent tag that goes with it (spec §5), as the console would set them; a few carry private
 * notes (one mentioning the admin, who has its notification waiting); a few customers rated their
 * earlier conversation (CSAT), so /stats shows a score and its agents.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { isAgentTagName } from '../../../contract/chats';
import type { RoomStatus } from '../../../contract/conversations';
import type { Tx } from '../../core/db/client';
import { messages, roomTags, rooms, tags, users } from '../../core/db/schema';
import { csatRequests, csatResponses, notifications } from './schema';


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

/** CSAT ratings of earlier conversations by customer id: the agent it was resolved by, the rating, days ago. */
export const DEMO_RATINGS: Record<string, { agent: 'agent' | 'admin'; rating: number; daysAgo: number }> = {
  '+34612345678': { agent: 'agent', rating: 5, daysAgo: 3 },
  '+81312345678': { agent: 'agent', rating: 4, daysAgo: 2 },
  '+14155550123': { agent: 'agent', rating: 2, daysAgo: 2 },
  '+4915112345678': { agent: 'admin', rating: 5, daysAgo: 1 },
};

/** Private notes by customer id: who wrote it, minutes ago, and its text (`@admin` becomes the admin's e-mail, a mention). */
export const DEMO_NOTES: Record<string, { by: 'agent' | 'admin'; minutesAgo: number; text: string }[]> = {
  '+34612345678': [
    { by: 'agent', minutesAgo: 30, text: 'Second exchange for this customer this year. @admin can we waive the return shipping?' },
    { by: 'admin', minutesAgo: 25, text: 'Yes, waive it and add a 10% voucher.' },
  ],
  '+4915112345678': [{ by: 'admin', minutesAgo: 90, text: 'Waiting for the photo of the damaged parcel before refunding.' }],
};

export async function seedDemoConversations(tx: Tx, companyId: number, people: { agent: string; admin: string }, now = new Date()): Promise<void> {
  const emails = [people.agent.toLowerCase(), people.admin.toLowerCase()];
  const found = await tx.select({ id: users.id, email: users.email, firstName: users.firstName }).from(users).where(inArray(users.email, emails));
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
  // Private notes (origin 'note', never delivered), and the admin's mention notification.
  for (const [externalId, notes] of Object.entries(DEMO_NOTES)) {
    const [room] = await tx
      .select({ id: rooms.id })
      .from(rooms)
      .where(and(eq(rooms.companyId, companyId), eq(rooms.externalId, externalId)));
    if (!room) continue;
    for (const note of notes) {
      const author = byRole[note.by];
      if (!author) continue;
      const mentionsAdmin = note.text.includes('@admin') && byRole.admin;
      const text = mentionsAdmin ? note.text.replace('@admin', `@${byRole.admin!.email}`) : note.text;
      const [stored] = await tx
        .insert(messages)
        .values({ companyId, roomId: room.id, origin: 'note', type: 'text', text, status: null, senderUserId: author.id, senderName: author.firstName || author.email, createdAt: new Date(now.getTime() - note.minutesAgo * 60_000) })
        .returning({ id: messages.id, createdAt: messages.createdAt });
      if (mentionsAdmin) {
        await tx.insert(notifications).values({ companyId, userId: byRole.admin!.id, kind: 'mention', roomId: room.id, messageId: stored.id, byUserId: author.id, createdAt: stored.createdAt });
      }
    }
  }
}

/** The demo's CSAT ratings (DEMO_RATINGS): an answered question and its rating per customer, days ago. */
export async function seedDemoCsat(tx: Tx, companyId: number, people: { agent: string; admin: string }, now = new Date()): Promise<void> {
  const emails = { agent: people.agent.toLowerCase(), admin: people.admin.toLowerCase() };
  const found = await tx.select({ id: users.id, email: users.email }).from(users).where(inArray(users.email, Object.values(emails)));
  for (const [externalId, plan] of Object.entries(DEMO_RATINGS)) {
    const [room] = await tx
      .select({ id: rooms.id })
      .from(rooms)
      .where(and(eq(rooms.companyId, companyId), eq(rooms.externalId, externalId)));
    const agent = found.find((u) => u.email === emails[plan.agent]);
    if (!room || !agent) continue;
    const at = new Date(now.getTime() - plan.daysAgo * 86_400_000);
    const [request] = await tx
      .insert(csatRequests)
      .values({ companyId, roomId: room.id, agentUserId: agent.id, createdAt: new Date(at.getTime() - 600_000), expiresAt: new Date(at.getTime() + 86_400_000), closedAt: at })
      .returning({ id: csatRequests.id });
    await tx.insert(csatResponses).values({ companyId, roomId: room.id, requestId: request.id, rating: plan.rating, agentUserId: agent.id, createdAt: at });
  }
}
