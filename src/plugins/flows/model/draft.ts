/**
 * The flow editor's working copy: the whole flow as the form holds it (steps carry a stable `key`
 * for the sortable list), checked with the contract's save schema (§5 + the step graph), turned
 * back into the save body, compared with the stored flow (unsaved changes), and shown as the
 * messages the customer gets (the phone preview).
 */
import { FlowSaveBody, type Flow, type FlowFields, type FlowOption, type FlowSaveBody as SaveBody, type FlowStepType } from '../../../../contract/flows';

export interface DraftStep {
  key: string;
  step_id: string;
  next_step_id: string | null;
  step_msg: string;
  type: FlowStepType;
  options: FlowOption[];
}

export interface FlowDraft {
  flow_name: string;
  description: string;
  company_name: string;
  company_domain: string;
  extra_context: string[];
  intro_msg: string;
  intro_media_url: string;
  find_out_more_msg: string;
  find_out_more_media_url: string;
  call_to_action: string;
  keywords: string[];
  steps: DraftStep[];
}

let counter = 0;
export const newKey = () => `k${++counter}`;

export function toDraft(flow: FlowFields): FlowDraft {
  return {
    flow_name: flow.flow_name,
    description: flow.description,
    company_name: flow.company_name,
    company_domain: flow.company_domain,
    extra_context: [...flow.extra_context],
    intro_msg: flow.intro_msg ?? '',
    intro_media_url: flow.intro_media_url ?? '',
    find_out_more_msg: flow.find_out_more_msg ?? '',
    find_out_more_media_url: flow.find_out_more_media_url ?? '',
    call_to_action: flow.call_to_action ?? '',
    keywords: [...flow.keywords],
    steps: flow.steps.map((s) => ({ key: newKey(), step_id: s.step_id, next_step_id: s.next_step_id, step_msg: s.step_msg, type: s.type, options: s.options.map((o) => ({ ...o })) })),
  };
}

/** The body of POST /api/flows/{id}/save/ (the whole flow). */
export function toSaveBody(d: FlowDraft): SaveBody {
  return {
    flow_name: d.flow_name,
    description: d.description,
    company_name: d.company_name,
    company_domain: d.company_domain,
    extra_context: d.extra_context,
    intro_msg: d.intro_msg,
    intro_media_url: d.intro_media_url.trim() || null,
    find_out_more_msg: d.find_out_more_msg,
    find_out_more_media_url: d.find_out_more_media_url.trim() || null,
    call_to_action: d.call_to_action.trim() || null,
    keywords: d.keywords,
    steps: d.steps.map((s) => ({ step_id: s.step_id, next_step_id: s.next_step_id, step_msg: s.step_msg, type: s.type, options: s.type === 'options' ? s.options : [] })),
  };
}

/** Every problem of the draft by path ('steps.0.step_msg'), from the contract's save schema. */
export function draftProblems(d: FlowDraft): Record<string, string> {
  const result = FlowSaveBody.safeParse(toSaveBody(d));
  const out: Record<string, string> = {};
  if (result.success) return out;
  for (const issue of result.error.issues) {
    const path = issue.path.join('.');
    if (!(path in out)) out[path] = issue.message;
  }
  return out;
}

/** The draft as the server would store it, to compare with the stored flow. */
export function normalized(d: FlowDraft): string {
  const parsed = FlowSaveBody.safeParse(toSaveBody(d));
  return JSON.stringify(parsed.success ? { ...parsed.data, id: undefined } : toSaveBody(d));
}

export function isDirty(d: FlowDraft, stored: FlowFields | string): boolean {
  return normalized(d) !== (typeof stored === 'string' ? stored : normalized(toDraft(stored)));
}

export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item);
  return next;
}

/** A step id not used yet: step_1, step_2… */
export function nextStepId(steps: readonly { step_id: string }[]): string {
  const used = new Set(steps.map((s) => s.step_id));
  let n = steps.length + 1;
  while (used.has(`step_${n}`)) n++;
  return `step_${n}`;
}

/** Renaming a step renames every reference to it. */
export function renameStep(steps: readonly DraftStep[], key: string, stepId: string): DraftStep[] {
  const old = steps.find((s) => s.key === key)?.step_id;
  return steps.map((s) => ({
    ...s,
    step_id: s.key === key ? stepId : s.step_id,
    next_step_id: old !== undefined && s.next_step_id === old ? stepId : s.next_step_id,
    options: s.options.map((o) => (old !== undefined && o.next_step_id === old ? { ...o, next_step_id: stepId } : o)),
  }));
}

/** Removing a step clears the references to it. */
export function removeStep(steps: readonly DraftStep[], key: string): DraftStep[] {
  const gone = steps.find((s) => s.key === key)?.step_id;
  return steps
    .filter((s) => s.key !== key)
    .map((s) => ({
      ...s,
      next_step_id: s.next_step_id === gone ? null : s.next_step_id,
      options: s.options.map((o) => (o.next_step_id === gone ? { ...o, next_step_id: null } : o)),
    }));
}

export interface PreviewItem {
  kind: 'text' | 'media' | 'step' | 'cta';
  text: string;
  mediaUrl?: string;
  buttons: string[];
  stepId?: string;
}

/** What the customer gets, in order: intro, its media, each step (options as buttons), find out more, its media, the call to action. */
export function previewItems(d: FlowDraft): PreviewItem[] {
  const items: PreviewItem[] = [];
  if (d.intro_msg.trim()) items.push({ kind: 'text', text: d.intro_msg, buttons: [] });
  if (d.intro_media_url.trim()) items.push({ kind: 'media', text: '', mediaUrl: d.intro_media_url.trim(), buttons: [] });
  for (const s of d.steps) items.push({ kind: 'step', text: s.step_msg, buttons: s.type === 'options' ? s.options.map((o) => o.text) : [], stepId: s.step_id });
  if (d.find_out_more_msg.trim()) items.push({ kind: 'text', text: d.find_out_more_msg, buttons: [] });
  if (d.find_out_more_media_url.trim()) items.push({ kind: 'media', text: '', mediaUrl: d.find_out_more_media_url.trim(), buttons: [] });
  if (d.call_to_action.trim()) items.push({ kind: 'cta', text: d.call_to_action.trim(), buttons: [d.call_to_action.trim()] });
  return items;
}

export type { Flow };
