/**
 * The bot runtime's decisions, without any I/O: given a bot's graph, where a conversation stands
 * and what the customer just sent, which steps are entered and where the conversation stands next.
 * Both the live runtime (rooms, ./runtime.ts) and the builder's test chat (./testChat.ts) run it,
 * so what the test chat shows is what a customer meets.
 *
 *   - A conversation that has not started (or ended, or was handed over and is back) enters the
 *     bot's start step, whatever the customer wrote.
 *   - Entering a step: its messages, then its actions (contract/bots.ts: actions run after the
 *     messages; an ai_answer is the runtime's, before them, and may end the turn with a hand-over); then, when it has options or a free-text input, the conversation waits there;
 *     otherwise it follows its next step at once (a chain
 *     without customer input cannot loop: the bot service refuses such graphs, and a guard stops
 *     at MAX_CHAIN anyway); without a next step the conversation ends.
 *   - A step whose actions hand over to a person or pause the bot stops there.
 *   - Waiting on a step: a button reply (its id), or typed text equal to an option's text
 *     (case-insensitive) or to its number (1, 2, …), follows that option; on a free-text step
 *     any text is kept as its variable and the next step follows; anything else repeats
 *     the question once, then follows the bot's fallback: a step, or a hand-over.
 */

import type { StepAction } from '../../../../contract/bots';

/** One message of a step as the bot service stores it (spec §3: text, media_url, type). */
export interface RuntimeMessage {
  text: string | null;
  media_url: string | null;
  /** text, image, video, audio, document. */
  type: string;
}

export interface RuntimeOption {
  id: string;
  text: string;
  next_step_id: string | null;
}

/** What a step's action does: contract/bots.ts StepAction, as stored. */
export type RuntimeAction = StepAction;

export interface RuntimeStep {
  id: string;
  messages: RuntimeMessage[];
  options: RuntimeOption[];
  next_step_id: string | null;
  actions: RuntimeAction[];
  /** A free-text question: the reply is kept as this variable, then next_step_id. */
  input: { variable: string } | null;
}

/** The bot's fallback after the question was repeated once: a step, or a hand-over to a person. */
export type RuntimeFallback = { kind: 'step'; step_id: string } | { kind: 'hand_over' };

export interface RuntimeBot {
  id: number;
  companyId: number;
  name: string;
  startStepId: string | null;
  fallback: RuntimeFallback;
  steps: Map<string, RuntimeStep>;
}

/** Where a conversation stands (bot_conversations; the test chat keeps it on the client). */
export interface ConversationState {
  /** The step whose options wait for an answer; null: not started or ended. */
  stepId: string | null;
  /** Unmatched answers on the current step (the question is repeated once). */
  fallbackCount: number;
  handedOver: boolean;
}

export const NEW_CONVERSATION: ConversationState = { stepId: null, fallbackCount: 0, handedOver: false };

/** What the customer sent: a button (or list row, quick reply) id and/or text. */
export interface InboundReply {
  buttonId: string | null;
  text: string | null;
}

/** Steps followed without customer input at most, in one answer. */
export const MAX_CHAIN = 25;

/** The message said when the fallback hands the conversation over. */
export const HAND_OVER_TEXT = 'Let me pass you to a person who can help. Please wait a moment.';
/** The question text when a step offers options but has no text message to carry them. */
export const CHOOSE_TEXT = 'Please choose an option:';

export type PlannedItem =
  /** Entering a step: run its actions, send its messages, offer its options. */
  | { kind: 'enter'; step: RuntimeStep }
  /** The answer did not match: the step's question again (its options), no actions. */
  | { kind: 'repeat'; step: RuntimeStep }
  /** The fallback hands over: HAND_OVER_TEXT, then the hand-over. */
  | { kind: 'fallback_hand_over' };

export interface Plan {
  items: PlannedItem[];
  next: ConversationState;
  /** The option the customer chose, if any. */
  chosen: RuntimeOption | null;
  /** A free-text answer kept as a variable (the waiting step's input). */
  setVariables: Record<string, string>;
}

export function matchOption(options: RuntimeOption[], reply: InboundReply): RuntimeOption | null {
  if (options.length === 0) return null;
  if (reply.buttonId) {
    const byId = options.find((o) => o.id === reply.buttonId);
    if (byId) return byId;
  }
  const text = reply.text?.trim().toLowerCase();
  if (!text) return null;
  const byText = options.find((o) => o.text.trim().toLowerCase() === text);
  if (byText) return byText;
  // "2", "2.", "2)" or "#2": the option's number as the channel shows them.
  const number = /^#?(\d{1,3})[.)]?$/.exec(text);
  if (number) {
    const index = Number(number[1]) - 1;
    if (index >= 0 && index < options.length) return options[index];
  }
  return null;
}

const STOPPING: RuntimeAction['type'][] = ['hand_over', 'pause_bot'];

/** Enters `stepId` and follows next steps without input; appends to `items`, returns the state after. */
function enter(bot: RuntimeBot, stepId: string | null, items: PlannedItem[]): ConversationState {
  let current = stepId;
  for (let hops = 0; current && hops < MAX_CHAIN; hops++) {
    const step = bot.steps.get(current);
    if (!step) break;
    items.push({ kind: 'enter', step });
    const handsOver = step.actions.some((a) => a.type === 'hand_over');
    if (handsOver) return { stepId: null, fallbackCount: 0, handedOver: true };
    if (step.actions.some((a) => STOPPING.includes(a.type))) {
      return { stepId: waitsForCustomer(step) ? step.id : null, fallbackCount: 0, handedOver: false };
    }
    if (waitsForCustomer(step)) return { stepId: step.id, fallbackCount: 0, handedOver: false };
    current = step.next_step_id;
  }
  return { ...NEW_CONVERSATION };
}

/**
 * The answer to one customer message. `state` is where the conversation stood; a handed-over
 * conversation only reaches here once the room is no longer paused (the caller checks), and then
 * starts over.
 */
export function decide(bot: RuntimeBot, state: ConversationState, reply: InboundReply): Plan {
  const items: PlannedItem[] = [];
  const waiting = state.stepId && !state.handedOver ? bot.steps.get(state.stepId) : undefined;
  if (!waiting || !waitsForCustomer(waiting)) {
    return { items, next: enter(bot, bot.startStepId, items), chosen: null, setVariables: {} };
  }
  const chosen = matchOption(waiting.options, reply);
  if (chosen) {
    // An option without a next step ends the conversation (the next message starts over).
    return { items, next: enter(bot, chosen.next_step_id, items), chosen, setVariables: {} };
  }
  const typed = reply.text?.trim();
  if (waiting.input && typed) {
    return { items, next: enter(bot, waiting.next_step_id, items), chosen: null, setVariables: { [waiting.input.variable]: typed } };
  }
  if (state.fallbackCount < 1) {
    items.push({ kind: 'repeat', step: waiting });
    return { items, next: { stepId: waiting.id, fallbackCount: state.fallbackCount + 1, handedOver: false }, chosen: null, setVariables: {} };
  }
  if (bot.fallback.kind === 'step' && bot.steps.has(bot.fallback.step_id)) {
    return { items, next: enter(bot, bot.fallback.step_id, items), chosen: null, setVariables: {} };
  }
  items.push({ kind: 'fallback_hand_over' });
  return { items, next: { stepId: null, fallbackCount: 0, handedOver: true }, chosen: null, setVariables: {} };
}

/** A step the conversation stops at to wait for the customer: it has options or a free-text input. */
export function waitsForCustomer(step: RuntimeStep): boolean {
  return step.options.length > 0 || !!step.input;
}

/** A step's outgoing messages: its own, the options riding on the last text (or on CHOOSE_TEXT after media). */
export interface OutgoingBotMessage {
  type: string;
  text: string | null;
  media_url: string | null;
  /** The options as buttons (id, title); null when the message offers none. */
  buttons: { id: string; title: string }[] | null;
}

export function optionButtons(step: RuntimeStep): { id: string; title: string }[] {
  return step.options.map((o) => ({ id: o.id, title: o.text.trim() || 'Button' }));
}

/** `{{name}}` → the conversation's variable (an unknown one is left as written). */
export function fillVariables(text: string, variables: Record<string, string>): string {
  return text.replace(/\{\{\s*([A-Za-z0-9_.-]{1,64})\s*\}\}/g, (whole, name: string) => (Object.prototype.hasOwnProperty.call(variables, name) ? variables[name] : whole));
}

export function stepMessages(step: RuntimeStep, variables: Record<string, string> = {}): OutgoingBotMessage[] {
  const out: OutgoingBotMessage[] = step.messages
    .filter((m) => m.text?.trim() || m.media_url?.trim())
    .map((m) => ({
      type: m.media_url?.trim() ? mediaType(m.type) : 'text',
      text: m.text?.trim() ? fillVariables(m.text, variables) : null,
      media_url: m.media_url?.trim() || null,
      buttons: null,
    }));
  if (step.options.length > 0) {
    const last = out[out.length - 1];
    if (last && last.type === 'text' && last.text) {
      last.type = 'interactive';
      last.buttons = optionButtons(step);
    } else {
      out.push({ type: 'interactive', text: CHOOSE_TEXT, media_url: null, buttons: optionButtons(step) });
    }
  }
  return out;
}

/** The question asked again: the message carrying the options (a free-text question: its last text). */
export function repeatedQuestion(step: RuntimeStep, variables: Record<string, string> = {}): OutgoingBotMessage[] {
  const all = stepMessages(step, variables);
  const withButtons = all.filter((m) => m.buttons !== null);
  if (withButtons.length > 0) return withButtons;
  const lastText = [...all].reverse().find((m) => m.type === 'text');
  return lastText ? [lastText] : [];
}

function mediaType(type: string): string {
  return ['image', 'video', 'audio', 'document'].includes(type) ? type : 'image';
}
