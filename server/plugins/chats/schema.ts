/**
 * The chats plugin's own tables: the inbound pipeline's queue across processes (./inboundQueue.ts).
 * The inbox's rooms and messages are core tables (server/core/db/schema.ts).
 */
import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { messages, rooms } from '../../core/db/schema';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * A customer's message stored and not yet through the inbound pipeline: inserted in the transaction
 * that stores the message (so a stored message is never stranded), deleted once the pipeline has
 * run for it. The message id is the key: a replayed webhook finds the message stored and adds nothing.
 */
export const inboundWaiting = pgTable(
  'inbound_waiting',
  {
    messageId: integer('message_id')
      .primaryKey()
      .references(() => messages.id, { onDelete: 'cascade' }),
    roomId: integer('room_id')
      .notNull()
      .references(() => rooms.id, { onDelete: 'cascade' }),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [index('inbound_waiting_room_idx').on(t.roomId, t.messageId)],
);

/**
 * Who drains a room's waiting messages: one process at a time, until `lease_until` (renewed while it
 * works). A process killed mid-answer leaves its lease to expire; another one's sweep takes the room over.
 */
export const inboundLeases = pgTable('inbound_room_leases', {
  roomId: integer('room_id')
    .primaryKey()
    .references(() => rooms.id, { onDelete: 'cascade' }),
  holder: text('holder').notNull(),
  leaseUntil: at('lease_until').notNull(),
});
