/**
 * Bots (issue #12; spec §3 Bot, Bot step, Step option, Bot integration; §7 the bot-service calls and
 * the main API's bot calls; §8 the bot strings). Shapes, limits and request schemas shared by the
 * server (server/plugins/bots, its runtime) and the console (src/plugins/bots).
 *
 * TWO SURFACES, both on our server:
 *  - the BOT SERVICE, under the integration's `endpoint` (default `{the origin the console was served from}/bot-service` when
 *    that origin is one of the server's own names, loopback or PUBLIC_URL's host, else `{PUBLIC_URL}/bot-service`; config
 *    BOT_SERVICE_BASE). Every call carries the company's key as the `access_key` QUERY PARAMETER
 *    (`?access_key=…`; `Authorization: Bot <key>` is accepted too). No bearer token, no Company
 *    header: the key alone names the company. Paths below are relative to the endpoint:
 *      GET    /api/bots/                          → BotListResponse
 *      POST   /api/bots/                          BotCreateBody → 201 Bot
 *      GET    /api/bots/{id}/                     → Bot (with its steps)
 *      PATCH  /api/bots/{id}/                     BotUpdateBody → Bot   (name, start step, fallback,
 *                                                  active, CHANNELS: the assignment of the bot to channels)
 *      DELETE /api/bots/{id}/                     → 204
 *      POST   /api/bots/{id}/steps/               StepCreateBody → 201 BotStep
 *      PATCH  /api/bots/{id}/steps/{stepId}/      StepUpdateBody → BotStep
 *      DELETE /api/bots/{id}/steps/{stepId}/      StepDeleteBody (optional) → 200 StepDeleteResponse
 *      GET    /branch/fetch/?bot={id}             → BranchGraph
 *      POST   /branch/update_or_create/           BranchGraphBody → BranchGraph (whole graph, one transaction)
 *      GET    /api/operations/                    → OperationListResponse
 *      POST   /api/operations/                    OperationBody → 201 Operation
 *      POST   /api/operations/example/            OperationExampleBody → 201 Operation (generated and saved)
 *      DELETE /api/operations/{id}/               → 204
 *      GET    /api/opt-out-csv/                   → OptOutCsv {headers, data}
 *    Errors of the bot service are JSON:API-like (BotServiceErrorBody): `{errors: [{status, code, title,
 *    detail, source?: {pointer}, step?}]}`; the console shows `botServiceErrorMessage(...)` =
 *    'Error {status} : {title} {detail}' of the first error (spec §5/§8).
 *  - the MAIN API (bearer token + Company header, area `flows`):
 *      GET  /api/bots/integration/               → BotIntegration {endpoint, access_key} (key created on
 *                                                  first call; `access_key` is null for roles without
 *                                                  flows manage access — agents)
 *      POST /api/bots/integration/rotate/         → BotIntegration (admin only; the old key stops at once)
 *      GET  /api/bot-integrations/                → {results: BotIntegrationInfo[]}
 *      GET  /api/bots/{id}/steps/                 → {results: BotStep[]}
 *      POST /api/bots/{id}/steps/                 BulkStepsBody {data: {steps, options}} → 201 BulkStepsResponse
 *                                                  ("Steps and options successfully created")
 *      PATCH /api/bots/{id}/                      BotUpdateBody (incl. `steps`: partial steps by id) → Bot
 *      DELETE /api/bots/{id}/                     BulkDeleteBody {steps, options} (ids to delete) → 200
 *    Main-API errors keep the main API's shape (contract/errors.ts).
 *
 * A graph is always consistent: every next_step_id / option next_step / start step / fallback names an
 * existing step of the bot, every cycle contains a customer-input step (one with options or `input`),
 * and a step still referenced cannot be deleted. A refusal names the step (error `step`, and in detail).
 */
import { z } from 'zod';

// ---------------------------------------------------------------------------------------------
// Limits and strings
// ---------------------------------------------------------------------------------------------

export const BOT_LIMITS = {
  name: 100,
  stepId: 64,
  messagesPerStep: 10,
  messageText: 4096,
  optionsPerStep: 20,
  optionText: 100,
  actionsPerStep: 10,
  stepsPerBot: 500,
  channelsPerBot: 50,
  tag: 100,
  pauseDaysMax: 365,
  variableName: 64,
  layoutAbs: 1_000_000,
  /** The smallest non-zero coordinate in absolute value (a `real` column holds down to about 1.2e-38). */
  layoutMinAbs: 1e-30,
} as const;

/** Canvas warnings (not refusals): what the channels accept (WhatsApp). */
export const BOT_WARNING_LIMITS = {
  whatsappReplyButtons: 3,
  whatsappListRows: 10,
  messengerQuickReplies: 13,
  buttonText: 20,
  bodyText: 1024,
} as const;

/** Spec §9: a new option's default label. */
export const DEFAULT_OPTION_TEXT = 'Button';
/** Spec §2: the start step's position when it has none. */
export const DEFAULT_START_LAYOUT = { x: 300, y: 300 } as const;

/** Spec §8, verbatim (the console's alerts). `{error}` is the server's message. */
export const BOT_MESSAGES = {
  botCreated: 'Bot has been created',
  botDeleted: 'Bot deleted successfully',
  stepAdded: 'Step has been added to your bot!',
  stepUpdated: 'Step has been updated',
  actionCreated: 'Action has been created',
  stepsCreated: 'Steps and options successfully created',
  stepDeleted: 'Success : Step has been deleted!',
  errorDeletingBot: 'Error while deleting bot({error})',
  errorFetchingBot: 'Error while fetching bot({error})',
  errorDeletingSteps: 'Error while deleting steps({error})',
  errorCreatingSteps: 'Error while creating steps({error})',
  errorUpdatingStep: 'Error while updating step({error})',
  errorCreatingAction: 'Error occured while creating action.',
  couldNotGenerateFunction: "Couldn't generate function",
  couldNotDeleteStep: 'Error : could not delete step {error}',
  /** Bot creation: 'Error {status} : {title} {detail}' of the first server error, else this. */
  whileCreatingBot: 'while creating bot',
} as const;

// ---------------------------------------------------------------------------------------------
// Field helpers
// ---------------------------------------------------------------------------------------------

const blank = 'This field may not be blank.';
const maxMessage = (max: number) => `Ensure this field has no more than ${max} characters.`;
const maxItems = (max: number) => `Ensure this field has no more than ${max} elements.`;

/** Step and option ids are chosen by the client (the canvas creates them): letters, digits, `_`, `-`, `.`, `:`. */
export const STEP_ID_PATTERN = /^[A-Za-z0-9_.:-]+$/;
export const stepId = () =>
  z
    .string()
    .trim()
    .min(1, blank)
    .max(BOT_LIMITS.stepId, maxMessage(BOT_LIMITS.stepId))
    .regex(STEP_ID_PATTERN, 'Use letters, digits, "_", "-", "." or ":" only.');

const dbId = () => z.number().int('A valid integer is required.').min(1).max(2_147_483_647);
/** Path and query ids (`/api/bots/{id}/`, `?bot={id}`). */
export const botIdParam = () => z.coerce.number().int('A valid integer is required.').min(1, 'Not found.').max(2_147_483_647, 'Not found.');

/** A variable name usable in templates as `{{name}}`. */
export const VARIABLE_PATTERN = /^[A-Za-z_][A-Za-z0-9_.]*$/;
const variableName = () =>
  z.string().trim().min(1, blank).max(BOT_LIMITS.variableName, maxMessage(BOT_LIMITS.variableName)).regex(VARIABLE_PATTERN, 'Use letters, digits and "_" (not starting with a digit).');

/** media_url of a bot message: https, or this server's `/media/…` (same rule as chats' isAllowedMediaUrl, without own http bases). */
const mediaUrl = () =>
  z
    .string()
    .trim()
    .max(2048, maxMessage(2048))
    .refine((v) => {
      if (v.startsWith('/')) return v.startsWith('/media/') && !v.includes('\\') && !v.includes('..');
      try {
        const url = new URL(v);
        return url.protocol === 'https:' && !url.username && !url.password;
      } catch {
        return false;
      }
    }, 'Enter an https URL or a file uploaded here.');

// ---------------------------------------------------------------------------------------------
// Spec §3 entities
// ---------------------------------------------------------------------------------------------

export const BOT_MESSAGE_TYPES = ['text', 'image', 'video', 'audio', 'document'] as const;
export type BotMessageType = (typeof BOT_MESSAGE_TYPES)[number];

/** One message of a step (spec §3: text, media_url, type). A media message may carry a caption in `text`. */
export const BotMessageSchema = z
  .object({
    text: z.string().max(BOT_LIMITS.messageText, maxMessage(BOT_LIMITS.messageText)).default(''),
    media_url: mediaUrl().nullable().default(null),
    type: z.enum(BOT_MESSAGE_TYPES).default('text'),
  })
  .refine((m) => (m.type === 'text' ? m.text.trim().length > 0 : !!m.media_url), { message: 'A text message needs text; a media message needs a media_url.', path: ['text'] });
export type BotMessage = z.output<typeof BotMessageSchema>;

/**
 * A canvas coordinate: finite, within ±layoutAbs, and 0 or at least layoutMinAbs in size. The steps keep it in a
 * PostgreSQL `real` (float4), whose smallest normal value is about 1.2e-38: `1e-50` passed a plain finite check
 * and failed the save with a 500 (issue #25). Floating-point noise of a layout (5.7e-14) is far above the bound.
 */
const coordinate = () =>
  z
    .number('A valid number is required.')
    .finite('A valid number is required.')
    .min(-BOT_LIMITS.layoutAbs, `Ensure this value is greater than or equal to -${BOT_LIMITS.layoutAbs}.`)
    .max(BOT_LIMITS.layoutAbs, `Ensure this value is less than or equal to ${BOT_LIMITS.layoutAbs}.`)
    .refine((v) => v === 0 || Math.abs(v) >= BOT_LIMITS.layoutMinAbs, `Ensure this value is 0 or at least ${BOT_LIMITS.layoutMinAbs} in absolute value.`);

export const LayoutSchema = z.object({ x: coordinate(), y: coordinate() });
export type Layout = z.output<typeof LayoutSchema>;

/**
 * A new option's id, for a client that leaves it to the server (the spec lists the option's fields, not who
 * picks its id): `opt_` and 16 random hex digits, a valid step id unlikely ever to meet a client's own.
 * getRandomValues, not randomUUID: it exists outside secure contexts too (a console on a LAN's plain http).
 */
export function newOptionId(): string {
  const bytes = new Uint8Array(8);
  globalThis.crypto.getRandomValues(bytes);
  return `opt_${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * Step option (spec §3: id, text default "Button", next_step, step). `step` is the id of the step the
 * option belongs to; in a step's `options` it may be omitted (it is that step). Without an `id` the
 * server gives it one (newOptionId): a body naming only text and next_step was refused (issue #25).
 */
export const StepOptionSchema = z.object({
  id: stepId().default(newOptionId),
  text: z.string().trim().min(1, blank).max(BOT_LIMITS.optionText, maxMessage(BOT_LIMITS.optionText)).default(DEFAULT_OPTION_TEXT),
  next_step: stepId().nullable().default(null),
  step: stepId().optional(),
});
export type StepOptionInput = z.input<typeof StepOptionSchema>;
export interface StepOption {
  id: string;
  text: string;
  next_step: string | null;
  step: string;
}

// --- step actions (run in order when the step is reached, after its messages are sent; ai_answer before them) ---

export const STEP_ACTION_TYPES = ['add_tag', 'remove_tag', 'assign_agent', 'pause_bot', 'hand_over', 'run_operation', 'opt_out', 'start_flow', 'ai_answer'] as const;
export type StepActionType = (typeof STEP_ACTION_TYPES)[number];

const tagName = () => z.string().trim().min(1, blank).max(BOT_LIMITS.tag, maxMessage(BOT_LIMITS.tag));

export const StepActionSchema = z.discriminatedUnion('type', [
  /** Adds a tag to the room (created in the company when new). */
  z.object({ type: z.literal('add_tag'), tag: tagName() }),
  z.object({ type: z.literal('remove_tag'), tag: tagName() }),
  /** Assigns the room to an agent: the agent tag of spec §5 (the member's e-mail as a tag). */
  z.object({ type: z.literal('assign_agent'), email: z.string().trim().toLowerCase().email('Enter a valid email address.').max(254) }),
  /** Pauses the bot in this room for N days (room.paused_until = now + N days). */
  z.object({ type: z.literal('pause_bot'), days: z.number().int('A valid integer is required.').min(1).max(BOT_LIMITS.pauseDaysMax) }),
  /** Hands the conversation over to a person: the bot stops answering in this room until resumed. */
  z.object({ type: z.literal('hand_over') }),
  /**
   * Runs an operation (GET /api/operations/): `variables` are extra template values (themselves
   * templates over the conversation's variables); the operation's response_mapping sets variables.
   */
  z.object({
    type: z.literal('run_operation'),
    operation_id: dbId(),
    variables: z.record(z.string().max(BOT_LIMITS.variableName).regex(VARIABLE_PATTERN, 'Invalid variable name.'), z.string().max(1000)).default({}),
  }),
  /** The customer opts out: listed by GET /api/opt-out-csv/, the bot no longer writes to them. */
  z.object({ type: z.literal('opt_out') }),
  /** Starts a flow (once flows exist; until then the runtime logs and skips it). */
  z.object({ type: z.literal('start_flow'), flow_id: z.union([dbId(), z.string().trim().min(1).max(128)]) }),
  /**
   * Hands the customer's message that led to this step (a text) to the company's AI assistant (issue #24):
   * it answers from the knowledge (marked AI, with its sources, counted as an `assistant_answers`) BEFORE
   * the step's own messages, and the bot goes on; when it cannot answer (below the threshold, the model
   * failing, the plan's answers used up, the assistant turned off) it hands over and the bot stops there.
   * Works on any channel of the bot, listed in the assistant's settings or not: the step is the opt-in.
   */
  z.object({ type: z.literal('ai_answer') }),
]);
export type StepAction = z.output<typeof StepActionSchema>;

/**
 * A step waiting for free text (not a button): the reply is stored as the conversation variable
 * `variable`, then the bot goes to next_step_id. A step with options or `input` is a CUSTOMER INPUT step.
 */
export const StepInputSchema = z.object({ variable: variableName() });

const messagesField = () => z.array(BotMessageSchema).max(BOT_LIMITS.messagesPerStep, maxItems(BOT_LIMITS.messagesPerStep));
const optionsField = () => z.array(StepOptionSchema).max(BOT_LIMITS.optionsPerStep, maxItems(BOT_LIMITS.optionsPerStep));
const actionsField = () => z.array(StepActionSchema).max(BOT_LIMITS.actionsPerStep, maxItems(BOT_LIMITS.actionsPerStep));

/** Bot step (spec §3: id, messages, options, next_step_id, layout, actions) as read. */
export interface BotStep {
  id: string;
  messages: BotMessage[];
  options: StepOption[];
  next_step_id: string | null;
  layout: Layout | null;
  actions: StepAction[];
  input: { variable: string } | null;
  /** Order of the step in the bot's outline (creation order unless saved otherwise). */
  position: number;
}

/** A whole step as sent (branch graph, bulk create). */
export const StepSchema = z.object({
  id: stepId(),
  messages: messagesField().default([]),
  options: optionsField().default([]),
  next_step_id: stepId().nullable().default(null),
  layout: LayoutSchema.nullable().default(null),
  actions: actionsField().default([]),
  input: StepInputSchema.nullable().default(null),
});
export type StepInput = z.input<typeof StepSchema>;

/** Bot (spec §3: id, steps, step = start step id) with what the builder shows. */
export interface Bot {
  id: number;
  name: string;
  /** The start step's id (null while the bot has no step). */
  step: string | null;
  steps: BotStep[];
  /** Where an unmatched answer goes after the question was repeated once: a step id, or null = hand over to a person. */
  fallback_step_id: string | null;
  /** Off: the bot answers nobody (kept assigned). */
  active: boolean;
  /** Ids of the channels the bot runs on (a channel runs at most one bot). */
  channels: number[];
  conversations_handled: number;
  created_at: string;
  updated_at: string;
}

/** A bot in the list (GET /api/bots/): no steps, their count. */
export type BotSummary = Omit<Bot, 'steps'> & { steps_count: number };
export interface BotListResponse {
  count: number;
  results: BotSummary[];
}

/** Spec §3 Bot integration. */
export interface BotIntegration {
  /** The bot service's base URL (ours: the caller's origin + BOT_SERVICE_BASE, e.g. `http://localhost:8080/bot-service`). */
  endpoint: string;
  /** The company's key; null for roles that may not manage bots. */
  access_key: string | null;
}
/** GET /api/bot-integrations/ rows (never the key itself). */
export interface BotIntegrationInfo {
  id: number;
  endpoint: string;
  /** First characters of the key, to recognise it. */
  key_prefix: string;
  created_at: string;
  rotated_at: string | null;
}

// ---------------------------------------------------------------------------------------------
// Request bodies
// ---------------------------------------------------------------------------------------------

const channelIds = () => z.array(dbId()).max(BOT_LIMITS.channelsPerBot, maxItems(BOT_LIMITS.channelsPerBot));
const botName = () => z.string().trim().min(1, blank).max(BOT_LIMITS.name, maxMessage(BOT_LIMITS.name));

/** POST /api/bots/ (bot service). */
export const BotCreateBody = z.object({
  name: botName(),
  channels: channelIds().default([]),
});
export type BotCreateBody = z.input<typeof BotCreateBody>;

/** A partial step by id (main API PATCH /api/bots/{id}/ `steps`). */
export const StepPatchWithId = z.object({
  id: stepId(),
  messages: messagesField().optional(),
  options: optionsField().optional(),
  next_step_id: stepId().nullable().optional(),
  layout: LayoutSchema.nullable().optional(),
  actions: actionsField().optional(),
  input: StepInputSchema.nullable().optional(),
});

/**
 * PATCH /api/bots/{id}/ (bot service and main API). `channels` REPLACES the bot's channel assignment
 * (a channel assigned to another bot of the company moves to this one). `steps` (main API, spec §7)
 * updates existing steps by id, all in one transaction.
 */
export const BotUpdateBody = z.object({
  name: botName().optional(),
  step: stepId().nullable().optional(),
  fallback_step_id: stepId().nullable().optional(),
  active: z.boolean().optional(),
  channels: channelIds().optional(),
  steps: z.array(StepPatchWithId).max(BOT_LIMITS.stepsPerBot, maxItems(BOT_LIMITS.stepsPerBot)).optional(),
});
export type BotUpdateBody = z.input<typeof BotUpdateBody>;

/** POST /api/bots/{id}/steps/ (bot service; spec §7: id, messages, options, next_step_id). The first step becomes the start step. */
export const StepCreateBody = StepSchema;
export type StepCreateBody = z.input<typeof StepCreateBody>;

/** PATCH /api/bots/{id}/steps/{stepId}/ (spec §7: messages, layout, options, next_step_id, actions). `options` replaces the step's options. */
export const StepUpdateBody = StepPatchWithId.omit({ id: true });
export type StepUpdateBody = z.input<typeof StepUpdateBody>;

/**
 * DELETE /api/bots/{id}/steps/{stepId}/ (spec §7: body steps): `steps` lists further step ids deleted
 * in the same transaction (e.g. the canvas's multi-selection). Refused, naming it, when a remaining
 * step, option, the start step or the fallback still points at a deleted step.
 */
export const StepDeleteBody = z.object({
  steps: z.array(stepId()).max(BOT_LIMITS.stepsPerBot, maxItems(BOT_LIMITS.stepsPerBot)).default([]),
});
export type StepDeleteBody = z.input<typeof StepDeleteBody>;
export interface StepDeleteResponse {
  detail: string;
  /** The ids deleted. */
  steps: string[];
}

/**
 * Main API POST /api/bots/{id}/steps/ (spec §7: body data with steps, options): creates the steps and
 * the options (options name their `step`; options inside a step are accepted too). All or nothing.
 */
export const BulkStepsBody = z.object({
  data: z.object({
    steps: z.array(StepSchema).max(BOT_LIMITS.stepsPerBot, maxItems(BOT_LIMITS.stepsPerBot)).default([]),
    options: z.array(StepOptionSchema.extend({ step: stepId() })).max(BOT_LIMITS.stepsPerBot * 4).default([]),
  }),
});
export type BulkStepsBody = z.input<typeof BulkStepsBody>;
export interface BulkStepsResponse {
  detail: typeof BOT_MESSAGES.stepsCreated;
  steps: BotStep[];
}

/** Main API DELETE /api/bots/{id}/ (spec §7: steps, options): deletes those steps and options of the bot (at least one). */
export const BulkDeleteBody = z.object({
  steps: z.array(stepId()).max(BOT_LIMITS.stepsPerBot).default([]),
  options: z.array(stepId()).max(BOT_LIMITS.stepsPerBot * 4).default([]),
});
/** BulkDeleteBody with neither steps nor options (checked after the bot is found: another company's bot answers 404 first). */
export const NOTHING_TO_DELETE = 'Name at least one step or option to delete.';
export type BulkDeleteBody = z.input<typeof BulkDeleteBody>;

// --- branch graph ---

/** GET /branch/fetch/?bot={id} */
export const BranchFetchQuery = z.object({ bot: botIdParam() });

/**
 * POST /branch/update_or_create/: the bot's WHOLE graph; steps absent from `steps` are deleted, the
 * rest created or replaced, in one transaction (refused as a whole when inconsistent). `step` is the
 * start step (default: the first step). `layout` of each step is its position on the canvas.
 */
export const BranchGraphBody = z.object({
  bot: dbId(),
  step: stepId().nullable().optional(),
  fallback_step_id: stepId().nullable().optional(),
  steps: z.array(StepSchema).max(BOT_LIMITS.stepsPerBot, maxItems(BOT_LIMITS.stepsPerBot)),
});
export type BranchGraphBody = z.input<typeof BranchGraphBody>;
export interface BranchGraph {
  bot: number;
  name: string;
  step: string | null;
  fallback_step_id: string | null;
  steps: BotStep[];
  updated_at: string;
}

// ---------------------------------------------------------------------------------------------
// Operations ("generated functions")
// ---------------------------------------------------------------------------------------------

export const OPERATION_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type OperationMethod = (typeof OPERATION_METHODS)[number];

export const OPERATION_LIMITS = { name: 100, url: 2048, headers: 30, headerValue: 4096, body: 20_000, mappings: 30, path: 200 } as const;

/**
 * An operation: a named HTTP call a bot action runs. `url`, header values and `body` are templates:
 * `{{variable}}` is replaced by the conversation's variable (`customer.name`, `customer.external_id`,
 * `room.id`, `channel.platform`, stored inputs, earlier operation results); in `body` the values are
 * JSON-escaped when the body is JSON. `response_mapping` copies response fields (dotted path, e.g.
 * `data.order.status`, `items.0.id`) into variables.
 */
export const ResponseMappingSchema = z.object({
  variable: variableName(),
  path: z.string().trim().min(1, blank).max(OPERATION_LIMITS.path).regex(/^[A-Za-z0-9_$-]+(\.[A-Za-z0-9_$-]+)*$/, 'Enter a dotted path, e.g. data.status.'),
});

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const operationUrl = () =>
  z
    .string()
    .trim()
    .min(1, blank)
    .max(OPERATION_LIMITS.url, maxMessage(OPERATION_LIMITS.url))
    .refine((v) => /^https?:\/\//i.test(v), 'Enter an http or https URL.');

export const OperationBody = z.object({
  name: z.string().trim().min(1, blank).max(OPERATION_LIMITS.name, maxMessage(OPERATION_LIMITS.name)),
  method: z.enum(OPERATION_METHODS).default('GET'),
  url: operationUrl(),
  headers: z
    .record(z.string(), z.string().max(OPERATION_LIMITS.headerValue))
    .refine((h) => Object.keys(h).every((name) => name.length <= 100 && HEADER_NAME.test(name)), 'Invalid header name.')
    .refine((h) => Object.keys(h).length <= OPERATION_LIMITS.headers, maxItems(OPERATION_LIMITS.headers))
    .default({}),
  body: z.string().max(OPERATION_LIMITS.body, maxMessage(OPERATION_LIMITS.body)).nullable().default(null),
  response_mapping: z.array(ResponseMappingSchema).max(OPERATION_LIMITS.mappings, maxItems(OPERATION_LIMITS.mappings)).default([]),
});
export type OperationBody = z.input<typeof OperationBody>;

export interface Operation {
  id: number;
  name: string;
  method: OperationMethod;
  url: string;
  headers: Record<string, string>;
  body: string | null;
  response_mapping: { variable: string; path: string }[];
  /** The `{{variables}}` its templates use. */
  variables: string[];
  created_at: string;
  updated_at: string;
}
export interface OperationListResponse {
  count: number;
  results: Operation[];
}

/**
 * POST /api/operations/example/: generates (and saves) an operation from a pasted example: either a
 * curl command, or a sample request (method, url, headers, body) with optionally a sample response
 * (JSON text or value) whose leaf fields become `response_mapping`. Refused with the first field error
 * (e.g. `curl`: "Enter a curl command with a URL.") or "Couldn't generate function".
 */
export const OperationExampleBody = z
  .object({
    name: z.string().trim().min(1, blank).max(OPERATION_LIMITS.name, maxMessage(OPERATION_LIMITS.name)).optional(),
    curl: z.string().max(OPERATION_LIMITS.body + 4096, maxMessage(OPERATION_LIMITS.body + 4096)).optional(),
    request: z
      .object({
        method: z.enum(OPERATION_METHODS).default('GET'),
        url: operationUrl(),
        headers: z.record(z.string().max(100), z.string().max(OPERATION_LIMITS.headerValue)).default({}),
        body: z.union([z.string().max(OPERATION_LIMITS.body), z.record(z.string(), z.unknown()), z.array(z.unknown())]).nullable().default(null),
      })
      .optional(),
    response: z.union([z.string().max(100_000), z.record(z.string(), z.unknown()), z.array(z.unknown())]).nullable().optional(),
  })
  .refine((b) => (b.curl !== undefined && b.curl.trim() !== '') || b.request !== undefined, { message: 'Paste a curl command or a sample request.', path: ['curl'] });
export type OperationExampleBody = z.input<typeof OperationExampleBody>;

/** GET /api/opt-out-csv/: the customers who opted out, as CSV rows. */
export const OPT_OUT_CSV_HEADERS = ['name', 'external_id', 'channel', 'platform', 'reason', 'bot', 'opted_out_at'] as const;
export interface OptOutCsv {
  headers: string[];
  data: string[][];
}
export const OPT_OUT_REASONS = ['keyword', 'action'] as const;
export type OptOutReason = (typeof OPT_OUT_REASONS)[number];

/** Query of every bot-service call: the key (also accepted as `Authorization: Bot <key>`). */
export const ACCESS_KEY_PARAM = 'access_key';

// ---------------------------------------------------------------------------------------------
// Bot-service errors (what the console reads)
// ---------------------------------------------------------------------------------------------

export interface BotServiceError {
  /** The HTTP status as text ("400"), as JSON:API has it. */
  status: string;
  code: string;
  title: string;
  detail: string;
  /** The field concerned: `/steps/0/next_step_id`. */
  source?: { pointer: string };
  /** The step a graph refusal concerns. */
  step?: string;
}
export interface BotServiceErrorBody {
  errors: BotServiceError[];
}

/** The first error of a bot-service error body, if it is one. */
export function firstBotServiceError(body: unknown): BotServiceError | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const errors = (body as { errors?: unknown }).errors;
  if (!Array.isArray(errors) || errors.length === 0) return undefined;
  const first = errors[0] as Partial<BotServiceError> | null;
  if (!first || typeof first !== 'object') return undefined;
  return {
    status: String(first.status ?? ''),
    code: String(first.code ?? ''),
    title: String(first.title ?? ''),
    detail: String(first.detail ?? ''),
    ...(first.source && typeof first.source.pointer === 'string' ? { source: { pointer: first.source.pointer } } : {}),
    ...(typeof first.step === 'string' ? { step: first.step } : {}),
  };
}

/**
 * Spec §5: 'Error {status} : {title} {detail}' from the first server error, or the fallback
 * (e.g. 'while creating bot' → 'Error while creating bot') when the body carries none.
 */
export function botServiceErrorMessage(status: number, body: unknown, fallback: string = BOT_MESSAGES.whileCreatingBot): string {
  const first = firstBotServiceError(body);
  if (!first) return `Error ${fallback}`;
  return `Error ${first.status || status} : ${first.title} ${first.detail}`.trim();
}

/** The first field error's message (operations/example: else "Couldn't generate function"). */
export function firstBotServiceFieldError(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const errors = (body as { errors?: unknown }).errors;
  if (!Array.isArray(errors)) return undefined;
  for (const e of errors) {
    if (e && typeof e === 'object' && (e as BotServiceError).source && typeof (e as BotServiceError).detail === 'string') return (e as BotServiceError).detail;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Graph helpers (server validation; the canvas's warnings use the same walk)
// ---------------------------------------------------------------------------------------------

export interface GraphStep {
  id: string;
  next_step_id: string | null;
  options: { id: string; next_step: string | null }[];
  input?: { variable: string } | null;
}

/** A step the bot stops at to wait for the customer (buttons or free text). */
export function isCustomerInputStep(step: GraphStep): boolean {
  return step.options.length > 0 || !!step.input;
}

export type GraphProblem =
  | { code: 'duplicate_step'; step: string; message: string }
  | { code: 'duplicate_option'; step: string; option: string; message: string }
  | { code: 'missing_next_step'; step: string; target: string; message: string }
  | { code: 'missing_option_target'; step: string; option: string; target: string; message: string }
  | { code: 'missing_start_step'; step: string; message: string }
  | { code: 'missing_fallback_step'; step: string; message: string }
  | { code: 'cycle_without_input'; step: string; cycle: string[]; message: string };

/**
 * The first inconsistency of a bot graph (or null). Checks: unique step and option ids, every
 * next_step_id / option target / start / fallback exists, and every cycle of automatic transitions
 * (next_step_id of steps that do not wait for the customer) is broken by a customer-input step.
 * Only steps WITHOUT customer input follow next_step_id on their own, so a cycle without input is a
 * cycle in that sub-graph.
 */
export function findGraphProblem(steps: readonly GraphStep[], start?: string | null, fallback?: string | null): GraphProblem | null {
  const ids = new Set<string>();
  const optionIds = new Set<string>();
  for (const step of steps) {
    if (ids.has(step.id)) return { code: 'duplicate_step', step: step.id, message: `Step "${step.id}" appears twice.` };
    ids.add(step.id);
  }
  for (const step of steps) {
    for (const option of step.options) {
      if (optionIds.has(option.id)) return { code: 'duplicate_option', step: step.id, option: option.id, message: `Step "${step.id}": option "${option.id}" appears twice in the bot.` };
      optionIds.add(option.id);
    }
  }
  for (const step of steps) {
    if (step.next_step_id !== null && !ids.has(step.next_step_id)) {
      return { code: 'missing_next_step', step: step.id, target: step.next_step_id, message: `Step "${step.id}": its next step "${step.next_step_id}" does not exist.` };
    }
    for (const option of step.options) {
      if (option.next_step !== null && !ids.has(option.next_step)) {
        return {
          code: 'missing_option_target',
          step: step.id,
          option: option.id,
          target: option.next_step,
          message: `Step "${step.id}": option "${option.id}" leads to step "${option.next_step}", which does not exist.`,
        };
      }
    }
  }
  if (start && !ids.has(start)) return { code: 'missing_start_step', step: start, message: `The start step "${start}" does not exist.` };
  if (fallback && !ids.has(fallback)) return { code: 'missing_fallback_step', step: fallback, message: `The fallback step "${fallback}" does not exist.` };

  // Automatic edges: a step without customer input goes on to next_step_id by itself.
  const byId = new Map(steps.map((s) => [s.id, s]));
  const state = new Map<string, 1 | 2>(); // 1 = on the current path, 2 = done
  for (const root of steps) {
    if (state.has(root.id)) continue;
    const path: string[] = [];
    let current: GraphStep | undefined = root;
    while (current && !state.has(current.id)) {
      state.set(current.id, 1);
      path.push(current.id);
      current = !isCustomerInputStep(current) && current.next_step_id !== null ? byId.get(current.next_step_id) : undefined;
    }
    if (current && state.get(current.id) === 1) {
      const cycle = path.slice(path.indexOf(current.id));
      return {
        code: 'cycle_without_input',
        step: current.id,
        cycle,
        message: `Step "${current.id}": the steps ${cycle.map((s) => `"${s}"`).join(' → ')} loop without waiting for the customer; add an option or an input to one of them.`,
      };
    }
    for (const id of path) state.set(id, 2);
  }
  return null;
}

/** The steps of `steps` reachable from the start step (the canvas's "unreachable step" warning). */
export function reachableSteps(steps: readonly GraphStep[], start: string | null, fallback?: string | null): Set<string> {
  const byId = new Map(steps.map((s) => [s.id, s]));
  const seen = new Set<string>();
  const queue = [start, fallback].filter((s): s is string => !!s && byId.has(s));
  while (queue.length > 0) {
    const id = queue.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    const step = byId.get(id)!;
    for (const next of [step.next_step_id, ...step.options.map((o) => o.next_step)]) if (next && byId.has(next) && !seen.has(next)) queue.push(next);
  }
  return seen;
}

/** `{{name}}` variables used in a template text. */
export function templateVariables(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(/\{\{\s*([A-Za-z_][A-Za-z0-9_.]*)\s*\}\}/g)) found.add(m[1]);
  return [...found];
}
