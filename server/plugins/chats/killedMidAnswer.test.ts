/**
 * A process killed mid-answer (issue #21): the bot or flow runtime of app A has claimed a customer's
 * message (its state moved on) and sent part of the answer when A stops for good. Once A's lease on the
 * room runs out, app B (a second process on the same database) re-runs the message: the runtime finds
 * it claimed but unfinished, sends what is missing and nothing twice, then answers the customer's next
 * message, in order. Both apps on one database: PGlite shared in-process, or PostgreSQL with a pool each.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import { FlowFieldsSchema } from '../../../contract/flows';
import type { Message } from '../../../contract/chats';
import { messages, rooms } from '../../core/db/schema';
import { createTestApp, describeEachDatabase, type TestApp } from '../../testing/testApp';
import { botChannels, botConversations, bots, botSteps, stepOptions } from '../bots/testing';
import { flowsService } from '../flows';
import { flowRuns } from '../flows/testing';
import { ensureSandboxChannel } from '../sandbox';
import { inboundWaiting } from './schema';
import { chatInboundQueueRef, chatService, type ChannelProvider, type ChatService, type RoomRecord } from '.';

/** Every send to the customers, by either app. */
class CountingProvider implements ChannelProvider {
  readonly sent: number[] = [];
  async send(_room: RoomRecord, message: Message) {
    this.sent.push(message.id);
    return { external_id: `fake-${message.id}` };
  }
}

const FLOW = FlowFieldsSchema.parse({
  flow_name: 'Shop tour',
  description: 'About the shop',
  company_name: 'Acme',
  company_domain: 'acme.test',
  extra_context: [],
  intro_msg: 'Welcome to the tour!',
  intro_media_url: null,
  find_out_more_msg: 'More on acme.test.',
  find_out_more_media_url: null,
  call_to_action: null,
  keywords: ['tour'],
  steps: [{ step_id: 'only', next_step_id: null, step_msg: 'That was the tour.', type: 'text', options: [] }],
});

/**
 * App A's bot messages go through this: when `killAt` matches a send, A "dies" there (the send never
 * returns, and every later send of A fails), until the test ends A's stalled run.
 */
function killable(chats: ChatService) {
  const original = chats.sendBotMessage.bind(chats);
  const state = {
    killAt: null as ((room: RoomRecord, clientId: string) => boolean) | null,
    dead: false,
    reached: Promise.resolve(),
    end: () => {},
  };
  chats.sendBotMessage = async (room, input) => {
    if (state.dead) throw new Error('process killed');
    if (state.killAt?.(room, input.client_id ?? '')) {
      state.dead = true;
      state.end();
      await new Promise<never>((_resolve, reject) => (state.end = () => reject(new Error('process killed'))));
    }
    return original(room, input);
  };
  return {
    /** Arms the kill; resolves when A reaches it. */
    arm(at: (room: RoomRecord, clientId: string) => boolean): Promise<void> {
      state.dead = false;
      state.reached = new Promise<void>((resolve) => (state.end = resolve));
      state.killAt = at;
      return state.reached;
    },
    /** The stalled run of the dead process ends (its later sends fail); the kill is disarmed. */
    release(): void {
      state.killAt = null;
      state.end();
    },
    revive(): void {
      state.dead = false;
    },
  };
}

describeEachDatabase('a process killed mid-answer', (database) => {
  let a: TestApp;
  let b: TestApp;
  const provider = new CountingProvider();
  let key: string;
  let channelId: number;
  let kill: ReturnType<typeof killable>;

  beforeAll(async () => {
    a = await createTestApp({ database, onBuild: (app) => chatService(app).registerProvider('sandbox', provider) });
    b = await createTestApp({ sameDatabaseAs: a, onBuild: (app) => chatService(app).registerProvider('sandbox', provider) });
    kill = killable(chatService(a.app));
    const company = await a.seed.company('Acme');
    const channel = await ensureSandboxChannel(a.db, company);
    channelId = channel.id;
    key = channel.simulatorKey!;
    // The bot: a greeting in two messages (the second offers the opening hours), and the hours.
    const [bot] = await a.db.insert(bots).values({ companyId: company, name: 'Shop', startStepId: 'start', fallbackStepId: null }).returning({ id: bots.id });
    await a.db.insert(botSteps).values([
      {
        botId: bot.id,
        id: 'start',
        messages: [
          { text: 'Welcome!', media_url: null, type: 'text' },
          { text: 'How can we help?', media_url: null, type: 'text' },
        ],
        nextStepId: null,
        actions: [],
        inputVariable: null,
        position: 0,
      },
      { botId: bot.id, id: 'hours', messages: [{ text: 'We are open 9:00 to 19:00.', media_url: null, type: 'text' }], nextStepId: null, actions: [], inputVariable: null, position: 1 },
    ]);
    await a.db.insert(stepOptions).values({ botId: bot.id, id: 'o-hours', stepId: 'start', text: 'Opening hours', nextStep: 'hours', position: 0 });
    await a.db.insert(botChannels).values({ botId: bot.id, channelId, companyId: company });
    const flows = flowsService(a.app);
    const created = await flows.create(company, FLOW, 'test');
    await flows.save(company, created.id, FLOW, 'test');
  });
  afterAll(async () => {
    // A run still stalled (a failed test) would hold A's shutdown.
    kill?.release();
    await b?.close();
    await a?.close();
  });

  async function write(t: TestApp, who: string, text: string): Promise<Message> {
    const res = await t.app.inject({ method: 'POST', url: `/api/sandbox/${key}/conversations/${who}/messages/`, payload: { name: who, client_id: `${who}-${text}`, text } });
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res.json().message as Message;
  }

  async function roomOf(who: string): Promise<number> {
    const [room] = await a.db.select({ id: rooms.id }).from(rooms).where(and(eq(rooms.channelId, channelId), eq(rooms.externalId, who)));
    return room.id;
  }

  /** The room's bot and flow messages as [the customer message they answer, text], in the order stored. */
  async function answers(who: string): Promise<[number, string | null][]> {
    const rows = await a.db.select().from(messages).where(eq(messages.roomId, await roomOf(who))).orderBy(asc(messages.id));
    return rows.filter((r) => r.origin === 'bot').map((r) => [Number(r.clientId!.split(':')[1]), r.text]);
  }

  /** B takes the room over: A's lease has run out by B's clock, B's sweep drains the room. */
  async function takeOver(): Promise<void> {
    b.clock.advance(a.app.services.get(chatInboundQueueRef).leaseMs + 1_000);
    await b.app.services.get(chatInboundQueueRef).sweepNow();
    await chatService(b.app).settled();
  }

  /** A's stalled run ends; then each answer message was sent to the customer exactly once, and nothing waits. */
  async function endDeadRun(who: string): Promise<void> {
    kill.release();
    await chatService(a.app).settled();
    await chatService(b.app).settled();
    kill.revive();
    // The next test's A is alive again: its clock catches up with B's, which the takeover moved on.
    a.clock.advance(b.clock.now().getTime() - a.clock.now().getTime());
    const roomId = await roomOf(who);
    expect(await a.db.select().from(inboundWaiting).where(eq(inboundWaiting.roomId, roomId))).toEqual([]);
    const ids = (await a.db.select().from(messages).where(eq(messages.roomId, roomId))).filter((r) => r.origin === 'bot').map((r) => r.id);
    expect(provider.sent.filter((id) => ids.includes(id)).sort((x, y) => x - y)).toEqual(ids.sort((x, y) => x - y));
  }

  it("the bot's answer: A dies after sending its first message; B sends the second only, then answers the next message", async () => {
    const reached = kill.arm((room, clientId) => room.externalId === 'bot-kill' && clientId.endsWith(':1'));
    const hi = await write(a, 'bot-kill', 'hi');
    await reached;
    // A claimed the message (the conversation moved to "start") and sent half the answer.
    const [conv] = await a.db.select().from(botConversations).where(eq(botConversations.roomId, await roomOf('bot-kill')));
    expect(conv).toMatchObject({ lastInboundMessageId: hi.id, currentStepId: 'start', pendingAnswer: { messageId: hi.id } });
    expect(await answers('bot-kill')).toEqual([[hi.id, 'Welcome!']]);
    // The customer goes on through B, which finds the room held by A and leaves the message to it.
    const hours = await write(b, 'bot-kill', 'Opening hours');
    await chatService(b.app).settled();
    await b.app.services.get(chatInboundQueueRef).sweepNow();
    expect(await answers('bot-kill')).toEqual([[hi.id, 'Welcome!']]);

    await takeOver();
    expect(await answers('bot-kill')).toEqual([
      [hi.id, 'Welcome!'],
      [hi.id, 'How can we help?'],
      [hours.id, 'We are open 9:00 to 19:00.'],
    ]);
    const [after] = await a.db.select().from(botConversations).where(eq(botConversations.roomId, await roomOf('bot-kill')));
    expect(after).toMatchObject({ lastInboundMessageId: hours.id, currentStepId: null, pendingAnswer: null });

    await endDeadRun('bot-kill');
    expect(await answers('bot-kill')).toHaveLength(3);
  });

  it("the flow's answer: A dies after the intro; B sends the rest of the tour, then the bot answers the next message", async () => {
    const reached = kill.arm((room, clientId) => room.externalId === 'flow-kill' && clientId.startsWith('flow:') && clientId.endsWith(':1'));
    const tour = await write(a, 'flow-kill', 'tour');
    await reached;
    const [run] = await a.db.select().from(flowRuns).where(eq(flowRuns.roomId, await roomOf('flow-kill')));
    expect(run).toMatchObject({ lastMessageId: tour.id, pendingReplies: { messageId: tour.id } });
    expect(await answers('flow-kill')).toEqual([[tour.id, 'Welcome to the tour!']]);
    const hi = await write(b, 'flow-kill', 'hi');
    await chatService(b.app).settled();
    expect(await answers('flow-kill')).toHaveLength(1);

    await takeOver();
    expect(await answers('flow-kill')).toEqual([
      [tour.id, 'Welcome to the tour!'],
      [tour.id, 'That was the tour.'],
      [tour.id, 'More on acme.test.'],
      [hi.id, 'Welcome!'],
      [hi.id, 'How can we help?'],
    ]);
    const [after] = await a.db.select().from(flowRuns).where(eq(flowRuns.roomId, await roomOf('flow-kill')));
    expect(after.pendingReplies).toBeNull();

    await endDeadRun('flow-kill');
    expect(await answers('flow-kill')).toHaveLength(5);
  });

  it('A dies before sending anything of the answer: B sends all of it, once', async () => {
    const reached = kill.arm((room, clientId) => room.externalId === 'early-kill' && clientId.endsWith(':0'));
    const hi = await write(a, 'early-kill', 'hi');
    await reached;
    expect(await answers('early-kill')).toEqual([]);
    await takeOver();
    expect(await answers('early-kill')).toEqual([
      [hi.id, 'Welcome!'],
      [hi.id, 'How can we help?'],
    ]);
    await endDeadRun('early-kill');
    // A replayed webhook of the same message, through either app, answers nothing more.
    await write(a, 'early-kill', 'hi');
    await write(b, 'early-kill', 'hi');
    await chatService(a.app).settled();
    await chatService(b.app).settled();
    expect(await answers('early-kill')).toHaveLength(2);
  });
});
