/**
 * Private notes (issue #22, contract/notes.ts): a member's message in a room that only members see.
 * Stored as a message with origin 'note' and no delivery status, so nothing hands it to a channel
 * (the deliveries only take pending messages), nothing counts it as a reply (stats and the 24-hour
 * window read origin 'agent' and 'user'), and nothing a customer reads (the simulator, the room list's
 * last message) includes it. Pushed live as `new_note` on room:{id} (the console's sockets show it);
 * every member the note mentions (`@email`) who may open the room is notified.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Message } from '../../../contract/chats';
import type { RoleId } from '../../../contract/permissions';
import { NEW_NOTE_EVENT, NOTE_ORIGIN, mentionedEmails } from '../../../contract/notes';
import type { Clock } from '../../core/clock';
import type { Database } from '../../core/db/client';
import { memberships, messages, users } from '../../core/db/schema';
import type { Notifications } from './notifications';
import type { ChatActor } from './service';
import { roomTopic, type MessageRow, type RoomRecord } from './views';

export interface NoteDeps {
  db: Database;
  clock: Clock;
  message(row: MessageRow): Message;
  broadcast(topic: string, event: string, payload: unknown): Promise<void>;
  notifications: Notifications;
  /** Whether a member may open the room (an agent limited to own rooms may not open another's). */
  mayOpen(member: ChatActor, room: RoomRecord): Promise<boolean>;
}

export class RoomNotes {
  constructor(private readonly deps: NoteDeps) {}

  async add(actor: ChatActor, room: RoomRecord, text: string): Promise<Message> {
    const [row] = await this.deps.db
      .insert(messages)
      .values({
        companyId: room.companyId,
        roomId: room.id,
        origin: NOTE_ORIGIN,
        type: 'text',
        text,
        status: null,
        senderUserId: actor.userId,
        senderName: actor.name,
        createdAt: this.deps.clock.now(),
      })
      .returning();
    const note = this.deps.message(row);
    await this.deps.broadcast(roomTopic(room.id), NEW_NOTE_EVENT, note);
    for (const member of await this.mentioned(actor, room, text)) {
      await this.deps.notifications.notify({ companyId: room.companyId, userId: member.userId, kind: 'mention', roomId: room.id, messageId: note.id, byUserId: actor.userId });
    }
    return note;
  }

  /** The company's members a note mentions, but its author, and only those who may open the room. */
  private async mentioned(actor: ChatActor, room: RoomRecord, text: string): Promise<ChatActor[]> {
    const emails = mentionedEmails(text);
    if (emails.length === 0) return [];
    const rows = await this.deps.db
      .select({ userId: users.id, email: users.email, firstName: users.firstName, role: memberships.role })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(and(eq(memberships.companyId, room.companyId), inArray(sql`lower(${users.email})`, emails)));
    const members: ChatActor[] = [];
    for (const row of rows) {
      if (row.userId === actor.userId) continue;
      const member: ChatActor = { userId: row.userId, email: row.email, name: row.firstName || row.email, companyId: room.companyId, role: row.role as RoleId };
      if (await this.deps.mayOpen(member, room)) members.push(member);
    }
    return members;
  }
}
