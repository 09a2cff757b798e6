/**
 * The ai_answer action's answerer (issue #24), supplied by the assistant plugin through the bots'
 * extension point (the bots never import the assistant). Until one is set there is nobody to ask:
 * the runtime hands the conversation over itself, so the customer's question reaches a person.
 */
import type { Message } from '../../../../contract/chats';
import type { RoomRecord } from '../../chats';
import type { BotAssistant } from '../index';

/** What became of the question: answered (the bot goes on), or handed to a person (the bot stops there). */
export type AiAnswerOutcome = 'answered' | 'handed_over';

/**
 * Asks the company's assistant to answer `question`, the text of the customer's message `inbound` in
 * `room`; the assistant sends its answer (or its hand-over) itself, once per customer message.
 */
export type AssistantAnswerer = (room: RoomRecord, inbound: Message, question: string) => Promise<AiAnswerOutcome>;

export class AssistantAnswererSlot implements BotAssistant {
  private answerer: AssistantAnswerer | null = null;

  set(answerer: AssistantAnswerer): void {
    if (this.answerer) throw new Error('An assistant answerer is set twice');
    this.answerer = answerer;
  }

  /** Null: no assistant plugin is loaded. */
  get(): AssistantAnswerer | null {
    return this.answerer;
  }
}
