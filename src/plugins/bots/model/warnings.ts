/**
 * Problems a customer would meet, shown on the step's node before the bot goes live.
 * Limits are WhatsApp's (the strictest channel): 3 reply buttons (more become a list), 10 list rows,
 * 20 characters of button text, 1,024 characters of body.
 */
import { BOT_WARNING_LIMITS, reachableSteps as reachableFrom } from '../../../../contract/bots';
import { startStepId } from './layout';
import type { BotGraph, BotStep } from './types';

export const WHATSAPP_REPLY_BUTTONS = BOT_WARNING_LIMITS.whatsappReplyButtons;
export const WHATSAPP_LIST_ROWS = BOT_WARNING_LIMITS.whatsappListRows;
export const MESSENGER_QUICK_REPLIES = BOT_WARNING_LIMITS.messengerQuickReplies;
export const BUTTON_TEXT_MAX = BOT_WARNING_LIMITS.buttonText;
export const BODY_MAX = BOT_WARNING_LIMITS.bodyText;

/** Actions after which the conversation is in a person's hands or over on purpose: not a dead end. */
const ENDING_ACTIONS = new Set<string>(['hand_over', 'opt_out', 'start_flow', 'pause_bot']);

export type StepWarning =
  | { code: 'tooManyButtons'; count: number; max: number; channel: string }
  | { code: 'shownAsList'; count: number; max: number }
  | { code: 'buttonTooLong'; text: string; max: number }
  | { code: 'bodyTooLong'; length: number; max: number }
  | { code: 'deadEnd' }
  | { code: 'optionLeadsNowhere'; text: string }
  | { code: 'unreachable' };

/** Channels the bot runs on, by platform ('whatsapp', 'messenger', 'instagram', 'sandbox'). */
export type Platform = string;

function buttonLimit(platforms: Platform[]): { max: number; channel: string } {
  if (!platforms.length || platforms.includes('whatsapp')) return { max: WHATSAPP_LIST_ROWS, channel: 'WhatsApp' };
  if (platforms.includes('messenger') || platforms.includes('instagram')) return { max: MESSENGER_QUICK_REPLIES, channel: 'Messenger' };
  return { max: WHATSAPP_LIST_ROWS, channel: 'WhatsApp' };
}

/** Ids of the steps a customer can reach from the start step. */
export function reachableSteps(graph: BotGraph): Set<string> {
  return reachableFrom(graph.steps, startStepId(graph), graph.fallback_step_id ?? null);
}

export function stepWarnings(step: BotStep, context: { reachable: Set<string>; platforms?: Platform[] }): StepWarning[] {
  const warnings: StepWarning[] = [];
  const platforms = context.platforms ?? [];
  const limit = buttonLimit(platforms);
  const count = step.options.length;
  if (count > limit.max) warnings.push({ code: 'tooManyButtons', count, max: limit.max, channel: limit.channel });
  else if (count > WHATSAPP_REPLY_BUTTONS && (!platforms.length || platforms.includes('whatsapp')))
    warnings.push({ code: 'shownAsList', count, max: WHATSAPP_REPLY_BUTTONS });
  for (const option of step.options) {
    if (option.text.length > BUTTON_TEXT_MAX) warnings.push({ code: 'buttonTooLong', text: option.text, max: BUTTON_TEXT_MAX });
  }
  for (const message of step.messages) {
    if ((message.text ?? '').length > BODY_MAX) warnings.push({ code: 'bodyTooLong', length: message.text.length, max: BODY_MAX });
  }
  for (const option of step.options) {
    if (!option.next_step) warnings.push({ code: 'optionLeadsNowhere', text: option.text });
  }
  const ends = (step.actions ?? []).some((a) => ENDING_ACTIONS.has(a.type));
  if (!count && !step.input && !step.next_step_id && !ends) warnings.push({ code: 'deadEnd' });
  if (!context.reachable.has(step.id)) warnings.push({ code: 'unreachable' });
  return warnings;
}

/** Every step's warnings, by step id. */
export function graphWarnings(graph: BotGraph, platforms: Platform[] = []): Record<string, StepWarning[]> {
  const reachable = reachableSteps(graph);
  const out: Record<string, StepWarning[]> = {};
  for (const step of graph.steps) out[step.id] = stepWarnings(step, { reachable, platforms });
  return out;
}
