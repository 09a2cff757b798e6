/**
 * Segments (issue #23): a company's saved contact filters (contract/segments.ts). Re-exported by
 * ./schema.ts, which drizzle-kit reads.
 */
import { integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { companies, users } from '../../core/db/schema';
import type { SegmentConditions } from '../../../contract/segments';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const segments = pgTable(
  'segments',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    conditions: jsonb('conditions').$type<SegmentConditions>().notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('segments_company_name_uq').on(t.companyId, t.name)],
);
