/**
 * The builder's test chat (contract/botRuntime.ts): the runtime's engine on a private conversation
 * whose state the client carries. Same decisions and messages as a live room; actions are described
 * instead of applied, except operations, which run so their variables show. An ai_answer is described
 * too, not run: the builder's test must not spend the plan's assistant answers or call the company's model
 * at every message typed, and the assistant's answers can be tried on their own on /knowledge (ask).
 */
import type { z } from 'zod';
import { TestChatBody, type TestChatAction, type TestChatMessage, type TestChatResponse, type TestChatState } from '../../../../contract/botRuntime';
import { decide, HAND_OVER_TEXT, NEW_CONVERSATION, repeatedQuestion, stepMessages, type ConversationState, type OutgoingBotMessage, type RuntimeAction, type RuntimeBot } from './engine';
import { OPT_OUT_CONFIRMATION, OPT_OUT_KEYWORDS, type OperationRunner } from './runtime';

export type ParsedTestChatBody = z.output<typeof TestChatBody>;

/** The test chat's customer, in variables an operation may use. */
const TEST_VARIABLES: Record<string, string> = { 'customer.name': 'Test chat', 'customer.external_id': 'test-chat', 'room.id': '0', 'channel.platform': 'sandbox' };

export function describeAction(action: RuntimeAction): string {
  switch (action.type) {
    case 'add_tag':
      return `Adds the tag "${action.tag}"`;
    case 'remove_tag':
      return `Removes the tag "${action.tag}"`;
    case 'assign_agent':
      return `Assigns the conversation to ${action.email}`;
    case 'pause_bot':
      return `Pauses the bot for ${action.days} day${action.days === 1 ? '' : 's'}`;
    case 'hand_over':
      return 'Hands the conversation over to a person';
    case 'run_operation':
      return `Runs operation #${action.operation_id}`;
    case 'opt_out':
      return 'Opts the customer out';
    case 'start_flow':
      return 'Starting a flow is not available yet: flows do not exist, the action is skipped';
    case 'ai_answer':
      return "Asks the assistant to answer the customer's message from the company's knowledge, before the step's messages (a person takes over when it cannot; not run in the test chat)";
  }
}

function toMessage(out: OutgoingBotMessage, stepId: string | null): TestChatMessage {
  return { type: out.type, text: out.text, media_url: out.media_url, buttons: out.buttons, step_id: stepId };
}

export async function runTestChat(
  bot: RuntimeBot,
  body: ParsedTestChatBody,
  deps: { runOperation: OperationRunner | null; signMedia: (url: string | null) => string | null },
): Promise<TestChatResponse> {
  const incoming: TestChatState | null = body.reset ? null : body.state;
  const state: ConversationState = incoming ? { stepId: incoming.step_id, fallbackCount: incoming.fallback_count, handedOver: incoming.handed_over } : { ...NEW_CONVERSATION };
  const variables: Record<string, string> = { ...(incoming?.variables ?? {}) };
  const messages: TestChatMessage[] = [];
  const actions: TestChatAction[] = [];
  const visited: string[] = [];
  const result = (next: ConversationState): TestChatResponse => ({
    messages: messages.map((m) => ({ ...m, media_url: deps.signMedia(m.media_url) })),
    actions,
    step_id: next.stepId,
    visited,
    handed_over: next.handedOver,
    state: { step_id: next.stepId, fallback_count: next.fallbackCount, handed_over: next.handedOver, variables },
  });

  // Handed over: a person answers now; the test chat starts over with reset.
  if (state.handedOver) return result(state);

  const reply = { buttonId: body.button_id, text: body.text };
  const plan = decide(bot, incoming ? state : { ...NEW_CONVERSATION }, incoming ? reply : { buttonId: null, text: null });
  if (incoming && !reply.buttonId && !plan.chosen && OPT_OUT_KEYWORDS.includes((reply.text ?? '').trim().toLowerCase())) {
    messages.push({ type: 'text', text: OPT_OUT_CONFIRMATION, media_url: null, buttons: null, step_id: null });
    actions.push({ step_id: null, type: 'opt_out', description: 'Opts the customer out (keyword)', applied: false, error: null });
    return result({ ...NEW_CONVERSATION });
  }
  Object.assign(variables, plan.setVariables);
  const vars = () => ({ ...TEST_VARIABLES, ...variables });
  for (const item of plan.items) {
    if (item.kind === 'enter') {
      visited.push(item.step.id);
      for (const out of stepMessages(item.step, vars())) messages.push(toMessage(out, item.step.id));
      for (const action of item.step.actions) {
        const entry: TestChatAction = { step_id: item.step.id, type: action.type, description: describeAction(action), applied: false, error: null };
        if (action.type === 'ai_answer' && !(incoming && !reply.buttonId && reply.text?.trim())) {
          // As live: a button picked (or the test's start) carries no question, and the bot goes on.
          entry.description = 'Would ask the assistant, but the message that led here has no text to answer: the bot goes on';
        }
        if (action.type === 'run_operation') {
          if (!deps.runOperation) entry.error = 'Operations are not available.';
          else {
            try {
              Object.assign(variables, await deps.runOperation({ companyId: bot.companyId, operationId: action.operation_id, variables: { ...vars(), ...action.variables } }));
              entry.applied = true;
            } catch (err) {
              entry.error = err instanceof Error ? err.message : String(err);
            }
          }
        }
        actions.push(entry);
      }
    } else if (item.kind === 'repeat') {
      for (const out of repeatedQuestion(item.step, vars())) messages.push(toMessage(out, item.step.id));
    } else {
      messages.push({ type: 'text', text: HAND_OVER_TEXT, media_url: null, buttons: null, step_id: null });
      actions.push({ step_id: null, type: 'hand_over', description: describeAction({ type: 'hand_over' }), applied: false, error: null });
    }
  }
  return result(plan.next);
}
