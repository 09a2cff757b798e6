/**
 * Flows (issue #13; spec §3 Flow and Flow step, §5 flow validation, §7 the bot service's
 * `/api/flows/` calls, §8 the flow strings, §9 max lengths). One set of zod schemas used by the
 * server (server/plugins/flows) and the console (src/plugins/flows).
 *
 * The calls live in the BOT SERVICE (same endpoint and key as contract/bots.ts: `?access_key=…` or
 * `Authorization: Bot <key>`). Paths relative to the endpoint:
 *   GET    /api/flows/                                   → FlowListResponse
 *   POST   /api/flows/                                   FlowCreateBody (only the five creation fields) → 201 Flow
 *   GET    /api/flows/{id}/                              → Flow (with its steps)
 *   POST   /api/flows/{id}/save/                         FlowSaveBody (the whole flow, one transaction) → Flow
 *   DELETE /api/flows/{id}                               → 204 (also with a trailing slash)
 *   GET    /api/flows/{id}/stats/                        → FlowStats (per step: reached, left there)
 *   GET    /api/flows/{id}/versions/                     → FlowVersionListResponse (newest first, who, when, what changed)
 *   GET    /api/flows/{id}/versions/{versionId}/         → FlowVersionDetail (the snapshot)
 *   POST   /api/flows/{id}/versions/{versionId}/restore/ → Flow (the restore is itself a new version)
 *
 * Errors: the bot service's body (`{errors: [...]}`, contract/bots.ts BotServiceErrorBody) plus, for
 * the flow screens (spec §8), `error` (short: e.g. "Invalid flow_name", "Conflict") and `message`
 * (the detail), composed by `flowErrorMessage`.
 */
import { z } from 'zod';
import { FLOW_LIMITS } from './validation';

export { FLOW_LIMITS };

export const FLOW_EXTRA_LIMITS = {
  company_name: 150,
  extraContextItems: 100,
  extraContextItem: 2000,
  steps: 100,
  stepId: 64,
  stepMsg: 1024,
  options: 10,
  optionText: 20,
  keywords: 10,
  keyword: 50,
  mediaUrl: 2048,
} as const;

const blank = 'This field may not be blank.';
const maxMessage = (max: number) => `Ensure this field has no more than ${max} characters.`;

export const FLOW_MESSAGES = {
  updated: 'Success : flow has been updated!',
  nameUndefined: 'Flow name is undefined',
  duplicateName: 'A flow with this name already exists in this company.',
  unknownStep: 'This step does not exist in this flow.',
  duplicateStep: 'Two steps have the same step_id.',
  invalidUrl: 'Enter a valid URL.',
} as const;

/** Fallbacks of the error alert (spec §8): 'Error ' + error value or these. */
export const FLOW_ERROR_FALLBACKS = { create: 'saving flow', update: 'updating flow', delete: 'deleting flow' } as const;

export const STEP_ID_PATTERN = /^[A-Za-z0-9_-]+$/;

const requiredText = (max: number) => z.string().trim().min(1, blank).max(max, maxMessage(max));
const optionalText = (max: number) => z.string().max(max, maxMessage(max)).nullable().default('').transform((v) => v ?? '');

/** A media URL (spec §5: valid URL): http(s) without credentials, or a file uploaded here (`/media/…`); empty/null = none. */
export function isValidMediaUrl(v: string): boolean {
  if (v.startsWith('/')) return v.startsWith('/media/') && !v.includes('\\') && !v.includes('..');
  try {
    const url = new URL(v);
    return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password;
  } catch {
    return false;
  }
}
const mediaUrl = () =>
  z
    .string()
    .trim()
    .max(FLOW_EXTRA_LIMITS.mediaUrl, maxMessage(FLOW_EXTRA_LIMITS.mediaUrl))
    .refine((v) => v === '' || isValidMediaUrl(v), FLOW_MESSAGES.invalidUrl)
    .nullable()
    .default(null)
    .transform((v) => (v ? v : null));

const stepId = () => z.string().trim().min(1, blank).max(FLOW_EXTRA_LIMITS.stepId, maxMessage(FLOW_EXTRA_LIMITS.stepId)).regex(STEP_ID_PATTERN, 'Use letters, digits, "_" and "-".');
const stepRef = () => stepId().nullable().default(null);

export const FlowOptionSchema = z.object({
  text: requiredText(FLOW_EXTRA_LIMITS.optionText),
  next_step_id: stepRef(),
});
export type FlowOption = z.infer<typeof FlowOptionSchema>;

export const FLOW_STEP_TYPES = ['text', 'options'] as const;
export type FlowStepType = (typeof FLOW_STEP_TYPES)[number];

export const FlowStepSchema = z.object({
  step_id: stepId(),
  next_step_id: stepRef(),
  step_msg: requiredText(FLOW_EXTRA_LIMITS.stepMsg),
  type: z.enum(FLOW_STEP_TYPES).default('text'),
  options: z.array(FlowOptionSchema).max(FLOW_EXTRA_LIMITS.options, `Ensure this field has no more than ${FLOW_EXTRA_LIMITS.options} elements.`).default([]),
});
export type FlowStep = z.infer<typeof FlowStepSchema>;

const extraContext = () =>
  z
    .array(z.string().max(FLOW_EXTRA_LIMITS.extraContextItem, maxMessage(FLOW_EXTRA_LIMITS.extraContextItem)))
    .max(FLOW_EXTRA_LIMITS.extraContextItems, `Ensure this field has no more than ${FLOW_EXTRA_LIMITS.extraContextItems} elements.`)
    .default([])
    .transform((items) => items.map((s) => s.trim()).filter((s) => s !== ''));

/** The five creation fields (spec §3: creating a flow sends only these; §5 creation form). */
export const flowCreateShape = {
  flow_name: requiredText(FLOW_LIMITS.flow_name),
  description: requiredText(FLOW_LIMITS.description),
  company_name: requiredText(FLOW_EXTRA_LIMITS.company_name),
  company_domain: requiredText(FLOW_LIMITS.company_domain),
  extra_context: extraContext(),
};
export const FlowCreateBody = z.object(flowCreateShape).strict();
export type FlowCreateBody = z.input<typeof FlowCreateBody>;

/** Flow fields beyond the creation ones (spec §3), with §5's rules. `keywords` start the flow on a channel (runtime). */
const flowContentShape = {
  intro_msg: optionalText(FLOW_LIMITS.intro_msg),
  intro_media_url: mediaUrl(),
  find_out_more_msg: optionalText(FLOW_LIMITS.find_out_more_msg),
  find_out_more_media_url: mediaUrl(),
  call_to_action: z.string().trim().max(FLOW_LIMITS.call_to_action, maxMessage(FLOW_LIMITS.call_to_action)).nullable().default(null).transform((v) => (v ? v : null)),
  keywords: z
    .array(z.string().trim().toLowerCase().min(1, blank).max(FLOW_EXTRA_LIMITS.keyword, maxMessage(FLOW_EXTRA_LIMITS.keyword)))
    .max(FLOW_EXTRA_LIMITS.keywords, `Ensure this field has no more than ${FLOW_EXTRA_LIMITS.keywords} elements.`)
    .default([]),
  steps: z.array(FlowStepSchema).max(FLOW_EXTRA_LIMITS.steps, `Ensure this field has no more than ${FLOW_EXTRA_LIMITS.steps} elements.`).default([]),
};

export interface FlowGraphProblem {
  path: (string | number)[];
  message: string;
}

/** Spec §5 + issue #13: step ids unique; every next_step_id and option target names a step of the flow or is null. */
export function findFlowGraphProblems(steps: readonly { step_id: string; next_step_id: string | null; options: readonly { next_step_id: string | null }[] }[]): FlowGraphProblem[] {
  const problems: FlowGraphProblem[] = [];
  const ids = new Set<string>();
  steps.forEach((s, i) => {
    if (ids.has(s.step_id)) problems.push({ path: ['steps', i, 'step_id'], message: FLOW_MESSAGES.duplicateStep });
    ids.add(s.step_id);
  });
  steps.forEach((s, i) => {
    if (s.next_step_id !== null && !ids.has(s.next_step_id)) problems.push({ path: ['steps', i, 'next_step_id'], message: FLOW_MESSAGES.unknownStep });
    s.options.forEach((o, j) => {
      if (o.next_step_id !== null && !ids.has(o.next_step_id)) problems.push({ path: ['steps', i, 'options', j, 'next_step_id'], message: FLOW_MESSAGES.unknownStep });
    });
  });
  return problems;
}

const graphCheck = (flow: { steps: FlowStep[] }, ctx: z.RefinementCtx) => {
  for (const p of findFlowGraphProblems(flow.steps)) ctx.addIssue({ code: 'custom', path: p.path, message: p.message });
};

/** The flow as read (spec §5 "Flow (as read)"): every field, every rule. */
export const FlowFieldsSchema = z.object({ ...flowCreateShape, ...flowContentShape }).superRefine(graphCheck);
export type FlowFields = z.infer<typeof FlowFieldsSchema>;

/** POST /api/flows/{id}/save/: the whole flow (an `id` sent along is ignored: the path names the flow). */
export const FlowSaveBody = z.object({ ...flowCreateShape, ...flowContentShape, id: z.unknown().optional() }).superRefine(graphCheck);
export type FlowSaveBody = z.input<typeof FlowSaveBody>;

export interface Flow extends FlowFields {
  id: number;
  /** The current version number (1 after creation, +1 per save or restore). */
  version: number;
  created_at: string;
  updated_at: string;
}
export type FlowListResponse = Flow[];

/** Per step id: customers who reached the step, and runs that stopped there (waiting or handed over). */
export interface FlowStats {
  steps: Record<string, { reached: number; left: number }>;
}

export interface FlowVersion {
  id: number;
  version: number;
  /** Who saved it: the bot-service key (its shown prefix) or the named editor of the call. */
  created_by: string;
  created_at: string;
  /** 'create' | 'save' | 'restore'. */
  kind: 'create' | 'save' | 'restore';
  /** For a restore: the version number restored. */
  restored_from: number | null;
  /** What changed since the version before: field names, and `steps` details. */
  changes: FlowChanges;
}
export interface FlowChanges {
  fields: string[];
  steps_added: string[];
  steps_removed: string[];
  steps_changed: string[];
  steps_reordered: boolean;
}
export type FlowVersionListResponse = FlowVersion[];
export interface FlowVersionDetail extends FlowVersion {
  snapshot: FlowFields;
}

const COMPARED_FIELDS = ['flow_name', 'description', 'company_name', 'company_domain', 'extra_context', 'intro_msg', 'intro_media_url', 'find_out_more_msg', 'find_out_more_media_url', 'call_to_action', 'keywords'] as const;

/** What changed between two snapshots (the version list's "what changed"). */
export function diffFlows(before: FlowFields | null, after: FlowFields): FlowChanges {
  if (!before) return { fields: [...COMPARED_FIELDS, 'steps'].filter((f) => f !== 'steps' || after.steps.length > 0), steps_added: after.steps.map((s) => s.step_id), steps_removed: [], steps_changed: [], steps_reordered: false };
  const fields: string[] = COMPARED_FIELDS.filter((f) => JSON.stringify(before[f]) !== JSON.stringify(after[f]));
  const old = new Map(before.steps.map((s) => [s.step_id, s]));
  const now = new Map(after.steps.map((s) => [s.step_id, s]));
  const steps_added = after.steps.filter((s) => !old.has(s.step_id)).map((s) => s.step_id);
  const steps_removed = before.steps.filter((s) => !now.has(s.step_id)).map((s) => s.step_id);
  const steps_changed = after.steps.filter((s) => old.has(s.step_id) && JSON.stringify(old.get(s.step_id)) !== JSON.stringify(s)).map((s) => s.step_id);
  const kept = (list: FlowStep[], other: Map<string, FlowStep>) => list.filter((s) => other.has(s.step_id)).map((s) => s.step_id).join('\n');
  const steps_reordered = kept(before.steps, now) !== kept(after.steps, old);
  if (steps_added.length || steps_removed.length || steps_changed.length || steps_reordered) fields.push('steps');
  return { fields, steps_added, steps_removed, steps_changed, steps_reordered };
}

/** The error body of a flow call: the bot service's plus `error` and `message` (spec §8). */
export interface FlowErrorBody {
  errors: { status: string; code: string; title: string; detail: string; source?: { pointer: string } }[];
  error: string;
  message: string;
}

/**
 * Spec §8: 'Error ' + the server's error value or the fallback ('saving flow' / 'updating flow' /
 * 'deleting flow'), then in parentheses the server message, else the error's own message, else
 * 'An error occurred'.
 */
export function flowErrorMessage(action: keyof typeof FLOW_ERROR_FALLBACKS, body: unknown, errorMessage?: string): string {
  const b = body && typeof body === 'object' ? (body as Partial<FlowErrorBody>) : {};
  const error = typeof b.error === 'string' && b.error !== '' ? b.error : FLOW_ERROR_FALLBACKS[action];
  const message = typeof b.message === 'string' && b.message !== '' ? b.message : errorMessage || 'An error occurred';
  return `Error ${error}(${message})`;
}
