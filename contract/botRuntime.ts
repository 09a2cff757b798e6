/**
 * The bot runtime's API (server/plugins/bots/runtime): the builder's TEST CHAT.
 *
 *   POST /api/bots/{id}/test-chat/   TestChatBody → 200 TestChatResponse   (main API: bearer + Company, flows manage)
 *
 * It runs the same runtime as live rooms (same transitions, option matching, fallback, messages and
 * buttons) in a private conversation that lives only in the test chat: nothing is stored and no
 * customer or inbox sees it. The conversation's state travels with each call: send back the `state`
 * of the previous answer. Without `state` (or with `reset`), the conversation starts over at the
 * bot's start step (the greeting), whatever the text. Actions are reported, not applied (there is no
 * room to tag or pause), except `run_operation`, which runs for real so its variables show up.
 */
import { z } from 'zod';
import { STEP_ID_PATTERN, VARIABLE_PATTERN, type StepActionType } from './bots';

export const TEST_CHAT_LIMITS = { text: 4096, buttonId: 64, variables: 50, variableValue: 1000 } as const;

const stepRef = () => z.string().trim().min(1).max(64).regex(STEP_ID_PATTERN, 'Use letters, digits, "_", "-", "." or ":" only.');

export const TestChatState = z.object({
  /** The step whose question waits for an answer (null: not started or ended). */
  step_id: stepRef().nullable(),
  fallback_count: z.number().int().min(0).max(10),
  handed_over: z.boolean(),
  variables: z
    .record(z.string().max(64).regex(VARIABLE_PATTERN, 'Invalid variable name.'), z.string().max(TEST_CHAT_LIMITS.variableValue))
    .refine((v) => Object.keys(v).length <= TEST_CHAT_LIMITS.variables, `Ensure this field has no more than ${TEST_CHAT_LIMITS.variables} elements.`)
    .default({}),
});
export type TestChatState = z.output<typeof TestChatState>;

export const TestChatBody = z.object({
  /** The previous answer's state; null or absent: a new conversation. */
  state: TestChatState.nullable().default(null),
  /** Start over (the greeting), ignoring `state` and the text. */
  reset: z.boolean().default(false),
  /** What the tester typed. */
  text: z.string().max(TEST_CHAT_LIMITS.text, `Ensure this field has no more than ${TEST_CHAT_LIMITS.text} characters.`).nullable().default(null),
  /** The id of the button the tester pressed (an option id). */
  button_id: z.string().trim().min(1).max(TEST_CHAT_LIMITS.buttonId).nullable().default(null),
});
export type TestChatBody = z.input<typeof TestChatBody>;

/** One bot message as the customer would get it. */
export interface TestChatMessage {
  /** text, interactive (with buttons), image, video, audio, document. */
  type: string;
  text: string | null;
  media_url: string | null;
  /** The options as the channel's buttons; null when the message offers none. */
  buttons: { id: string; title: string }[] | null;
  /** The step that sent it (null: the fallback's hand-over message). */
  step_id: string | null;
}

/** An action the step would run in a live room. */
export interface TestChatAction {
  step_id: string | null;
  type: StepActionType;
  /** What it does, in words (e.g. 'Adds the tag "vip"'). */
  description: string;
  /** true only for run_operation (run for real); the others are not applied in the test chat. */
  applied: boolean;
  /** run_operation that failed: why. */
  error: string | null;
}

export interface TestChatResponse {
  messages: TestChatMessage[];
  actions: TestChatAction[];
  /** The step the conversation waits on now (highlight it on the canvas); null when it ended or was handed over. */
  step_id: string | null;
  /** The steps entered by this answer, in order. */
  visited: string[];
  /** Handed over to a person: the bot stays silent until the test chat starts over. */
  handed_over: boolean;
  state: TestChatState;
}
