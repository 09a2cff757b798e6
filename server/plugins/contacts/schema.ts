/**
 * The contacts plugin's tables (issue #23): the customer record, its tags, which rooms are its
 * conversations, and the company's attribute definitions. Rooms, channels and tags are core tables.
 */
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { channels, companies, rooms, tags, users } from '../../core/db/schema';
import type { ImportMapping, ImportSkipReason, ImportState } from '../../../contract/contactImports';
import type { AttributeValue, ContactAttributeType } from '../../../contract/contacts';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * One customer of a company. A customer is found again by phone (E.164: the same number writing to two
 * WhatsApp numbers of the company is one contact) or by its id on a channel (page_id + external_id).
 */
export const contacts = pgTable(
  'contacts',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    phone: text('phone'),
    email: text('email'),
    /** The customer's id on its first channel (rooms.external_id). */
    externalId: text('external_id'),
    pageId: integer('page_id').references(() => channels.id, { onDelete: 'set null' }),
    platform: text('platform').$type<'sandbox' | 'whatsapp' | 'messenger' | 'instagram'>(),
    attributes: jsonb('attributes').$type<Record<string, AttributeValue>>().notNull().default({}),
    createdAt: at('created_at').notNull().defaultNow(),
    /** The newest message of its rooms, kept by the inbound pipeline's handler (segments filter on it). */
    lastMessageAt: at('last_message_at'),
  },
  (t) => [
    uniqueIndex('contacts_company_phone_uq').on(t.companyId, t.phone).where(sql`${t.phone} is not null`),
    uniqueIndex('contacts_company_page_external_uq').on(t.companyId, t.pageId, t.externalId).where(sql`${t.externalId} is not null and ${t.pageId} is not null`),
    index('contacts_company_created_idx').on(t.companyId, t.createdAt),
    index('contacts_company_name_idx').on(t.companyId, sql`lower(${t.name})`),
  ],
);

/** A room is the conversation of exactly one contact; a contact may have several (one per channel). */
export const contactRooms = pgTable(
  'contact_rooms',
  {
    roomId: integer('room_id')
      .primaryKey()
      .references(() => rooms.id, { onDelete: 'cascade' }),
    contactId: integer('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
  },
  (t) => [index('contact_rooms_contact_idx').on(t.contactId)],
);

/** The contact's tags: the company's tags (the same list the inbox tags rooms from). */
export const contactTags = pgTable(
  'contact_tags',
  {
    contactId: integer('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    tagId: integer('tag_id')
      .notNull()
      .references(() => tags.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.contactId, t.tagId] }), index('contact_tags_tag_idx').on(t.tagId)],
);

/** The custom fields a company defines for its contacts (values live in contacts.attributes by key). */
export const contactAttributes = pgTable(
  'contact_attributes',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    key: text('key').notNull(),
    type: text('type').$type<ContactAttributeType>().notNull(),
    options: jsonb('options').$type<string[]>().notNull().default([]),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('contact_attributes_company_key_uq').on(t.companyId, t.key)],
);

export { segments } from './segmentsSchema';
/**
 * A CSV import of contacts (POST /api/contacts/import/): its counters move with each slice of rows, in the
 * slice's transaction, so any process answers its status and a restart loses nothing that was done. At most
 * one queued or running import per company (the partial unique index); `heartbeat_at` moves with each slice,
 * so an import whose process died is seen as stopped and no longer blocks the company.
 */
export const contactImports = pgTable(
  'contact_imports',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    state: text('state').$type<ImportState>().notNull(),
    fileName: text('file_name').notNull(),
    mapping: jsonb('mapping').$type<ImportMapping>().notNull(),
    country: text('country'),
    total: integer('total').notNull().default(0),
    processed: integer('processed').notNull().default(0),
    created: integer('created').notNull().default(0),
    updated: integer('updated').notNull().default(0),
    skippedCount: integer('skipped_count').notNull().default(0),
    error: text('error'),
    createdAt: at('created_at').notNull().defaultNow(),
    heartbeatAt: at('heartbeat_at').notNull().defaultNow(),
    finishedAt: at('finished_at'),
  },
  (t) => [
    uniqueIndex('contact_imports_one_running_uq').on(t.companyId).where(sql`${t.state} in ('queued', 'running')`),
    index('contact_imports_company_idx').on(t.companyId, t.createdAt),
  ],
);

/** The rows an import skipped, with the reason (the status lists the first ones). */
export const contactImportSkips = pgTable(
  'contact_import_skips',
  {
    importId: integer('import_id')
      .notNull()
      .references(() => contactImports.id, { onDelete: 'cascade' }),
    row: integer('row').notNull(),
    reason: text('reason').$type<ImportSkipReason>().notNull(),
    field: text('field'),
    value: text('value'),
    firstRow: integer('first_row'),
  },
  (t) => [primaryKey({ columns: [t.importId, t.row] })],
);
