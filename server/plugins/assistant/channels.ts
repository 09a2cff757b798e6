/**
 * The assistant on the channels (issue #24): chats' inbound pipeline handler at order 150, after the
 * flows (100: their keywords and running flows answer first) and before the bots (200), which it leaves
 * every message a bot step takes (the bot starting, an option picked, an input filled, an opt-out):
 * the assistant answers the free text left, on the channels its settings list, while it is enabled.
 *
 * Decision per customer message: the customer asks for a person, the plan allows no more answers this
 * month, or the knowledge holds nothing above the threshold (or the question is an injection attempt)
 * → hand-over; the model failing to answer (an error, no citation) is an unanswered question, and the
 * second in a row hands over (the first asks to say it another way). A hand-over says so, pauses the
 * room for a day (the bot is silent too) and opens it for a person, assigned by the channel's
 * auto-assignment, exactly as the bots' hand-over does. Silent (and 'passed') while the room is paused.
 *
 * Exactly once per customer message, as the bot runtime: the reply is decided, then CLAIMED by a
 * conditional update of the room's `assistant_conversations` row (`last_inbound_message_id` moves from
 * the value read to the message's id) carrying the reply as `pending_reply`; the message is stored with
 * the client id `ai:{message}` (idempotent), then the pending mark is cleared. A process killed in
 * between leaves the mark, and the pipeline's re-run of that message sends the stored reply.
 *
 * A bot step's ai_answer action (issue #24, `answerForBot`, set on the bots' extension point) asks the same
 * decision for the customer's message that led to the step, on any channel of the bot (the step is the opt-in,
 * the channel list is not consulted), with the same claim, key, mark, metering and hand-over. Two differences:
 * the company's assistant turned off (`enabled` false) hands over, since the business said no AI answers and
 * the bot's question still deserves a person rather than silence; and a question the model fails to answer
 * hands over at once instead of asking to rephrase, since the bot goes on to its next step and the rephrased
 * text would reach the bot, not the assistant.
 */
import { and, eq } from 'drizzle-orm';
import { ASSISTANT_MESSAGE_KEY, ASSISTANT_TEXTS, type AssistantMessageMark } from '../../../contract/assistant';
import type { Message } from '../../../contract/chats';
import type { Clock } from '../../core/clock';
import type { Database } from '../../core/db/client';
import type { BotRuntime } from '../bots';
import type { ChatActor, ChatService, InboundOutcome, RoomRecord } from '../chats';
import type { AssistantService } from './assistantService';
import { asksForPerson } from './handover';
import type { AssistantMetering } from './metering';
import { assistantConversations, assistantQuestions, type PendingAssistantReply } from './schema';

/** Who asks: the channels' own handler (free text on a listed channel), or a bot step's ai_answer. */
type AskedBy = 'channel' | 'bot';
/** Why a bot's ai_answer handed over without asking: the company's assistant is turned off (not a gap in the knowledge). */
export const DISABLED_REASON = 'assistant_disabled';

/** Questions in a row the assistant could not answer before it hands over. */
export const UNANSWERED_LIMIT = 2;
const DAY_MS = 24 * 3600_000;
/** A hand-over pauses the room this long (the bots' HAND_OVER_PAUSE_DAYS). */
export const HAND_OVER_PAUSE_MS = DAY_MS;
const CLAIM_ATTEMPTS = 5;

export interface AssistantChannelsDeps {
  db: Database;
  clock: Clock;
  chats: ChatService;
  assistant: AssistantService;
  metering: AssistantMetering;
  /** The bots' runtime, when the bots plugin is loaded: the assistant leaves it what a bot step takes. */
  bots: Pick<BotRuntime, 'takes'> | null;
  log: { info(obj: unknown, msg?: string): void; warn(obj: unknown, msg?: string): void; error(obj: unknown, msg?: string): void };
}

type ConversationRow = typeof assistantConversations.$inferSelect;

/** The client id of the assistant's reply to a customer message. */
export const assistantClientId = (messageId: number): string => `ai:${messageId}`;

/** What the assistant does with a customer's message, and why (an AskReason, or a hand-over's own reason). */
interface Decision {
  reply: PendingAssistantReply;
  unanswered: number;
  reason: string;
}

export class AssistantChannels {
  constructor(private readonly deps: AssistantChannelsDeps) {}

  /** The pipeline step: 'handled' when the assistant answered (or handed over) the customer's message. */
  async handle(room: RoomRecord, message: Message): Promise<InboundOutcome> {
    if (message.origin !== 'user' || message.type !== 'text') return 'passed';
    const text = (message.text ?? '').trim();
    if (!text || room.blockedAt) return 'passed';
    const settings = await this.deps.assistant.settings(room.companyId);
    if (!settings.enabled || !settings.channels.includes(room.channelId)) return 'passed';
    const paused = !!room.pausedUntil && room.pausedUntil.getTime() > this.deps.clock.now().getTime();
    if (paused) return 'passed';
    if (this.deps.bots && (await this.deps.bots.takes(room, message))) return 'passed';
    await this.answer(room, message, text, 'channel');
    return 'handled';
  }

  /**
   * A bot step's ai_answer: the assistant answers (or hands over) the customer's `message`, once per message
   * however often it is asked. 'handed_over' tells the bot to stop there; an answer lets it go on.
   */
  async answerForBot(room: RoomRecord, message: Message, question: string): Promise<'answered' | 'handed_over'> {
    // Unknown (the question's record failed, or five claims in a row lost) counts as answered: the bot goes on,
    // as it does after any action that failed.
    return (await this.answer(room, message, question.trim(), 'bot')) === 'handover' ? 'handed_over' : 'answered';
  }

  private async conversation(roomId: number): Promise<ConversationRow | null> {
    const [row] = await this.deps.db.select().from(assistantConversations).where(eq(assistantConversations.roomId, roomId));
    return row ?? null;
  }

  /** What became of the customer's message (null: not known, or left unanswered). */
  private async answer(room: RoomRecord, message: Message, text: string, by: AskedBy): Promise<PendingAssistantReply['kind'] | null> {
    for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
      const conv = await this.conversation(room.id);
      if (conv && conv.lastInboundMessageId >= message.id) {
        // Claimed before: unfinished only when its process stopped mid-answer (the pipeline re-runs only then).
        const pending = conv.pendingReply;
        if (pending && pending.messageId === message.id) {
          this.deps.log.info({ roomId: room.id, messageId: message.id }, 'assistant: finishing a reply claimed by a process that stopped');
          await this.perform(room, message, pending);
          return pending.kind;
        }
        return this.outcomeOf(message.id);
      }
      const decision = await this.decide(room, text, conv?.unanswered ?? 0, message.id, by);
      const { reply, unanswered } = decision;
      if (!(await this.claim(room, conv, message.id, reply, unanswered))) continue;
      await this.record(room, message, text, decision);
      if (reply.kind === 'answer') await this.deps.metering.count(room.companyId, 'answer', `answer:${message.id}`, this.deps.clock.now());
      await this.perform(room, message, reply);
      return reply.kind;
    }
    this.deps.log.warn({ roomId: room.id, messageId: message.id }, 'assistant: could not claim the message, left unanswered');
    return null;
  }

  /** What was decided for a message answered before (a bot asking again after a replay): its recorded question. */
  private async outcomeOf(messageId: number): Promise<PendingAssistantReply['kind'] | null> {
    const [row] = await this.deps.db.select({ outcome: assistantQuestions.outcome }).from(assistantQuestions).where(eq(assistantQuestions.messageId, messageId));
    return row?.outcome ?? null;
  }

  private async decide(room: RoomRecord, text: string, unansweredBefore: number, messageId: number, by: AskedBy): Promise<Decision> {
    const handover = (reason: string): Decision => ({ reply: { messageId, kind: 'handover', text: ASSISTANT_TEXTS.handOver, sources: [] }, unanswered: 0, reason });
    // Turned off, the company wants no AI answers; the question the bot asked for still goes to a person (see the header).
    if (by === 'bot' && !(await this.deps.assistant.settings(room.companyId)).enabled) return handover(DISABLED_REASON);
    if (asksForPerson(text)) return handover('asked_for_person');
    if (!(await this.deps.metering.allowed(room.companyId))) return handover('plan_limit');
    const result = await this.deps.assistant.ask(room.companyId, text);
    if (!result.handover && result.answer) return { reply: { messageId, kind: 'answer', text: result.answer, sources: result.sources }, unanswered: 0, reason: result.reason };
    if (by === 'channel' && (result.reason === 'provider_error' || result.reason === 'no_citation')) {
      const unanswered = unansweredBefore + 1;
      if (unanswered >= UNANSWERED_LIMIT) return handover('unanswered_twice');
      return { reply: { messageId, kind: 'rephrase', text: ASSISTANT_TEXTS.rephrase, sources: [] }, unanswered, reason: result.reason };
    }
    return handover(result.reason);
  }

  /** The question and what became of it, for /stats (once per message, whichever process decided). */
  private async record(room: RoomRecord, message: Message, text: string, decision: Decision): Promise<void> {
    try {
      await this.deps.db
        .insert(assistantQuestions)
        .values({ companyId: room.companyId, roomId: room.id, messageId: message.id, question: text.slice(0, 500), outcome: decision.reply.kind, reason: decision.reason, createdAt: this.deps.clock.now() })
        .onConflictDoNothing();
    } catch (err) {
      this.deps.log.warn({ err, roomId: room.id, messageId: message.id }, 'assistant: recording the question for the stats');
    }
  }

  private async claim(room: RoomRecord, conv: ConversationRow | null, messageId: number, reply: PendingAssistantReply, unanswered: number): Promise<boolean> {
    const values = { lastInboundMessageId: messageId, unanswered, pendingReply: reply, updatedAt: this.deps.clock.now() };
    if (!conv) {
      const inserted = await this.deps.db
        .insert(assistantConversations)
        .values({ roomId: room.id, companyId: room.companyId, ...values })
        .onConflictDoNothing()
        .returning({ roomId: assistantConversations.roomId });
      return inserted.length > 0;
    }
    const updated = await this.deps.db
      .update(assistantConversations)
      .set(values)
      .where(and(eq(assistantConversations.roomId, room.id), eq(assistantConversations.lastInboundMessageId, conv.lastInboundMessageId)))
      .returning({ roomId: assistantConversations.roomId });
    return updated.length > 0;
  }

  /** Sends the claimed reply (idempotent on its client id), hands over when it says so, then clears the pending mark. */
  private async perform(room: RoomRecord, message: Message, reply: PendingAssistantReply): Promise<void> {
    const mark: AssistantMessageMark = { sources: reply.sources, handover: reply.kind === 'handover' };
    try {
      await this.deps.chats.sendBotMessage(room, {
        type: 'text',
        text: reply.text,
        data: { [ASSISTANT_MESSAGE_KEY]: mark },
        client_id: assistantClientId(message.id),
        sender_name: ASSISTANT_TEXTS.senderName,
      });
    } catch (err) {
      this.deps.log.error({ err, roomId: room.id, messageId: message.id }, 'assistant: sending a reply');
    }
    if (reply.kind === 'handover') {
      try {
        const current = (await this.deps.chats.roomRecord(room.id)) ?? room;
        const until = new Date(this.deps.clock.now().getTime() + HAND_OVER_PAUSE_MS).toISOString();
        await this.deps.chats.setPausedUntil(this.actor(room), current, until);
        // A person takes over: the room opens, the channel's auto-assignment (if on) picks who (issue #22).
        await this.deps.chats.handOver(room);
      } catch (err) {
        this.deps.log.error({ err, roomId: room.id, messageId: message.id }, 'assistant: handing over');
      }
    }
    await this.deps.db
      .update(assistantConversations)
      .set({ pendingReply: null })
      .where(and(eq(assistantConversations.roomId, room.id), eq(assistantConversations.lastInboundMessageId, message.id)));
  }

  /** The assistant acting in the inbox (the pause), announced to the room like the bots' actions. */
  private actor(room: RoomRecord): ChatActor {
    return { userId: -1, email: '', name: ASSISTANT_TEXTS.senderName, companyId: room.companyId, role: 'admin' };
  }
}
