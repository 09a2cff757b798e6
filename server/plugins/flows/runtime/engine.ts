/**
 * The flow runtime's decisions, pure (issue #13): where a flow goes from a state and the customer's
 * reply, and what it says. The intro (with its media), then each step in order — a step with options
 * waits for the customer's choice, shown as buttons; the chosen option's next step (or the step's
 * next_step_id, or the next in order) follows — then the find-out-more message and media, and the
 * call to action as a URL button. Free text matching no option is answered from `extra_context` by
 * MiniSearch (full-text over the passages); nothing matching gives the find-out-more message; then
 * the question is asked again.
 */
import MiniSearch from 'minisearch';
import type { Flow, FlowStep } from '../../../../contract/flows';
import { HAND_OVER_TEXT, type OutgoingBotMessage } from '../../bots';

export { HAND_OVER_TEXT };

/** Typed alone in a running flow, these hand the customer over to a person. */
export const FLOW_HAND_OVER_KEYWORDS = ['agent', 'human', 'person'];

export type RuntimeFlow = Pick<Flow, 'id' | 'flow_name' | 'company_domain' | 'extra_context' | 'intro_msg' | 'intro_media_url' | 'find_out_more_msg' | 'find_out_more_media_url' | 'call_to_action' | 'steps' | 'keywords'>;

export interface FlowPlan {
  messages: OutgoingBotMessage[];
  /** The step now awaiting an answer; null: the flow has ended. */
  stepId: string | null;
  status: 'active' | 'done' | 'handed_over';
  /** Steps entered by this plan (per-step reach). */
  visited: string[];
}

export const optionButtonId = (stepId: string, index: number) => `flow:${stepId}:${index}`;

function mediaType(url: string): string {
  const path = url.split('?')[0].toLowerCase();
  if (/\.(mp4|mov|webm)$/.test(path)) return 'video';
  if (/\.(mp3|ogg|m4a|aac)$/.test(path)) return 'audio';
  if (/\.(pdf|docx?|xlsx?|pptx?)$/.test(path)) return 'document';
  return 'image';
}

function media(url: string | null): OutgoingBotMessage[] {
  return url ? [{ type: mediaType(url), text: null, media_url: url, buttons: null }] : [];
}

function stepOut(step: FlowStep): OutgoingBotMessage {
  const buttons = step.options.length > 0 ? step.options.map((o, i) => ({ id: optionButtonId(step.step_id, i), title: o.text })) : null;
  return { type: buttons ? 'interactive' : 'text', text: step.step_msg, media_url: null, buttons };
}

/** The call to action's URL: the company's domain (https when no scheme is given). */
export function callToActionUrl(domain: string): string {
  const d = domain.trim();
  return /^https?:\/\//i.test(d) ? d : `https://${d}`;
}

function ending(flow: RuntimeFlow): OutgoingBotMessage[] {
  const out: OutgoingBotMessage[] = [];
  if (flow.find_out_more_msg.trim()) out.push({ type: 'text', text: flow.find_out_more_msg, media_url: null, buttons: null });
  out.push(...media(flow.find_out_more_media_url));
  if (flow.call_to_action) {
    const url = callToActionUrl(flow.company_domain);
    out.push({ type: 'interactive', text: `${flow.call_to_action}: ${url}`, media_url: null, buttons: [{ id: `url:${url}`, title: flow.call_to_action }] });
  }
  return out;
}

/** From `stepId` on (null: past the last step): says each step until one waits for a choice, or ends the flow. */
function walk(flow: RuntimeFlow, stepId: string | null, out: OutgoingBotMessage[], visited: string[]): FlowPlan {
  const index = new Map(flow.steps.map((s, i) => [s.step_id, i]));
  let current = stepId === null ? undefined : flow.steps[index.get(stepId) ?? -1];
  // A chain of steps without options cannot loop for ever: at most every step once per walk.
  for (let guard = 0; current && guard <= flow.steps.length; guard++) {
    out.push(stepOut(current));
    visited.push(current.step_id);
    if (current.options.length > 0) return { messages: out, stepId: current.step_id, status: 'active', visited };
    const i = index.get(current.step_id)!;
    current = current.next_step_id !== null ? flow.steps[index.get(current.next_step_id)!] : flow.steps[i + 1];
  }
  out.push(...ending(flow));
  return { messages: out, stepId: null, status: 'done', visited };
}

/** A new run: intro (with media), then the steps. */
export function startFlow(flow: RuntimeFlow): FlowPlan {
  const out: OutgoingBotMessage[] = [];
  if (flow.intro_msg.trim()) out.push({ type: 'text', text: flow.intro_msg, media_url: null, buttons: null });
  out.push(...media(flow.intro_media_url));
  return walk(flow, flow.steps[0]?.step_id ?? null, out, []);
}

/** The best passage of `extra_context` for the text, or null. */
export function answerFromContext(passages: readonly string[], text: string): string | null {
  if (passages.length === 0 || !text.trim()) return null;
  const search = new MiniSearch<{ id: number; text: string }>({ fields: ['text'], storeFields: ['text'] });
  search.addAll(passages.map((p, id) => ({ id, text: p })));
  const [best] = search.search(text, { fuzzy: 0.2, prefix: true });
  return best ? passages[best.id as number] : null;
}

export interface FlowReply {
  buttonId: string | null;
  text: string | null;
}

/** The customer answered while the run waits at `stepId`. */
export function continueFlow(flow: RuntimeFlow, stepId: string | null, reply: FlowReply): FlowPlan {
  const step = flow.steps.find((s) => s.step_id === stepId);
  if (!step) return walk(flow, null, [], []); // the step was removed meanwhile: end the flow
  const text = reply.text?.trim().toLowerCase() ?? '';
  const chosen = step.options.findIndex((o, i) => reply.buttonId === optionButtonId(step.step_id, i) || (text !== '' && o.text.trim().toLowerCase() === text));
  if (chosen >= 0) {
    const option = step.options[chosen];
    const i = flow.steps.indexOf(step);
    const next = option.next_step_id ?? step.next_step_id ?? flow.steps[i + 1]?.step_id ?? null;
    return walk(flow, next, [], []);
  }
  const answer = answerFromContext(flow.extra_context, reply.text ?? '');
  const out: OutgoingBotMessage[] = answer
    ? [{ type: 'text', text: answer, media_url: null, buttons: null }]
    : [{ type: 'text', text: flow.find_out_more_msg.trim() || flow.intro_msg.trim() || flow.flow_name, media_url: null, buttons: null }];
  out.push(stepOut(step));
  return { messages: out, stepId: step.step_id, status: 'active', visited: [] };
}

export function isHandOver(text: string | null): boolean {
  return FLOW_HAND_OVER_KEYWORDS.includes((text ?? '').trim().toLowerCase());
}

/** The flow a message starts: its text alone is one of the flow's keywords. */
export function flowForKeyword<F extends Pick<RuntimeFlow, 'keywords'>>(flows: readonly F[], text: string | null): F | null {
  const t = (text ?? '').trim().toLowerCase();
  if (!t) return null;
  return flows.find((f) => f.keywords.includes(t)) ?? null;
}
