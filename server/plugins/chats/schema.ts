/**
 * The chats plugin's own tables: the inbound pipeline's queue across processes (./inboundQueue.ts) and
 * the members' notifications (./notifications.ts).
 * The inbox's rooms and messages are core tables (server/core/db/schema.ts).
 */
import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { channels, companies, messages, rooms, users } from '../../core/db/schema';

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

/**
 * Auto-assignment per channel (issue #22, ./autoAssignment.ts): off unless `enabled`; `last_user_id`
 * is the round-robin cursor (the member who got the channel's last room), kept here so that every
 * process continues the same round.
 */
export const autoAssignChannels = pgTable('auto_assign_channels', {
  channelId: integer('channel_id')
    .primaryKey()
    .references(() => channels.id, { onDelete: 'cascade' }),
  companyId: integer('company_id')
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' }),
  enabled: boolean('enabled').notNull().default(false),
  lastUserId: integer('last_user_id'),
  updatedAt: at('updated_at').notNull().defaultNow(),
});

/** A member's capacity for auto-assignment: open rooms assigned to them (absent: DEFAULT_ASSIGNMENT_CAPACITY). */
export const memberCapacities = pgTable(
  'member_capacities',
  {
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    capacity: integer('capacity').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.userId] })],
);

/**
 * A member's notification (issue #22): mentioned in a note (`message_id` the note) or assigned a room.
 * Per company: a member of two companies sees each company's in that company only.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    roomId: integer('room_id')
      .notNull()
      .references(() => rooms.id, { onDelete: 'cascade' }),
    messageId: integer('message_id').references(() => messages.id, { onDelete: 'cascade' }),
    /** Who mentioned or assigned (null: the system, e.g. auto-assignment). */
    byUserId: integer('by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: at('created_at').notNull().defaultNow(),
    readAt: at('read_at'),
  },
  (t) => [
    // The member's list, newest first, and its unread part (the bell's count).
    index('notifications_user_idx').on(t.userId, t.companyId, t.id),
    index('notifications_unread_idx').on(t.userId, t.companyId).where(sql`${t.readAt} is null`),
  ],
);

/** CSAT per channel (issue #22, ./csat.ts): off unless `enabled`. */
export const csatChannels = pgTable('csat_channels', {
  channelId: integer('channel_id')
    .primaryKey()
    .references(() => channels.id, { onDelete: 'cascade' }),
  companyId: integer('company_id')
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' }),
  enabled: boolean('enabled').notNull().default(false),
  updatedAt: at('updated_at').notNull().defaultNow(),
});

/**
 * A rating question sent when a room was resolved: open for the customer's next reply until
 * `expires_at`, closed (`closed_at`) by that reply, rating or not, or by the next question.
 */
export const csatRequests = pgTable(
  'csat_requests',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    roomId: integer('room_id')
      .notNull()
      .references(() => rooms.id, { onDelete: 'cascade' }),
    /** The room's assignee when it was resolved (the rating is theirs). */
    agentUserId: integer('agent_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: at('created_at').notNull().defaultNow(),
    expiresAt: at('expires_at').notNull(),
    closedAt: at('closed_at'),
  },
  (t) => [index('csat_requests_open_idx').on(t.roomId).where(sql`${t.closedAt} is null`)],
);

/** A customer's rating (1–5) of a resolved conversation: one per question. */
export const csatResponses = pgTable(
  'csat_responses',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    roomId: integer('room_id')
      .notNull()
      .references(() => rooms.id, { onDelete: 'cascade' }),
    requestId: integer('request_id')
      .notNull()
      .unique()
      .references(() => csatRequests.id, { onDelete: 'cascade' }),
    rating: integer('rating').notNull(),
    agentUserId: integer('agent_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The customer's reply that carried the rating. */
    messageId: integer('message_id').references(() => messages.id, { onDelete: 'set null' }),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [index('csat_responses_company_idx').on(t.companyId, t.createdAt)],
);
