/**
 * The live flow runtime (issue #13): runs a company's flow in a room. It answers in chats' inbound
 * pipeline in front of the bot runtime (order 100; the bots 200): a customer message that is one of a flow's keywords starts
 * that flow (intro, steps…); a new conversation's first message with no keyword starts the channel's
 * default flow, if it has one (defaults.ts); while a run is active its messages are the flow's; everything else goes
 * on to the bot runtime. The state is one `flow_runs` row per room, so a restart resumes where the
 * customer was. A paused room (the inbox's pause, a hand-over) is silent: pausing the bot pauses the
 * flow. The messages are the bot's (ChatService.sendBotMessage, origin bot), shown live in the inbox.
 *
 * Exactly one answer per customer message across processes: the run's new state is written together
 * with what the answer still has to do (`pending_replies`: its messages, a hand-over), which is
 * cleared once done. A process killed in between leaves it, and the pipeline's re-run of that message
 * (another process, once the room's lease ran out) finds the message answered but unfinished and
 * finishes it; client ids `flow:{message}:{n}` keep what was sent before the kill from going twice.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Message } from '../../../../contract/chats';
import type { Clock } from '../../../core/clock';
import type { Database } from '../../../core/db/client';
import { ApiError } from '../../../core/errors';
import { HAND_OVER_PAUSE_DAYS, DAY_MS, replyOf, type OutgoingBotMessage } from '../../bots';
import type { ChatActor, ChatService, InboundOutcome, RoomRecord } from '../../chats';
import { FlowDefaultsService } from '../defaults';
import { flowRuns, flows, flowStepVisits, type PendingFlowReplies } from '../schema';
import type { FlowService } from '../service';
import { continueFlow, flowForKeyword, HAND_OVER_TEXT, isHandOver, startFlow, type FlowPlan, type RuntimeFlow } from './engine';

export interface FlowRuntimeDeps {
  db: Database;
  clock: Clock;
  chats: ChatService;
  flows: FlowService;
  log: { warn(obj: unknown, msg?: string): void; error(obj: unknown, msg?: string): void };
}

export class FlowRuntime {
  private readonly defaults: FlowDefaultsService;

  constructor(private readonly deps: FlowRuntimeDeps) {
    this.defaults = new FlowDefaultsService(deps.db, deps.clock);
  }

  /**
   * The flows' step of chats' inbound pipeline, which hands it a room's messages one at a time, in id
   * order and once each across every process (chats/inboundQueue.ts; the replay check below relies on it):
   * 'handled' when the flow runtime answered (or deliberately stayed silent for) a customer's
   * message; anything else (not a customer's, no flow of the room) goes on to the next handler.
   */
  async handle(room: RoomRecord, message: Message): Promise<InboundOutcome> {
    if (message.origin !== 'user') return 'passed';
    return (await this.answer(room.id, message)) ? 'handled' : 'passed';
  }

  /** Starts a flow of the room's company in the room (a keyword, or a bot's start_flow action). False if the flow does not exist. */
  async start(room: RoomRecord, flowId: number, inbound: Message | null): Promise<boolean> {
    const flow = await this.flow(room.companyId, flowId);
    if (!flow) return false;
    await this.apply(room, flow, startFlow(flow), inbound, true);
    return true;
  }

  /** Starts a flow named by id or by name (case-insensitive), as a bot's start_flow action names it. */
  async startByRef(room: RoomRecord, ref: number | string, inbound: Message | null): Promise<boolean> {
    if (typeof ref === 'number') return this.start(room, ref, inbound);
    const id = await this.flowIdByRef(room.companyId, ref);
    return id !== null ? this.start(room, id, inbound) : false;
  }

  /** A bot's start_flow names a flow of the company: by id, or by name (case-insensitive). */
  async hasFlow(companyId: number, ref: number | string, db: Database = this.deps.db): Promise<boolean> {
    return (await this.flowIdByRef(companyId, ref, db)) !== null;
  }

  private async flowIdByRef(companyId: number, ref: number | string, db: Database = this.deps.db): Promise<number | null> {
    const [match] = await db
      .select({ id: flows.id })
      .from(flows)
      .where(and(eq(flows.companyId, companyId), typeof ref === 'number' ? eq(flows.id, ref) : sql`lower(${flows.flowName}) = lower(${ref.trim()})`))
      .limit(1);
    return match?.id ?? null;
  }

  /** True when the flow runtime answered (or deliberately stayed silent for) the message. */
  private async answer(roomId: number, message: Message): Promise<boolean> {
    const room = await this.deps.chats.roomRecord(roomId);
    if (!room || room.blockedAt) return false;
    const paused = room.pausedUntil !== null && room.pausedUntil.getTime() > this.deps.clock.now().getTime();
    const [run] = await this.deps.db.select().from(flowRuns).where(eq(flowRuns.roomId, room.id));
    // Answered already (the pipeline runs each message once and in id order, so only a second runtime
    // gets here), or claimed by a process killed before it was through: that answer is finished now.
    if (run && run.lastMessageId !== null && run.lastMessageId >= message.id) {
      const pending = run.pendingReplies;
      if (pending && pending.messageId === message.id && run.lastMessageId === message.id) {
        const flow = await this.flow(room.companyId, run.flowId);
        if (flow) {
          this.deps.log.warn({ roomId: room.id, messageId: message.id }, 'flow runtime: finishing an answer claimed by a process that stopped');
          await this.finish(room, flow, message, pending);
        }
      }
      return true;
    }
    if (paused) return run?.status === 'active';
    const reply = replyOf(message);
    const keyword = reply.buttonId ? '' : (reply.text ?? '').trim().toLowerCase();
    if (keyword !== '') {
      const match = await this.deps.flows.byKeyword(room.companyId, keyword);
      const started = match ? await this.flow(room.companyId, match.id) : null;
      if (started && flowForKeyword([started], keyword) && this.saysSomething(room, started)) {
        await this.apply(room, started, startFlow(started), message, true);
        return true;
      }
    }
    // A new conversation (its first customer message, no keyword): the channel's default flow (defaults.ts).
    if (!run) {
      const fallbackId = await this.defaults.defaultFlowFor(room, message);
      const fallback = fallbackId !== null ? await this.flow(room.companyId, fallbackId) : null;
      if (fallback && this.saysSomething(room, fallback)) {
        await this.apply(room, fallback, startFlow(fallback), message, true);
        return true;
      }
    }
    if (!run || run.status !== 'active') return false;
    const flow = await this.flow(room.companyId, run.flowId);
    if (!flow) return false;
    if (isHandOver(reply.text)) {
      await this.apply(room, flow, { messages: [{ type: 'text', text: HAND_OVER_TEXT, media_url: null, buttons: null }], stepId: run.stepId, status: 'handed_over', visited: [] }, message, false, true);
      return true;
    }
    await this.apply(room, flow, continueFlow(flow, run.stepId, reply), message, false);
    return true;
  }

  /**
   * A flow whose start says nothing (no intro, no step, no ending: its keywords saved before its content)
   * would take the customer's message and answer nothing, which a customer reads as a dead line (issue #25:
   * "a second flow's keyword got no reply"). It leaves the message to the next handler (the bot) instead.
   */
  private saysSomething(room: RoomRecord, flow: RuntimeFlow): boolean {
    if (startFlow(flow).messages.length > 0) return true;
    this.deps.log.warn({ roomId: room.id, flowId: flow.id }, 'flow runtime: the flow has nothing to say yet; the message goes on to the next handler');
    return false;
  }

  /** Writes the run's next state (with what the answer still has to do), then does it. */
  private async apply(room: RoomRecord, flow: RuntimeFlow, plan: FlowPlan, inbound: Message | null, fresh: boolean, handOver = false): Promise<void> {
    const now = this.deps.clock.now();
    const pending: PendingFlowReplies | null = inbound ? { messageId: inbound.id, messages: plan.messages, handOver } : null;
    const values = { companyId: room.companyId, flowId: flow.id, stepId: plan.stepId, status: plan.status, lastMessageId: inbound?.id ?? null, pendingReplies: pending, updatedAt: now };
    await this.deps.db
      .insert(flowRuns)
      .values({ roomId: room.id, ...values, startedAt: now })
      .onConflictDoUpdate({ target: flowRuns.roomId, set: fresh ? { ...values, startedAt: now } : values });
    if (plan.visited.length > 0) {
      await this.deps.db
        .insert(flowStepVisits)
        .values(plan.visited.map((stepId) => ({ flowId: flow.id, stepId, roomId: room.id, at: now })))
        .onConflictDoNothing();
    }
    if (pending && inbound) return this.finish(room, flow, inbound, pending);
    let n = 0;
    for (const out of plan.messages) await this.say(room, flow, inbound, n++, out);
  }

  /** Sends the answer's messages (a message already sent under its client id is not sent again), hands over if it says so, then marks it done. */
  private async finish(room: RoomRecord, flow: RuntimeFlow, inbound: Message, pending: PendingFlowReplies): Promise<void> {
    let n = 0;
    for (const out of pending.messages) await this.say(room, flow, inbound, n++, out);
    if (pending.handOver) {
      await this.deps.chats.setPausedUntil(this.actor(room, flow), room, new Date(this.deps.clock.now().getTime() + HAND_OVER_PAUSE_DAYS * DAY_MS).toISOString());
      // A person takes over: the room opens (issue #22).
      await this.deps.chats.handOver(room);
    }
    await this.deps.db
      .update(flowRuns)
      .set({ pendingReplies: null })
      .where(and(eq(flowRuns.roomId, room.id), eq(flowRuns.lastMessageId, inbound.id)));
  }

  private async say(room: RoomRecord, flow: RuntimeFlow, inbound: Message | null, n: number, out: OutgoingBotMessage): Promise<void> {
    try {
      await this.deps.chats.sendBotMessage(room, {
        type: out.type as Message['type'],
        text: out.text,
        media_url: out.media_url,
        data: out.buttons ? { buttons: out.buttons, flow: { id: flow.id } } : null,
        client_id: inbound ? `flow:${inbound.id}:${n}` : `flow:${room.id}:${this.deps.clock.now().getTime()}:${n}`,
        sender_name: flow.flow_name,
      });
    } catch (err) {
      this.deps.log.error({ err, roomId: room.id, flowId: flow.id }, 'flow runtime: sending a message');
    }
  }

  private actor(room: RoomRecord, flow: RuntimeFlow): ChatActor {
    return { userId: -1, email: '', name: flow.flow_name, companyId: room.companyId, role: 'admin' };
  }

  private async flow(companyId: number, flowId: number): Promise<RuntimeFlow | null> {
    try {
      return await this.deps.flows.get(companyId, flowId);
    } catch (err) {
      if (err instanceof ApiError && err.statusCode === 404) return null; // deleted meanwhile
      throw err;
    }
  }

  /** Per step of a flow: customers who reached it, and runs that stopped there (still waiting or handed over). */
  async stepStats(flowId: number): Promise<Record<string, { reached: number; left: number }>> {
    const reached = await this.deps.db
      .select({ stepId: flowStepVisits.stepId, n: sql<number>`count(*)::int` })
      .from(flowStepVisits)
      .where(eq(flowStepVisits.flowId, flowId))
      .groupBy(flowStepVisits.stepId);
    const left = await this.deps.db
      .select({ stepId: flowRuns.stepId, n: sql<number>`count(*)::int` })
      .from(flowRuns)
      .where(and(eq(flowRuns.flowId, flowId), sql`${flowRuns.status} <> 'done'`))
      .groupBy(flowRuns.stepId);
    const out: Record<string, { reached: number; left: number }> = {};
    for (const r of reached) out[r.stepId] = { reached: Number(r.n), left: 0 };
    for (const l of left) if (l.stepId) (out[l.stepId] ??= { reached: 0, left: 0 }).left = Number(l.n);
    return out;
  }
}
