/**
 * The live bot runtime: answers a customer's message in a room whose channel runs an active bot.
 *
 * It runs after the message is stored (chats' inbound pipeline, after the flows) and keeps every bit of state in
 * `bot_conversations` (one row per room), so a restart resumes at the right step. Exactly one answer
 * per inbound message, whatever the replays or processes: the answer is CLAIMED first by a
 * conditional update (`last_inbound_message_id` moves from the value read to the message's id; an
 * insert on the room's unique row for a first message) carrying the conversation's next state; who
 * loses the race re-reads and finds the message answered. The claim also stores what the answer was
 * decided from (`pending_answer`: the previous state and variables), cleared once the answer is
 * through: a process killed between the claim and its sends leaves it, and the pipeline's re-run of
 * that message (another process, once the room's lease ran out) decides the same answer again and
 * sends it; bot messages carry `bot:{message}:{n}` client ids, so what was sent before the kill is not
 * sent again (exactly one answer; an operation of the answer may run a second time).
 *
 * A step's ai_answer action (issue #24) asks the assistant (the answerer the assistant plugin set on the
 * bots' extension point) to answer the customer's message before the step's own messages: answered, the
 * bot goes on; handed over (the assistant could not answer and said so, paused the room and opened it for
 * a person), the bot stops there and its conversation is handed over like after a hand_over action.
 *
 * Silence: the room paused (paused_until in the future: the inbox's pause or a pause_bot action),
 * the customer opted out, or the room blocked. A hand-over pauses the room (the inbox shows it
 * paused until the date) and marks the conversation handed over; once the room is no longer paused
 * (the pause ran out, or an agent resumed the bot) the next message starts the bot over.
 */
import { and, eq } from 'drizzle-orm';
import type { Message } from '../../../../contract/chats';
import type { Clock } from '../../../core/clock';
import type { Database } from '../../../core/db/client';
import type { ChatActor, ChatService, InboundOutcome, RoomRecord } from '../../chats';
import { botConversations, botOptOuts, type PendingBotAnswer } from '../schema';
import {
  decide,
  HAND_OVER_TEXT,
  NEW_CONVERSATION,
  repeatedQuestion,
  stepMessages,
  type ConversationState,
  type InboundReply,
  type OutgoingBotMessage,
  type Plan,
  type RuntimeAction,
  type RuntimeBot,
} from './engine';
import { activeBotOfChannel, loadBot, type BotRow } from './graph';
import type { AiAnswerOutcome, AssistantAnswerer } from './assistantAnswerer';

export const DAY_MS = 24 * 3600_000;
/** Spec §4/§9: the default pause is one day; a hand-over pauses the room that long. */
export const HAND_OVER_PAUSE_DAYS = 1;
/** Typed alone, these opt the customer out (reason "keyword"). */
export const OPT_OUT_KEYWORDS = ['stop', 'unsubscribe'];
export const OPT_OUT_CONFIRMATION = 'You will not receive automatic messages from us any more.';
/** Attempts at claiming one message when another answer moved the conversation meanwhile. */
const CLAIM_ATTEMPTS = 5;

/** Starts a flow (by id or name) in the room: a step's start_flow action. False when the company has no such flow. */
export type FlowStarter = (room: RoomRecord, flow: number | string, inbound: Message) => Promise<boolean>;

/** Runs an operation of the company with the conversation's variables; resolves with the variables its response sets. */
export type OperationRunner = (input: { companyId: number; operationId: number; variables: Record<string, string> }) => Promise<Record<string, string>>;

export interface BotRuntimeDeps {
  db: Database;
  clock: Clock;
  chats: ChatService;
  runOperation: OperationRunner | null;
  /** The start_flow action (absent: no flows plugin; the action names no flow and the bot goes on). */
  startFlow?: FlowStarter;
  /** The ai_answer action's answerer (null or absent: no assistant plugin; the action hands over). */
  answerWithAssistant?: () => AssistantAnswerer | null;
  log: { info(obj: unknown, msg?: string): void; warn(obj: unknown, msg?: string): void; error(obj: unknown, msg?: string): void };
}

type ConversationRow = typeof botConversations.$inferSelect;

/** What the customer's message answers: a button/list/quick reply id (sandbox: data.button_reply; Meta: data.id) and its text. */
export function replyOf(message: Pick<Message, 'type' | 'text' | 'data'>): InboundReply {
  const data = (message.data ?? {}) as Record<string, unknown>;
  let buttonId: string | null = null;
  if (message.type === 'button_reply' || message.type === 'list_reply') {
    const nested = (data.button_reply ?? data.list_reply) as { id?: unknown } | undefined;
    const id = nested && typeof nested === 'object' ? nested.id : data.id;
    if (typeof id === 'string' || typeof id === 'number') buttonId = String(id);
  }
  return { buttonId, text: message.text ?? null };
}

/** The conversation's variables every operation and message may use. */
export function builtinVariables(room: Pick<RoomRecord, 'id' | 'name' | 'externalId' | 'platform'>): Record<string, string> {
  return { 'customer.name': room.name, 'customer.external_id': room.externalId, 'room.id': String(room.id), 'channel.platform': room.platform };
}

export class BotRuntime {
  constructor(private readonly deps: BotRuntimeDeps) {}

  private get db(): Database {
    return this.deps.db;
  }

  /** The bot service's operation runner (null: run_operation actions are skipped); tests give their own. */
  useOperationRunner(runner: OperationRunner | null): void {
    this.deps.runOperation = runner;
  }

  get operationRunner(): OperationRunner | null {
    return this.deps.runOperation;
  }

  /**
   * The bots' step of chats' inbound pipeline, which hands it a room's messages one at a time, in id
   * order and once each across every process (chats/inboundQueue.ts), so the "id at or below the last
   * answered: a replay" rule below never meets an earlier message handled late; the claim still keeps a
   * second runtime out (a handler that outlived its room's lease). Only
   * customers' messages are answered; 'handled' when the room's channel runs a bot of its company.
   */
  async handle(room: RoomRecord, message: Message): Promise<InboundOutcome> {
    if (message.origin !== 'user') return 'passed';
    return (await this.answer(room.id, message)) ? 'handled' : 'passed';
  }

  /**
   * Whether this bot runtime takes the customer's message (the assistant, before the bots in the pipeline,
   * answers only free text no bot step takes): true when the room's channel runs a bot of its company and the
   * message starts (or starts over) the bot, picks one of the waiting step's options, fills its input, or opts
   * out; false for free text the bot would only repeat its question to (or fall back on), and with no bot.
   */
  async takes(room: RoomRecord, message: Message): Promise<boolean> {
    const botRow = await activeBotOfChannel(this.db, room.channelId);
    if (!botRow || botRow.companyId !== room.companyId) return false;
    const conv = await this.conversation(room.id);
    if (conv && conv.lastInboundMessageId >= message.id) return true;
    if (!conv || conv.botId !== botRow.id || conv.handedOverAt !== null) return true;
    const reply = replyOf(message);
    if (!reply.buttonId && OPT_OUT_KEYWORDS.includes((reply.text ?? '').trim().toLowerCase())) return true;
    const plan = decide(await loadBot(this.db, botRow), { stepId: conv.currentStepId, fallbackCount: conv.fallbackCount, handedOver: false }, reply);
    return !plan.items.some((item) => item.kind === 'repeat' || item.kind === 'fallback_hand_over') && (plan.chosen !== null || Object.keys(plan.setVariables).length > 0 || conv.currentStepId === null);
  }

  private async conversation(roomId: number): Promise<ConversationRow | null> {
    const [row] = await this.db.select().from(botConversations).where(eq(botConversations.roomId, roomId));
    return row ?? null;
  }

  private async optedOut(room: RoomRecord): Promise<boolean> {
    const [row] = await this.db
      .select({ id: botOptOuts.id })
      .from(botOptOuts)
      .where(and(eq(botOptOuts.channelId, room.channelId), eq(botOptOuts.externalId, room.externalId)));
    return !!row;
  }

  /**
   * Claims the message for this answer and stores the conversation's next state in the same
   * statement. False: another answer got there first (re-read and decide again).
   */
  private async claim(
    room: RoomRecord,
    bot: BotRow,
    conv: ConversationRow | null,
    messageId: number,
    next: ConversationState,
    variables: Record<string, string>,
    pendingAnswer: PendingBotAnswer | null,
  ): Promise<boolean> {
    const now = this.deps.clock.now();
    const values = {
      botId: bot.id,
      currentStepId: next.stepId,
      fallbackCount: next.fallbackCount,
      handedOverAt: next.handedOver ? (conv?.handedOverAt && conv.botId === bot.id ? conv.handedOverAt : now) : null,
      lastInboundMessageId: messageId,
      variables,
      pendingAnswer,
      updatedAt: now,
    };
    if (!conv) {
      const inserted = await this.db
        .insert(botConversations)
        .values({ companyId: room.companyId, roomId: room.id, ...values })
        .onConflictDoNothing()
        .returning({ id: botConversations.id });
      return inserted.length > 0;
    }
    const updated = await this.db
      .update(botConversations)
      .set(values)
      .where(and(eq(botConversations.id, conv.id), eq(botConversations.lastInboundMessageId, conv.lastInboundMessageId)))
      .returning({ id: botConversations.id });
    return updated.length > 0;
  }

  /**
   * The bot's answer to one customer message (at most once per message). False when no bot of the
   * room's company runs on its channel (or the room is gone or blocked); true when the bot answered
   * it, stayed silent on purpose (paused, opted out) or found it answered already.
   */
  async answer(roomId: number, message: Message): Promise<boolean> {
    for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
      const room = await this.deps.chats.roomRecord(roomId);
      if (!room || room.blockedAt) return false;
      const botRow = await activeBotOfChannel(this.db, room.channelId);
      if (!botRow || botRow.companyId !== room.companyId) return false;
      const conv = await this.conversation(room.id);
      if (conv && conv.lastInboundMessageId >= message.id) {
        // Claimed before. Unfinished (its process was killed mid-answer; the pipeline runs a message
        // again only then): the answer is decided again from what the claim stored and sent.
        const pending = conv.pendingAnswer;
        if (pending && pending.messageId === message.id && conv.botId === botRow.id && conv.lastInboundMessageId === message.id) {
          this.deps.log.info({ roomId, messageId: message.id }, 'bot runtime: finishing an answer claimed by a process that stopped');
          await this.perform(room, await loadBot(this.db, botRow), message, pending);
        }
        return true;
      }

      const sameBot = !!conv && conv.botId === botRow.id;
      const state: ConversationState = sameBot
        ? { stepId: conv!.currentStepId, fallbackCount: conv!.fallbackCount, handedOver: conv!.handedOverAt !== null }
        : { ...NEW_CONVERSATION };
      const variables = sameBot ? { ...(conv!.variables ?? {}) } : {};
      const now = this.deps.clock.now();
      const paused = !!room.pausedUntil && room.pausedUntil.getTime() > now.getTime();

      if (paused || (await this.optedOut(room))) {
        // Silent, but the message counts as seen: it is not answered later (a replay after the pause).
        if (await this.claim(room, botRow, conv, message.id, state, variables, null)) return true;
        continue;
      }

      const bot = await loadBot(this.db, botRow);
      // Back from a hand-over (the room is no longer paused): the bot starts over.
      const pending: PendingBotAnswer = { messageId: message.id, from: state.handedOver ? { ...NEW_CONVERSATION } : state, variables };
      const decided = this.decideAnswer(bot, message, pending);
      if (!(await this.claim(room, botRow, conv, message.id, decided.next, decided.variables, pending))) continue;
      await this.perform(room, bot, message, pending);
      return true;
    }
    this.deps.log.warn({ roomId, messageId: message.id }, 'bot runtime: could not claim the message, left unanswered');
    return true;
  }

  /**
   * The answer to a customer message from the state it is decided from (pure: the same inputs give the
   * same plan, which is what lets a re-run after a killed process send the same messages).
   */
  private decideAnswer(bot: RuntimeBot, message: Message, pending: PendingBotAnswer): { optOut: boolean; plan: Plan; next: ConversationState; variables: Record<string, string> } {
    const reply = replyOf(message);
    const keyword = !reply.buttonId && OPT_OUT_KEYWORDS.includes((reply.text ?? '').trim().toLowerCase());
    const plan: Plan = decide(bot, pending.from, reply);
    if (keyword && !plan.chosen) return { optOut: true, plan, next: { ...NEW_CONVERSATION }, variables: pending.variables };
    return { optOut: false, plan, next: plan.next, variables: { ...pending.variables, ...plan.setVariables } };
  }

  /** Sends the claimed answer (its messages and actions), then marks it finished. */
  private async perform(room: RoomRecord, bot: RuntimeBot, message: Message, pending: PendingBotAnswer): Promise<void> {
    const decided = this.decideAnswer(bot, message, pending);
    if (decided.optOut) {
      await this.optOut(room, bot, 'keyword');
      await this.say(room, bot, message, 0, { type: 'text', text: OPT_OUT_CONFIRMATION, media_url: null, buttons: null }, null);
      return this.remember(room, message, decided.variables, false, null);
    }
    await this.execute(room, bot, decided.plan, message, { ...decided.variables });
  }

  /** Sends what the plan says, in order: each entered step's messages, then its actions. */
  private async execute(room: RoomRecord, bot: RuntimeBot, plan: Plan, inbound: Message, variables: Record<string, string>): Promise<void> {
    let n = 0;
    let lastBotMessageId: number | null = null;
    const vars = { ...builtinVariables(room), ...variables };
    const sendAll = async (outgoing: OutgoingBotMessage[], stepId: string | null) => {
      for (const out of outgoing) {
        const sent = await this.say(room, bot, inbound, n++, out, stepId);
        if (sent) lastBotMessageId = sent.id;
      }
    };
    let varsChanged = false;
    for (const item of plan.items) {
      if (item.kind === 'enter') {
        // The assistant answers the customer's message first; the step's messages ("Anything else?") follow.
        if (item.step.actions.some((a) => a.type === 'ai_answer')) {
          const outcome = await this.aiAnswer(room, bot, inbound, item.step.id, () => sendAll([{ type: 'text', text: HAND_OVER_TEXT, media_url: null, buttons: null }], item.step.id));
          if (outcome === 'handed_over') return this.remember(room, inbound, variables, varsChanged, lastBotMessageId, true);
        }
        await sendAll(stepMessages(item.step, vars), item.step.id);
        for (const action of item.step.actions) {
          if (action.type === 'start_flow') {
            // The flow takes the conversation over: the bot says nothing more this turn, and the
            // customer's next messages go to the flow (its runtime answers before the bot's).
            if (await this.startFlow(room, bot, action.flow_id, inbound)) return this.remember(room, inbound, variables, varsChanged, lastBotMessageId);
            continue;
          }
          const set = await this.act(room, bot, action, vars);
          if (set && Object.keys(set).length > 0) {
            Object.assign(vars, set);
            Object.assign(variables, set);
            varsChanged = true;
          }
        }
      } else if (item.kind === 'repeat') {
        await sendAll(repeatedQuestion(item.step, vars), item.step.id);
      } else {
        await sendAll([{ type: 'text', text: HAND_OVER_TEXT, media_url: null, buttons: null }], null);
        await this.act(room, bot, { type: 'hand_over' }, vars);
      }
    }
    await this.remember(room, inbound, variables, varsChanged, lastBotMessageId);
  }

  /**
   * The answer to `inbound` is through: its pending mark goes, with the conversation's variables (when
   * an operation set some) and the last bot message. Only while the conversation is still at that
   * message (a later answer already wrote its own state).
   */
  private async remember(
    room: RoomRecord,
    inbound: Message,
    variables: Record<string, string>,
    varsChanged: boolean,
    lastBotMessageId: number | null,
    handedOver = false,
  ): Promise<void> {
    // Handed over by the assistant (ai_answer): the conversation ends as after a hand_over action, so the bot
    // starts over once the room is no longer paused.
    const ended = handedOver ? { currentStepId: null, fallbackCount: 0, handedOverAt: this.deps.clock.now() } : {};
    await this.db
      .update(botConversations)
      .set({ pendingAnswer: null, ...ended, ...(varsChanged ? { variables } : {}), ...(lastBotMessageId !== null ? { lastBotMessageId } : {}) })
      .where(and(eq(botConversations.roomId, room.id), eq(botConversations.lastInboundMessageId, inbound.id)));
  }

  private async startFlow(room: RoomRecord, bot: RuntimeBot, flow: number | string, inbound: Message): Promise<boolean> {
    try {
      if (await this.deps.startFlow?.(room, flow, inbound)) return true;
      this.deps.log.warn({ roomId: room.id, botId: bot.id, flow }, 'bot runtime: start_flow names no flow of the company, the bot goes on');
    } catch (err) {
      this.deps.log.error({ err, roomId: room.id, botId: bot.id, flow }, 'bot runtime: start_flow failed, the bot goes on');
    }
    return false;
  }

  /**
   * A step's ai_answer: the assistant answers the text of the customer's message that led to the step (once per
   * customer message, whichever steps ask). A message without text (a button picked, a photo) asks nothing: the
   * bot goes on. No assistant to ask, or asking failed: the bot hands over itself, so the question reaches a person.
   */
  private async aiAnswer(room: RoomRecord, bot: RuntimeBot, inbound: Message, stepId: string, sayHandOver: () => Promise<void>): Promise<AiAnswerOutcome | 'no_question'> {
    const question = inbound.type === 'text' ? (inbound.text ?? '').trim() : '';
    if (!question) {
      this.deps.log.info({ roomId: room.id, botId: bot.id, stepId, messageId: inbound.id }, 'bot runtime: ai_answer on a message without text, the bot goes on');
      return 'no_question';
    }
    const answerer = this.deps.answerWithAssistant?.() ?? null;
    if (answerer) {
      try {
        return await answerer(room, inbound, question);
      } catch (err) {
        this.deps.log.error({ err, roomId: room.id, botId: bot.id, stepId }, 'bot runtime: ai_answer failed, handing over');
      }
    } else {
      this.deps.log.warn({ roomId: room.id, botId: bot.id, stepId }, 'bot runtime: ai_answer without an assistant, handing over');
    }
    await sayHandOver();
    await this.act(room, bot, { type: 'hand_over' }, {});
    return 'handed_over';
  }

  private async say(room: RoomRecord, bot: RuntimeBot, inbound: Message, n: number, out: OutgoingBotMessage, stepId: string | null): Promise<Message | null> {
    try {
      const { message } = await this.deps.chats.sendBotMessage(room, {
        type: out.type as Message['type'],
        text: out.text,
        media_url: out.media_url,
        data: out.buttons ? { buttons: out.buttons, bot: { id: bot.id, step_id: stepId } } : null,
        client_id: `bot:${inbound.id}:${n}`,
        sender_name: bot.name,
      });
      return message;
    } catch (err) {
      this.deps.log.error({ err, roomId: room.id, botId: bot.id, stepId }, 'bot runtime: sending a bot message');
      return null;
    }
  }

  /** The bot acting in the inbox (tags, pause): changes are announced to the room like an agent's. */
  private actor(room: RoomRecord, bot: RuntimeBot): ChatActor {
    return { userId: -1, email: '', name: bot.name, companyId: room.companyId, role: 'admin' };
  }

  /** One action of a step; resolves with the variables it sets (operations). A failing action is logged and skipped. */
  private async act(room: RoomRecord, bot: RuntimeBot, action: RuntimeAction, variables: Record<string, string>): Promise<Record<string, string> | null> {
    const chats = this.deps.chats;
    const actor = this.actor(room, bot);
    const now = this.deps.clock.now().getTime();
    try {
      switch (action.type) {
        case 'add_tag':
          await chats.addTag(actor, (await chats.roomRecord(room.id))!, action.tag);
          return null;
        case 'remove_tag':
          await chats.removeTag(actor, (await chats.roomRecord(room.id))!, action.tag);
          return null;
        case 'assign_agent':
          // Spec §5: a tag named like an e-mail address assigns the room to that agent.
          await chats.addTag(actor, (await chats.roomRecord(room.id))!, action.email);
          return null;
        case 'pause_bot':
          await chats.setPausedUntil(actor, (await chats.roomRecord(room.id))!, new Date(now + action.days * DAY_MS).toISOString());
          return null;
        case 'hand_over':
          await chats.setPausedUntil(actor, (await chats.roomRecord(room.id))!, new Date(now + HAND_OVER_PAUSE_DAYS * DAY_MS).toISOString());
          // A person takes over: the room opens (issue #22).
          await chats.handOver(room);
          return null;
        case 'opt_out':
          await this.optOut(room, bot, 'action');
          return null;
        case 'run_operation': {
          if (!this.deps.runOperation) throw new Error('operations are not available');
          const input: Record<string, string> = { ...variables };
          for (const [name, template] of Object.entries(action.variables ?? {})) input[name] = template.replace(/\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}/g, (w, v: string) => variables[v] ?? w);
          return await this.deps.runOperation({ companyId: room.companyId, operationId: action.operation_id, variables: input });
        }
        case 'start_flow':
          return null; // handled in execute(): it ends the bot's turn
        case 'ai_answer':
          return null; // handled in execute(): before the step's messages
      }
    } catch (err) {
      this.deps.log.error({ err, roomId: room.id, botId: bot.id, action: action.type }, 'bot runtime: an action failed');
    }
    return null;
  }

  private async optOut(room: RoomRecord, bot: RuntimeBot, reason: 'keyword' | 'action'): Promise<void> {
    await this.db
      .insert(botOptOuts)
      .values({ companyId: room.companyId, channelId: room.channelId, roomId: room.id, externalId: room.externalId, name: room.name, reason, botId: bot.id, createdAt: this.deps.clock.now() })
      .onConflictDoNothing();
  }
}
