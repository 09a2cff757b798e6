/**
 * The assistant's tables (issue #24, server/plugins/assistant). A knowledge item (an article, an
 * uploaded document's text, or a flow's extra context) is split into passages; each passage keeps a
 * full-text vector PostgreSQL computes and stores itself (a generated column, English and French
 * stemming together, GIN-indexed), so a restart re-indexes nothing and PGlite and PostgreSQL search
 * alike. The settings are one row per company; the API key is sealed (server/core/crypto/secretBox.ts).
 */
import { sql, type SQL } from 'drizzle-orm';
import { boolean, customType, index, integer, jsonb, pgTable, real, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { AssistantProvider, KnowledgeFormat, KnowledgeKind } from '../../../contract/assistant';
import { companies, rooms } from '../../core/db/schema';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

export const knowledgeItems = pgTable(
  'knowledge_items',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<KnowledgeKind>().notNull(),
    format: text('format').$type<KnowledgeFormat>().notNull(),
    title: text('title').notNull(),
    /** Markdown (articles, .md documents) or plain text (PDF and .txt documents, flows). */
    body: text('body').notNull(),
    fileName: text('file_name'),
    /** Flows: the flow and the version its context was read at (re-read when the flow moves on). */
    flowId: integer('flow_id'),
    flowVersion: integer('flow_version'),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [index('knowledge_items_company_idx').on(t.companyId), uniqueIndex('knowledge_items_company_flow_uq').on(t.companyId, t.flowId)],
);

export const knowledgePassages = pgTable(
  'knowledge_passages',
  {
    id: serial('id').primaryKey(),
    itemId: integer('item_id').notNull().references(() => knowledgeItems.id, { onDelete: 'cascade' }),
    companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    heading: text('heading').notNull(),
    text: text('text').notNull(),
    search: tsvector('search').generatedAlwaysAs(
      (): SQL => sql`to_tsvector('english'::regconfig, heading || ' ' || text) || to_tsvector('french'::regconfig, heading || ' ' || text)`,
    ),
  },
  (t) => [
    index('knowledge_passages_item_idx').on(t.itemId, t.position),
    index('knowledge_passages_company_idx').on(t.companyId),
    index('knowledge_passages_search_idx').using('gin', t.search),
  ],
);

export const assistantSettings = pgTable('assistant_settings', {
  companyId: integer('company_id').primaryKey().references(() => companies.id, { onDelete: 'cascade' }),
  provider: text('provider').$type<AssistantProvider>().notNull().default('local'),
  baseUrl: text('base_url').notNull().default(''),
  model: text('model').notNull().default(''),
  apiKeyEnc: text('api_key_enc'),
  temperature: real('temperature').notNull().default(0.2),
  maxTokens: integer('max_tokens').notNull().default(400),
  timeoutMs: integer('timeout_ms').notNull().default(15000),
  threshold: real('threshold').notNull().default(0.5),
  channels: jsonb('channels').$type<number[]>().notNull().default([]),
  enabled: boolean('enabled').notNull().default(false),
  updatedAt: at('updated_at').notNull().defaultNow(),
});

/**
 * The assistant's claim on a room's customer messages (issue #24, on the channels): one row per room.
 * `last_inbound_message_id` moves forward by a conditional update (an insert for the room's first), so
 * one answer per customer message whatever the replays or processes; `pending_reply` is the decided
 * reply until it is sent (a process killed in between leaves it; the pipeline's re-run sends it with
 * the same `ai:{message}` client id). `unanswered`: questions in a row it could not answer.
 */
export interface PendingAssistantReply {
  messageId: number;
  kind: 'answer' | 'rephrase' | 'handover';
  text: string;
  sources: { id: number; title: string }[];
}

export const assistantConversations = pgTable('assistant_conversations', {
  roomId: integer('room_id')
    .primaryKey()
    .references(() => rooms.id, { onDelete: 'cascade' }),
  companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
  lastInboundMessageId: integer('last_inbound_message_id').notNull(),
  unanswered: integer('unanswered').notNull().default(0),
  pendingReply: jsonb('pending_reply').$type<PendingAssistantReply | null>(),
  updatedAt: at('updated_at').notNull().defaultNow(),
});

/**
 * What the plan's `assistant_answers` counts: one row per answer on a channel (`answer:{message}`) and per
 * reply suggested in the inbox (`suggestion:{n}`), keyed so a re-run counts nothing twice.
 */
export const assistantUsage = pgTable(
  'assistant_usage',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    kind: text('kind').$type<'answer' | 'suggestion'>().notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('assistant_usage_company_key_uq').on(t.companyId, t.key), index('assistant_usage_company_at_idx').on(t.companyId, t.createdAt)],
);

/**
 * Every customer question the assistant decided on a channel (issue #24's usage figures): whether it answered,
 * asked to rephrase or handed over, and why. /stats counts them and lists the questions most often left without
 * an answer, so the business knows what to add to its knowledge. One row per customer message.
 */
export const assistantQuestions = pgTable(
  'assistant_questions',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    roomId: integer('room_id').references(() => rooms.id, { onDelete: 'set null' }),
    /** The customer's message (null for the demo's history, which has no message behind it). */
    messageId: integer('message_id'),
    question: text('question').notNull(),
    outcome: text('outcome').$type<'answer' | 'rephrase' | 'handover'>().notNull(),
    reason: text('reason').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('assistant_questions_message_uq').on(t.messageId), index('assistant_questions_company_at_idx').on(t.companyId, t.createdAt)],
);
