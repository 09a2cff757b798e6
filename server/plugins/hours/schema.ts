/**
 * The hours plugin's tables (issue #22): a company's business hours and away message, and the away
 * messages sent (one per room per closed period: the key that makes it once across processes).
 */
import { boolean, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { companies, messages, rooms } from '../../core/db/schema';
import type { WeekHours } from '../../../contract/businessHours';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const businessHours = pgTable('business_hours', {
  companyId: integer('company_id')
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  enabled: boolean('enabled').notNull().default(false),
  timeZone: text('time_zone').notNull(),
  days: jsonb('days').$type<WeekHours>().notNull(),
  awayMessage: text('away_message').notNull(),
  updatedAt: at('updated_at').notNull().defaultNow(),
});

/** An away message sent: its key (room, closed period) is claimed before sending, so a room gets one per period. */
export const awayMessagesSent = pgTable(
  'away_messages_sent',
  {
    roomId: integer('room_id')
      .notNull()
      .references(() => rooms.id, { onDelete: 'cascade' }),
    /** The closed period: its local start ("2026-03-27T18:00") or "closed" (contract/businessHours.ts hoursAt). */
    period: text('period').notNull(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    /** The customer message it answered. */
    messageId: integer('message_id').references(() => messages.id, { onDelete: 'set null' }),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.roomId, t.period] })],
);
