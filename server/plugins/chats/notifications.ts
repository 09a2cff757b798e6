/**
 * Members' notifications (issue #22): a mention in a private note, a room assigned to them. Stored per
 * company and member, pushed live to the member's own topic `notifications:{userId}` (contract/notes.ts),
 * listed newest first and marked read one by one.
 */
import { and, desc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { NOTIFICATION_EVENT, NOTIFICATION_PAGE_SIZE, notificationTopic, type Notification, type NotificationKind } from '../../../contract/notes';
import type { Clock } from '../../core/clock';
import type { Database } from '../../core/db/client';
import { rooms, users } from '../../core/db/schema';
import { ChatError } from './chatError';
import { notifications } from './schema';

export interface NotificationDeps {
  db: Database;
  clock: Clock;
  broadcast(topic: string, event: string, payload: unknown): Promise<void>;
}

/** What a pushed notification carries besides the contract's fields: its company (the topic's sockets of other companies drop it). */
export type PushedNotification = Notification & { company_id: number };

const byUsers = sql.raw('by_user');

export class Notifications {
  constructor(private readonly deps: NotificationDeps) {}

  private select() {
    return this.deps.db
      .select({
        id: notifications.id,
        kind: notifications.kind,
        roomId: notifications.roomId,
        messageId: notifications.messageId,
        createdAt: notifications.createdAt,
        readAt: notifications.readAt,
        companyId: notifications.companyId,
        roomName: rooms.name,
        byName: sql<string | null>`(select coalesce(nullif(${byUsers}.first_name, ''), ${byUsers}.email) from ${users} ${byUsers} where ${byUsers}.id = ${notifications.byUserId})`,
      })
      .from(notifications)
      .innerJoin(rooms, eq(rooms.id, notifications.roomId));
  }

  private static view(row: {
    id: number;
    kind: string;
    roomId: number;
    messageId: number | null;
    createdAt: Date;
    readAt: Date | null;
    roomName: string;
    byName: string | null;
  }): Notification {
    return {
      id: row.id,
      kind: row.kind as NotificationKind,
      room_id: row.roomId,
      message_id: row.messageId,
      created_at: row.createdAt.toISOString(),
      read_at: row.readAt ? row.readAt.toISOString() : null,
      room_name: row.roomName,
      by_name: row.byName,
    };
  }

  /** Stores one notification for a member and pushes it to their topic. */
  async notify(input: { companyId: number; userId: number; kind: NotificationKind; roomId: number; messageId?: number | null; byUserId?: number | null }): Promise<Notification> {
    const [stored] = await this.deps.db
      .insert(notifications)
      .values({
        companyId: input.companyId,
        userId: input.userId,
        kind: input.kind,
        roomId: input.roomId,
        messageId: input.messageId ?? null,
        byUserId: input.byUserId ?? null,
        createdAt: this.deps.clock.now(),
      })
      .returning({ id: notifications.id });
    const [row] = await this.select().where(eq(notifications.id, stored.id));
    const notification = Notifications.view(row);
    const pushed: PushedNotification = { ...notification, company_id: input.companyId };
    await this.deps.broadcast(notificationTopic(input.userId), NOTIFICATION_EVENT, pushed);
    return notification;
  }

  private mine(companyId: number, userId: number, unread: boolean): SQL {
    return and(eq(notifications.companyId, companyId), eq(notifications.userId, userId), unread ? isNull(notifications.readAt) : undefined)!;
  }

  /** The member's notifications in this company, newest first. */
  async list(companyId: number, userId: number, query: { unread: boolean; page: number }): Promise<{ count: number; results: Notification[] }> {
    const where = this.mine(companyId, userId, query.unread);
    const [counted] = await this.deps.db.select({ n: sql<number>`count(*)::int` }).from(notifications).where(where);
    const rows = await this.select()
      .where(where)
      .orderBy(desc(notifications.id))
      .limit(NOTIFICATION_PAGE_SIZE)
      .offset((query.page - 1) * NOTIFICATION_PAGE_SIZE);
    return { count: Number(counted?.n ?? 0), results: rows.map(Notifications.view) };
  }

  /** Marks one of the member's notifications read (the first time counts); another's, or another company's, is not found. */
  async markRead(companyId: number, userId: number, id: number): Promise<Notification> {
    await this.deps.db
      .update(notifications)
      .set({ readAt: this.deps.clock.now() })
      .where(and(eq(notifications.id, id), this.mine(companyId, userId, true)));
    const [row] = await this.select().where(and(eq(notifications.id, id), this.mine(companyId, userId, false)));
    if (!row) throw new ChatError('not found');
    return Notifications.view(row);
  }
}
