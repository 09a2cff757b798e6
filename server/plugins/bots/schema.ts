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
 * A restart resumes from current_step_id. A new bot on the channel (bot_id differs) starts over.
 */
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
    createdAt: createdAt(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('bot_conversations_room_uq').on(t.roomId), index('bot_conversations_bot_idx').on(t.botId)],
);
