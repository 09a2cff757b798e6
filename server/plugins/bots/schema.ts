/**
 * Bots (issue #12): the tables of the bot service (server/plugins/bots) and of its runtime
 * (server/plugins/bots/runtime). Shapes as the API shows them: contract/bots.ts.
 *
 * Step and option ids are chosen by the client (the canvas), unique WITHIN a bot: their primary keys
 * are (bot_id, id). Graph references (next_step_id, an option's next_step, bots.start_step_id,
 * bots.fallback_step_id) are plain text checked by the service (contract findGraphProblem) inside
 * the transaction that writes them, not foreign keys: a whole graph is replaced in one statement set.
 */
import { sql } from 'drizzle-orm';
import { boolean, foreignKey, index, integer, jsonb, pgTable, primaryKey, real, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { BotMessage, OperationMethod, OptOutReason, StepAction } from '../../../contract/bots';
import type { BotContent, BotVersionKind } from '../../../contract/botDrafts';
import { channels, companies, messages, rooms } from '../../core/db/schema';

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const bots = pgTable(
  'bots',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The start step (spec §3 Bot.step); null while the bot has no step. */
    startStepId: text('start_step_id'),
    /** After an unmatched answer was asked again once: go to this step; null = hand over to a person. */
    fallbackStepId: text('fallback_step_id'),
    active: boolean('active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [index('bots_company_idx').on(t.companyId), uniqueIndex('bots_company_name_uq').on(t.companyId, sql`lower(${t.name})`)],
);

export const botSteps = pgTable(
  'bot_steps',
  {
    botId: integer('bot_id').notNull().references(() => bots.id, { onDelete: 'cascade' }),
    /** The client's id of the step (contract stepId). */
    id: text('id').notNull(),
    messages: jsonb('messages').$type<BotMessage[]>().notNull().default([]),
    nextStepId: text('next_step_id'),
    actions: jsonb('actions').$type<StepAction[]>().notNull().default([]),
    /** A free-text question: the reply is kept as this conversation variable. */
    inputVariable: text('input_variable'),
    /** Canvas position (null: computed by the canvas's layout). */
    layoutX: real('layout_x'),
    layoutY: real('layout_y'),
    /** Order in the outline. */
    position: integer('position').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.botId, t.id] })],
);

export const stepOptions = pgTable(
  'step_options',
  {
    botId: integer('bot_id').notNull(),
    id: text('id').notNull(),
    stepId: text('step_id').notNull(),
    text: text('text').notNull().default('Button'),
    nextStep: text('next_step'),
    position: integer('position').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.botId, t.id] }),
    foreignKey({ columns: [t.botId, t.stepId], foreignColumns: [botSteps.botId, botSteps.id], name: 'step_options_step_fk' }).onDelete('cascade'),
    index('step_options_step_idx').on(t.botId, t.stepId),
  ],
);

/**
 * The bot being built (issue #25, contract/botDrafts.ts): what the canvas saves, bounded but possibly
 * incomplete. No row: the draft is the live graph (bot_steps, step_options). Publish writes the draft
 * into the live tables and deletes this row.
 */
export const botDrafts = pgTable('bot_drafts', {
  botId: integer('bot_id')
    .primaryKey()
    .references(() => bots.id, { onDelete: 'cascade' }),
  companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
  content: jsonb('content').$type<BotContent>().notNull(),
  /** The version this draft was restored from (kept on the version it is published as). */
  restoredFrom: integer('restored_from'),
  updatedBy: text('updated_by').notNull(),
  updatedAt: at('updated_at').notNull().defaultNow(),
});

/**
 * Every content the bot has had live, numbered from 1: a publish, a save through the bot service's
 * step calls (they change the live graph directly), or the migration's snapshot of a bot that
 * predates drafts. The highest number is the live one.
 */
export const botVersions = pgTable(
  'bot_versions',
  {
    id: serial('id').primaryKey(),
    botId: integer('bot_id')
      .notNull()
      .references(() => bots.id, { onDelete: 'cascade' }),
    companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    kind: text('kind').$type<BotVersionKind>().notNull(),
    restoredFrom: integer('restored_from'),
    snapshot: jsonb('snapshot').$type<BotContent>().notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('bot_versions_bot_version_uq').on(t.botId, t.version)],
);

/** The channels a bot runs on: one bot per channel at most. */
export const botChannels = pgTable(
  'bot_channels',
  {
    botId: integer('bot_id').notNull().references(() => bots.id, { onDelete: 'cascade' }),
    channelId: integer('channel_id').notNull().references(() => channels.id, { onDelete: 'cascade' }),
    companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.botId, t.channelId] }), uniqueIndex('bot_channels_channel_uq').on(t.channelId)],
);

/**
 * The company's bot-service key (spec §3 Bot integration). `key_hash` (SHA-256 hex of the key, a
 * 256-bit random value) finds the company; `key_enc` is the key sealed with the channel secret box so
 * the console can be given it again (admins and managers only).
 */
export const botIntegrations = pgTable('bot_integrations', {
  id: serial('id').primaryKey(),
  companyId: integer('company_id')
    .notNull()
    .unique()
    .references(() => companies.id, { onDelete: 'cascade' }),
  keyHash: text('key_hash').notNull().unique(),
  keyEnc: text('key_enc').notNull(),
  keyPrefix: text('key_prefix').notNull(),
  createdAt: createdAt(),
  rotatedAt: at('rotated_at'),
});

/** Operations ("generated functions"): named HTTP calls a bot's run_operation action makes. */
export const botOperations = pgTable(
  'bot_operations',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    method: text('method').$type<OperationMethod>().notNull(),
    url: text('url').notNull(),
    headers: jsonb('headers').$type<Record<string, string>>().notNull().default({}),
    body: text('body'),
    responseMapping: jsonb('response_mapping').$type<{ variable: string; path: string }[]>().notNull().default([]),
    createdAt: createdAt(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('bot_operations_company_name_uq').on(t.companyId, sql`lower(${t.name})`)],
);

/** Customers who opted out (a keyword or a bot's opt_out action): the bot no longer writes to them. */
export const botOptOuts = pgTable(
  'bot_opt_outs',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    channelId: integer('channel_id').notNull().references(() => channels.id, { onDelete: 'cascade' }),
    roomId: integer('room_id').references(() => rooms.id, { onDelete: 'set null' }),
    /** The customer's id on the channel (rooms.external_id). */
    externalId: text('external_id').notNull(),
    name: text('name').notNull().default(''),
    reason: text('reason').$type<OptOutReason>().notNull(),
    botId: integer('bot_id').references(() => bots.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('bot_opt_outs_channel_external_uq').on(t.channelId, t.externalId), index('bot_opt_outs_company_idx').on(t.companyId)],
);

/**
 * RUNTIME STATE (owned by server/plugins/bots/runtime; it may add columns in its own migration):
 * one row per room a bot talks in.
 *  - current_step_id: the step whose question is pending (null: not started / finished).
 *  - fallback_count: unmatched answers at the current step (0 after a match; at 1 the question was
 *    repeated once, the next miss follows the bot's fallback).
 *  - handed_over_at: set when the conversation was handed to a person; the bot stays silent until cleared.
 *  - last_inbound_message_id: the last customer message answered; an inbound message with an id
 *    <= this is never answered again (replayed webhook, two processes: update ... where
 *    last_inbound_message_id < $id claims it).
 *  - variables: the conversation's variables (inputs, operation results).
 *  - pending_answer: the answer claimed for last_inbound_message_id and not finished yet (the state and
 *    variables it was decided from); null once its messages and actions are through. A process killed
 *    between the claim and the sends leaves it, and the pipeline's re-run of that message (another
 *    process, after the room's lease) decides again from it and sends what is missing (client ids
 *    `bot:{message}:{n}` keep what was sent from being sent twice).
 * A restart resumes from current_step_id. A new bot on the channel (bot_id differs) starts over.
 */
/** An answer claimed and not finished (bot_conversations.pending_answer). */
export interface PendingBotAnswer {
  messageId: number;
  /** The conversation state the answer was decided from (after a hand-over's reset). */
  from: { stepId: string | null; fallbackCount: number; handedOver: boolean };
  /** The conversation's variables before the answer. */
  variables: Record<string, string>;
}

export const botConversations = pgTable(
  'bot_conversations',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    roomId: integer('room_id')
      .notNull()
      .references(() => rooms.id, { onDelete: 'cascade' }),
    botId: integer('bot_id')
      .notNull()
      .references(() => bots.id, { onDelete: 'cascade' }),
    currentStepId: text('current_step_id'),
    fallbackCount: integer('fallback_count').notNull().default(0),
    handedOverAt: at('handed_over_at'),
    lastInboundMessageId: integer('last_inbound_message_id')
      .notNull()
      .default(0),
    /** Last message the bot sent (for the inbox: which step produced what). */
    lastBotMessageId: integer('last_bot_message_id').references(() => messages.id, { onDelete: 'set null' }),
    variables: jsonb('variables').$type<Record<string, string>>().notNull().default({}),
    pendingAnswer: jsonb('pending_answer').$type<PendingBotAnswer>(),
    createdAt: createdAt(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('bot_conversations_room_uq').on(t.roomId), index('bot_conversations_bot_idx').on(t.botId)],
);
