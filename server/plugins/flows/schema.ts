/**
 * Flows (issue #13): the tables of the flows plugin (server/plugins/flows). Shapes as the API shows
 * them: contract/flows.ts. A flow belongs to a company; its name is unique within the company
 * (case-insensitively: the console's edit route is addressed by it). Steps are ordered (`position`)
 * and keyed by the client's step_id within the flow; references (next_step_id, option targets) are
 * checked by the service inside the transaction that writes them. Every save keeps a version (a
 * JSON snapshot of the whole flow, who and when).
 */
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { FlowFields, FlowOption, FlowStepType } from '../../../contract/flows';
import { channels, companies, rooms } from '../../core/db/schema';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const flows = pgTable(
  'flows',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    flowName: text('flow_name').notNull(),
    description: text('description').notNull(),
    companyName: text('company_name').notNull(),
    companyDomain: text('company_domain').notNull(),
    extraContext: jsonb('extra_context').$type<string[]>().notNull().default([]),
    introMsg: text('intro_msg').notNull().default(''),
    introMediaUrl: text('intro_media_url'),
    findOutMoreMsg: text('find_out_more_msg').notNull().default(''),
    findOutMoreMediaUrl: text('find_out_more_media_url'),
    callToAction: text('call_to_action'),
    /** Keywords that start the flow on a channel (runtime), lower case. */
    keywords: jsonb('keywords').$type<string[]>().notNull().default([]),
    /** The current version number. */
    version: integer('version').notNull().default(1),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [index('flows_company_idx').on(t.companyId), uniqueIndex('flows_company_name_uq').on(t.companyId, sql`lower(${t.flowName})`)],
);

export const flowSteps = pgTable(
  'flow_steps',
  {
    flowId: integer('flow_id').notNull().references(() => flows.id, { onDelete: 'cascade' }),
    stepId: text('step_id').notNull(),
    /** Order of the step in the flow (0-based). */
    position: integer('position').notNull(),
    nextStepId: text('next_step_id'),
    stepMsg: text('step_msg').notNull(),
    type: text('type').$type<FlowStepType>().notNull().default('text'),
    /** The step's options, in order, each with its target step (or null: the next in order). */
    options: jsonb('options').$type<FlowOption[]>().notNull().default([]),
  },
  (t) => [primaryKey({ columns: [t.flowId, t.stepId] })],
);

export const flowVersions = pgTable(
  'flow_versions',
  {
    id: serial('id').primaryKey(),
    flowId: integer('flow_id').notNull().references(() => flows.id, { onDelete: 'cascade' }),
    companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    kind: text('kind').$type<'create' | 'save' | 'restore'>().notNull(),
    restoredFrom: integer('restored_from'),
    snapshot: jsonb('snapshot').$type<FlowFields>().notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('flow_versions_flow_version_uq').on(t.flowId, t.version)],
);

/**
 * A flow running in a room (runtime): one row per room, the state a restart resumes from.
 * `stepId` is the step whose answer is awaited (null once the flow has ended); `status` active,
 * done or handed_over. `lastMessageId` is the last customer message answered (a replay is skipped).
 * `pendingReplies`: what the answer to `lastMessageId` still has to do (its messages, the hand-over),
 * written with the state and cleared once done: a process killed in between leaves it, and the re-run
 * of that message (another process, after the room's lease) does it (client ids `flow:{message}:{n}`
 * keep what was sent from being sent twice).
 */
export interface PendingFlowReplies {
  messageId: number;
  messages: { type: string; text: string | null; media_url: string | null; buttons: { id: string; title: string }[] | null }[];
  /** The answer hands the room over (pause and open it for a person) after its messages. */
  handOver: boolean;
}

export const flowRuns = pgTable(
  'flow_runs',
  {
    roomId: integer('room_id')
      .primaryKey()
      .references(() => rooms.id, { onDelete: 'cascade' }),
    companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    flowId: integer('flow_id').notNull().references(() => flows.id, { onDelete: 'cascade' }),
    stepId: text('step_id'),
    status: text('status').$type<'active' | 'done' | 'handed_over'>().notNull(),
    lastMessageId: integer('last_message_id'),
    pendingReplies: jsonb('pending_replies').$type<PendingFlowReplies>(),
    startedAt: at('started_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [index('flow_runs_flow_idx').on(t.flowId)],
);

/** Per step, customers who reached it (a run entered the step) — the editor's counts. */
export const flowStepVisits = pgTable(
  'flow_step_visits',
  {
    flowId: integer('flow_id').notNull().references(() => flows.id, { onDelete: 'cascade' }),
    stepId: text('step_id').notNull(),
    roomId: integer('room_id').notNull().references(() => rooms.id, { onDelete: 'cascade' }),
    at: at('at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.flowId, t.stepId, t.roomId] })],
);

/**
 * A channel's default flow (issue #13 Runtime): started on a NEW conversation's first customer
 * message when no keyword matched (server/plugins/flows/defaults.ts). One flow per channel at most;
 * deleting the flow or the channel clears it.
 */
export const flowChannelDefaults = pgTable(
  'flow_channel_defaults',
  {
    channelId: integer('channel_id')
      .primaryKey()
      .references(() => channels.id, { onDelete: 'cascade' }),
    companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    flowId: integer('flow_id').notNull().references(() => flows.id, { onDelete: 'cascade' }),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [index('flow_channel_defaults_flow_idx').on(t.flowId), index('flow_channel_defaults_company_idx').on(t.companyId)],
);
