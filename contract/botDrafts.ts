/**
 * A bot's DRAFT and its PUBLISHED versions (issue #25, "Bot canvas saves half-finished edits").
 *
 * The canvas saves every edit to the bot's draft, which accepts what is still being built (an image
 * message not uploaded yet, "Run an operation" before one is picked, an empty tag): every value is
 * still bounded (lengths, ids, layouts), but nothing is required. `draftProblems` lists what a draft
 * still lacks, per step, as codes the console words in the builder's language and the server words in
 * plain English; Publish refuses a draft with problems, else makes it the bot's live graph (what the
 * runtime runs) and keeps it as a numbered version. A version restored comes back as the draft.
 *
 * Main API, bearer + Company header, area `flows` (GET: view, the rest: manage):
 *   GET  /api/bots/{id}/draft/                          → BotDraft
 *   PUT  /api/bots/{id}/draft/          BotDraftBody     → BotDraft (any bounded content; problems listed, never refused for them)
 *   POST /api/bots/{id}/publish/                        → BotDraft (400 {detail, code: 'not_ready', problems} when it has problems)
 *   GET  /api/bots/{id}/versions/       ?page&page_size  → {count, results: BotVersion[]} (newest first)
 *   POST /api/bots/{id}/versions/{versionId}/restore/   → BotDraft (the version's content as the draft)
 */
import { z } from 'zod';
import {
  BOT_LIMITS,
  BOT_MESSAGE_TYPES,
  findGraphProblem,
  LayoutSchema,
  STEP_ACTION_TYPES,
  StepSchema,
  stepId,
  type BotMessageType,
  type BotStep,
} from './bots';

const maxMessage = (max: number) => `Ensure this field has no more than ${max} characters.`;
const maxItems = (max: number) => `Ensure this field has no more than ${max} elements.`;
const text = (max: number) => z.string().max(max, maxMessage(max));

// ---------------------------------------------------------------------------------------------
// What a draft accepts: the step's shape with every value bounded and nothing required
// ---------------------------------------------------------------------------------------------

/** A message still being written: a media type without its upload yet, or empty text. */
export const DraftMessageSchema = z.object({
  text: text(BOT_LIMITS.messageText).default(''),
  // Checked as a URL only when publishing: an address being typed is not yet an error.
  media_url: text(2048).nullable().default(null),
  type: z.enum(BOT_MESSAGE_TYPES).default('text'),
});

const anyId = () => z.number().int('A valid integer is required.').min(0).max(2_147_483_647);

/** An action whose values may be missing (0 / '' = not chosen yet). */
export const DraftActionSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('add_tag'), tag: text(BOT_LIMITS.tag).default('') }),
  z.object({ type: z.literal('remove_tag'), tag: text(BOT_LIMITS.tag).default('') }),
  z.object({ type: z.literal('assign_agent'), email: text(254).default('') }),
  z.object({ type: z.literal('pause_bot'), days: z.number().int('A valid integer is required.').min(0).max(BOT_LIMITS.pauseDaysMax).default(1) }),
  z.object({ type: z.literal('hand_over') }),
  z.object({
    type: z.literal('run_operation'),
    operation_id: anyId().default(0),
    variables: z.record(text(BOT_LIMITS.variableName), text(1000)).default({}),
  }),
  z.object({ type: z.literal('opt_out') }),
  z.object({ type: z.literal('start_flow'), flow_id: z.union([anyId(), text(128)]).default('') }),
  z.object({ type: z.literal('ai_answer') }),
]);

export const DraftStepSchema = z.object({
  id: stepId(),
  messages: z.array(DraftMessageSchema).max(BOT_LIMITS.messagesPerStep, maxItems(BOT_LIMITS.messagesPerStep)).default([]),
  options: z
    .array(z.object({ id: stepId(), text: text(BOT_LIMITS.optionText).default(''), next_step: stepId().nullable().default(null), step: stepId().optional() }))
    .max(BOT_LIMITS.optionsPerStep, maxItems(BOT_LIMITS.optionsPerStep))
    .default([]),
  next_step_id: stepId().nullable().default(null),
  layout: LayoutSchema.nullable().default(null),
  actions: z.array(DraftActionSchema).max(BOT_LIMITS.actionsPerStep, maxItems(BOT_LIMITS.actionsPerStep)).default([]),
  input: z.object({ variable: text(BOT_LIMITS.variableName) }).nullable().default(null),
});

/** PUT /api/bots/{id}/draft/: the whole graph being built (step ids unique: the canvas makes them). */
export const BotDraftBody = z
  .object({
    step: stepId().nullable().default(null),
    fallback_step_id: stepId().nullable().default(null),
    steps: z.array(DraftStepSchema).max(BOT_LIMITS.stepsPerBot, maxItems(BOT_LIMITS.stepsPerBot)),
  })
  .superRefine((body, ctx) => {
    const seen = new Set<string>();
    body.steps.forEach((step, i) => {
      if (seen.has(step.id)) ctx.addIssue({ code: 'custom', path: ['steps', i, 'id'], message: `Step "${step.id}" appears twice.` });
      seen.add(step.id);
    });
  });
export type BotDraftBody = z.input<typeof BotDraftBody>;

/** A draft's or a version's content: the bot's graph (steps as the API shows them). */
export interface BotContent {
  step: string | null;
  fallback_step_id: string | null;
  steps: BotStep[];
}

// ---------------------------------------------------------------------------------------------
// What a draft still lacks
// ---------------------------------------------------------------------------------------------

export const DRAFT_PROBLEM_CODES = [
  'no_steps',
  'text_missing',
  'media_missing',
  'media_invalid',
  'option_text_missing',
  'option_duplicate',
  'option_target_missing',
  'next_step_missing',
  'start_missing',
  'fallback_missing',
  'loop_without_input',
  'tag_missing',
  'agent_email_invalid',
  'pause_days_invalid',
  'operation_missing',
  'flow_missing',
  'variable_invalid',
  'value_invalid',
] as const;
export type DraftProblemCode = (typeof DRAFT_PROBLEM_CODES)[number];

/**
 * One thing the draft lacks. `step`: the step concerned (null: the bot as a whole); `message`: the
 * message's number in the step (from 1); `media`: that message's type; `option`: the button's text.
 */
export interface DraftProblem {
  code: DraftProblemCode;
  step: string | null;
  message?: number;
  media?: BotMessageType;
  option?: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const VARIABLE = /^[A-Za-z_][A-Za-z0-9_.]*$/;

/** The strict rules each field must pass to be published (contract/bots.ts StepSchema). */
function strictlyValid(step: BotStep): boolean {
  return StepSchema.safeParse(step).success;
}

function stepProblems(step: BotStep, ids: Set<string>): DraftProblem[] {
  const out: DraftProblem[] = [];
  const at = (code: DraftProblemCode, extra: Partial<DraftProblem> = {}) => out.push({ code, step: step.id, ...extra });
  step.messages.forEach((m, i) => {
    const message = i + 1;
    if (m.type === 'text') {
      if (!m.text.trim()) at('text_missing', { message });
    } else if (!m.media_url?.trim()) at('media_missing', { message, media: m.type });
  });
  for (const option of step.options) {
    if (!option.text.trim()) at('option_text_missing');
    else if (option.next_step !== null && !ids.has(option.next_step)) at('option_target_missing', { option: option.text });
  }
  if (step.next_step_id !== null && !ids.has(step.next_step_id)) at('next_step_missing');
  for (const action of step.actions) {
    switch (action.type) {
      case 'add_tag':
      case 'remove_tag':
        if (!action.tag.trim()) at('tag_missing');
        break;
      case 'assign_agent':
        if (!EMAIL.test(action.email.trim())) at('agent_email_invalid');
        break;
      case 'pause_bot':
        if (action.days < 1) at('pause_days_invalid');
        break;
      case 'run_operation':
        if (!action.operation_id) at('operation_missing');
        break;
      case 'start_flow':
        if (action.flow_id === 0 || (typeof action.flow_id === 'string' && !action.flow_id.trim())) at('flow_missing');
        break;
    }
  }
  if (step.input && !VARIABLE.test(step.input.variable.trim())) at('variable_invalid');
  // Anything the strict rules still refuse (a media address that is not https or an upload, …), once per step.
  if (out.length === 0 && !strictlyValid(step)) {
    const badMedia = step.messages.findIndex((m) => m.media_url && !StepSchema.shape.messages.safeParse([m]).success);
    if (badMedia >= 0) at('media_invalid', { message: badMedia + 1, media: step.messages[badMedia].type });
    else at('value_invalid');
  }
  return out;
}

/** Everything a draft still lacks before it can be published (empty: ready). */
export function draftProblems(content: BotContent): DraftProblem[] {
  if (content.steps.length === 0) return [{ code: 'no_steps', step: null }];
  const ids = new Set(content.steps.map((s) => s.id));
  const out = content.steps.flatMap((step) => stepProblems(step, ids));
  const options = new Set<string>();
  for (const step of content.steps) {
    for (const option of step.options) {
      if (options.has(option.id)) out.push({ code: 'option_duplicate', step: step.id, option: option.text });
      options.add(option.id);
    }
  }
  if (content.step && !ids.has(content.step)) out.push({ code: 'start_missing', step: null });
  if (content.fallback_step_id && !ids.has(content.fallback_step_id)) out.push({ code: 'fallback_missing', step: null });
  // Loops are looked for once the references are sound (findGraphProblem reports the first problem only).
  if (out.length === 0) {
    const graph = findGraphProblem(content.steps, content.step, content.fallback_step_id);
    if (graph?.code === 'cycle_without_input') out.push({ code: 'loop_without_input', step: graph.step });
    else if (graph) out.push({ code: 'value_invalid', step: 'step' in graph ? graph.step : null });
  }
  return out;
}

/** What the builder calls a step: its first message's text (or media type), else its id. */
export function stepName(step: Pick<BotStep, 'id' | 'messages'> | undefined, fallbackId: string): string {
  const first = step?.messages.find((m) => m.text.trim()) ?? step?.messages[0];
  const name = first?.text.trim() || (first && first.type !== 'text' ? first.type : '') || fallbackId;
  return name.length > 40 ? `${name.slice(0, 39)}…` : name;
}

const SENTENCES: Record<DraftProblemCode, (p: DraftProblem) => string> = {
  no_steps: () => 'The bot has no step yet.',
  text_missing: (p) => `message ${p.message} has no text yet.`,
  media_missing: (p) => `message ${p.message} is set to ${p.media ?? 'media'} but no file is uploaded yet.`,
  media_invalid: (p) => `message ${p.message}'s file address is not an https address or a file uploaded here.`,
  option_text_missing: () => 'a button has no text.',
  option_duplicate: (p) => `the button "${p.option}" is used twice.`,
  option_target_missing: (p) => `the button "${p.option}" leads to a step that no longer exists.`,
  next_step_missing: () => 'its next step no longer exists.',
  start_missing: () => 'The start step no longer exists.',
  fallback_missing: () => 'The step for unmatched answers no longer exists.',
  loop_without_input: () => 'it starts a loop that never waits for the customer; add a button or a typed answer.',
  tag_missing: () => 'a tag action has no tag.',
  agent_email_invalid: () => 'an "assign to agent" action needs the agent\'s e-mail address.',
  pause_days_invalid: () => 'a "pause the bot" action needs at least one day.',
  operation_missing: () => 'a "run an operation" action has no operation chosen.',
  flow_missing: () => 'a "start a flow" action has no flow chosen.',
  variable_invalid: () => 'the typed answer needs a variable name (letters, digits and "_").',
  value_invalid: () => 'a value is not allowed; check the step.',
};

/** A problem in plain English, naming the step (the server's 400 on publish). */
export function problemSentence(problem: DraftProblem, steps: readonly Pick<BotStep, 'id' | 'messages'>[]): string {
  const sentence = SENTENCES[problem.code](problem);
  if (problem.step === null) return sentence;
  return `Step "${stepName(steps.find((s) => s.id === problem.step), problem.step)}": ${sentence}`;
}

// ---------------------------------------------------------------------------------------------
// Answers
// ---------------------------------------------------------------------------------------------

export interface BotDraft extends BotContent {
  bot: number;
  /** What the draft still lacks before Publish ([] = ready). */
  problems: DraftProblem[];
  /** True when the draft differs from the live version (the console's "Draft has unpublished changes"). */
  unpublished_changes: boolean;
  /** The live version's number (null: never published). */
  published_version: number | null;
  updated_at: string;
}

/** 'publish' from the draft, 'save' through the bot service's step calls (they change the live bot directly), 'migration' for bots that predate drafts. */
export type BotVersionKind = 'publish' | 'save' | 'migration';

export interface BotVersion {
  id: number;
  version: number;
  kind: BotVersionKind;
  /** Who published it: the member's name or e-mail, or "API" for the bot service's calls. */
  created_by: string;
  created_at: string;
  /** The version this one was restored from before being published (null otherwise). */
  restored_from: number | null;
  steps_count: number;
  /** True for the version customers meet now. */
  live: boolean;
}
export interface BotVersionListResponse {
  count: number;
  results: BotVersion[];
}

/** The 400 of a refused publish. */
export interface BotNotReadyBody {
  detail: string;
  code: 'not_ready';
  problems: (DraftProblem & { detail: string })[];
}

export const BOT_VERSIONS_PAGE_SIZE = 20;
export const BotVersionsQuery = z.object({
  page: z.coerce.number().int('A valid integer is required.').min(1, 'Invalid page.').max(100_000, 'Invalid page.').default(1),
  page_size: z.coerce.number().int('A valid integer is required.').min(1).max(100).default(BOT_VERSIONS_PAGE_SIZE),
});

/** The bot content every draft and version compares with: steps in order, positions renumbered. */
export function normalizedContent(content: BotContent): BotContent {
  return {
    step: content.step,
    fallback_step_id: content.fallback_step_id,
    steps: content.steps.map((s, position) => ({
      id: s.id,
      messages: s.messages.map((m) => ({ text: m.text, media_url: m.media_url, type: m.type })),
      options: s.options.map((o) => ({ id: o.id, text: o.text, next_step: o.next_step, step: s.id })),
      next_step_id: s.next_step_id,
      layout: s.layout,
      actions: s.actions,
      input: s.input,
      position,
    })),
  };
}

export { STEP_ACTION_TYPES };
