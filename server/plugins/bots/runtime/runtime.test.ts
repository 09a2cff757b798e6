import { afterAll, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import type { StepAction } from '../../../../contract/bots';
import type { Message } from '../../../../contract/chats';
import { messages, roomTags, rooms, tags } from '../../../core/db/schema';
import { createTestApp, describeEachDatabase, type TestApp } from '../../../testing/testApp';
import { registerChatChannels } from '../../chats';
import { chatService, useHubForTests } from '../../chats';
import { FakeHub, identityFor } from '../../chats/testing';
import { ensureSandboxChannel } from '../../sandbox';
import { botChannels, botConversations, botOptOuts, bots, botSteps, stepOptions } from '../schema';
import { CHOOSE_TEXT, HAND_OVER_TEXT } from './engine';
import { botRuntime } from '..';
import { BotRuntime } from './index';
import { OPT_OUT_CONFIRMATION } from './runtime';

const DAY = 24 * 3600_000;

interface StepSeed {
  id: string;
  texts?: string[];
  media?: string;
  options?: [id: string, text: string, next: string | null][];
  next?: string | null;
  actions?: StepAction[];
  input?: string;
}

describeEachDatabase('bot runtime', (database) => {
  let t: TestApp;
  let hub: FakeHub;
  let company: number;
  let agentUserId: number;
  let key: string;
  let channelId: number;
  let botId: number;
  let customer = 0;

  async function seedBot(name: string, steps: StepSeed[], opts: { fallback?: string | null; channel?: number | null; companyId?: number } = {}): Promise<number> {
    const companyId = opts.companyId ?? company;
    const [bot] = await t.db
      .insert(bots)
      .values({ companyId, name, startStepId: steps[0]?.id ?? null, fallbackStepId: opts.fallback ?? null })
      .returning({ id: bots.id });
    let position = 0;
    for (const step of steps) {
      await t.db.insert(botSteps).values({
        botId: bot.id,
        id: step.id,
        messages: [...(step.media ? [{ text: '', media_url: step.media, type: 'image' as const }] : []), ...(step.texts ?? []).map((text) => ({ text, media_url: null, type: 'text' as const }))],
        nextStepId: step.next ?? null,
        actions: step.actions ?? [],
        inputVariable: step.input ?? null,
        position: position++,
      });
    }
    for (const step of steps) {
      let p = 0;
      for (const [id, text, next] of step.options ?? []) await t.db.insert(stepOptions).values({ botId: bot.id, id, stepId: step.id, text, nextStep: next, position: p++ });
    }
    if (opts.channel !== null) {
      await t.db.delete(botChannels).where(eq(botChannels.channelId, opts.channel ?? channelId));
      await t.db.insert(botChannels).values({ botId: bot.id, channelId: opts.channel ?? channelId, companyId });
    }
    return bot.id;
  }

  const MENU: StepSeed = {
    id: 'start',
    texts: ['Hello {{customer.name}}! I am the shop assistant.', 'What can I do for you?'],
    options: [
      ['o-track', 'Track an order', 'track'],
      ['o-hours', 'Opening hours', 'hours'],
      ['o-human', 'Talk to a person', 'human'],
    ],
  };

  beforeAll(async () => {
    t = await createTestApp({ database });
    hub = new FakeHub();
    useHubForTests(t.app, hub);
    registerChatChannels(hub, chatService(t.app));
    company = await t.seed.company('Acme');
    const adminId = await t.seed.user({ email: 'boss@acme.test' });
    agentUserId = await t.seed.user({ email: 'agent@acme.test', firstName: 'Alex' });
    await t.seed.member(company, adminId, 'admin');
    await t.seed.member(company, agentUserId, 'agent');
    const channel = await ensureSandboxChannel(t.db, company);
    channelId = channel.id;
    key = channel.simulatorKey!;
    botId = await seedBot('Shop assistant', [
      MENU,
      { id: 'track', texts: ['What is your order number?'], input: 'order', next: 'track_done' },
      { id: 'track_done', texts: ['Thanks, order {{order}} is on its way.'], actions: [{ type: 'add_tag', tag: 'orders' }] },
      { id: 'hours', media: 'https://example.com/hours.png', texts: ['We are open 9:00 to 19:00.'], next: 'start' },
      { id: 'human', texts: ['A person will answer you shortly.'], actions: [{ type: 'assign_agent', email: 'agent@acme.test' }, { type: 'hand_over' }] },
    ]);
  });
  afterAll(() => t.close());
  beforeEach(() => {
    hub.clear();
    customer++;
  });

  const customerId = () => `cust-${customer}`;
  let seq = 0;
  async function say(payload: { text?: string; button_reply?: { id: string; title: string } }, opts: { clientId?: string; who?: string } = {}) {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/sandbox/${key}/conversations/${opts.who ?? customerId()}/messages/`,
      payload: { name: `Customer ${customer}`, client_id: opts.clientId ?? `c-${++seq}`, ...payload },
    });
    expect(res.statusCode, res.body).toBeLessThan(300);
    await chatService(t.app).settled();
    return res.json().message as Message;
  }
  async function room(who = customerId()) {
    const [row] = await t.db.select().from(rooms).where(and(eq(rooms.channelId, channelId), eq(rooms.externalId, who)));
    return row;
  }
  async function botMessagesAfter(id: number, who = customerId()) {
    const r = await room(who);
    const rows = await t.db.select().from(messages).where(eq(messages.roomId, r.id)).orderBy(asc(messages.id));
    return rows.filter((m) => m.id > id && m.origin === 'bot');
  }
  async function conversation(who = customerId()) {
    const [row] = await t.db.select().from(botConversations).where(eq(botConversations.roomId, (await room(who)).id));
    return row;
  }
  async function tagNames(who = customerId()) {
    const rows = await t.db
      .select({ name: tags.name })
      .from(roomTags)
      .innerJoin(tags, eq(tags.id, roomTags.tagId))
      .where(eq(roomTags.roomId, (await room(who)).id));
    return rows.map((r) => r.name).sort();
  }
  /** Text (and buttons) of each bot message answering `m`. */
  async function answerTo(m: Message, who?: string) {
    return (await botMessagesAfter(m.id, who)).map((b) => ({ type: b.type, text: b.text, ...(b.data?.buttons ? { buttons: (b.data.buttons as { title: string }[]).map((x) => x.title) } : {}) }));
  }

  it('a full conversation: greeting with buttons, a button reply, a number, a free-text answer, then over and back to the start', async () => {
    const hello = await say({ text: 'Hello' });
    expect(await answerTo(hello)).toEqual([
      { type: 'text', text: `Hello Customer ${customer}! I am the shop assistant.` },
      { type: 'interactive', text: 'What can I do for you?', buttons: ['Track an order', 'Opening hours', 'Talk to a person'] },
    ]);
    const [, menu] = await botMessagesAfter(hello.id);
    expect(menu).toMatchObject({ origin: 'bot', senderName: 'Shop assistant', status: 'delivered', data: { buttons: [{ id: 'o-track' }, { id: 'o-hours' }, { id: 'o-human' }] } });
    // Stored and broadcast like an agent's message: room topic and page topic.
    const pushed = hub.since(0, { event: 'new_message' }).filter((b) => b.payload.origin === 'bot' || b.payload.message?.origin === 'bot');
    expect(pushed.map((b) => b.topic)).toEqual([`room:${hello.room_id}`, `page:${channelId}`, `room:${hello.room_id}`, `page:${channelId}`]);
    expect(await conversation()).toMatchObject({ botId, currentStepId: 'start', fallbackCount: 0, lastInboundMessageId: hello.id });

    // A button reply: the hours step (a picture and a text), then back to the menu by its next step.
    const hours = await say({ button_reply: { id: 'o-hours', title: 'Opening hours' } });
    expect(await answerTo(hours)).toEqual([
      { type: 'image', text: null },
      { type: 'text', text: 'We are open 9:00 to 19:00.' },
      { type: 'text', text: `Hello Customer ${customer}! I am the shop assistant.` },
      { type: 'interactive', text: 'What can I do for you?', buttons: ['Track an order', 'Opening hours', 'Talk to a person'] },
    ]);
    expect((await botMessagesAfter(hours.id))[0].mediaUrl).toBe('https://example.com/hours.png');

    // The option's number, typed; then a free-text answer kept as a variable.
    const one = await say({ text: ' 1 ' });
    expect(await answerTo(one)).toEqual([{ type: 'text', text: 'What is your order number?' }]);
    expect((await conversation()).currentStepId).toBe('track');
    const order = await say({ text: 'A-42' });
    expect(await answerTo(order)).toEqual([{ type: 'text', text: 'Thanks, order A-42 is on its way.' }]);
    expect(await tagNames()).toEqual(['orders']);
    expect(await conversation()).toMatchObject({ currentStepId: null, variables: { order: 'A-42' } });

    // The conversation ended: the next message starts over; typed option text matches case-insensitively.
    const again = await say({ text: 'hi again' });
    expect((await answerTo(again)).at(-1)).toMatchObject({ type: 'interactive' });
    const typed = await say({ text: 'OPENING HOURS' });
    expect((await answerTo(typed))[1]).toEqual({ type: 'text', text: 'We are open 9:00 to 19:00.' });
  });

  it('an unmatched answer repeats the question once, then the fallback hands over: the room is paused and the bot silent', async () => {
    const hello = await say({ text: 'Hi' });
    expect(await answerTo(hello)).toHaveLength(2);
    const what = await say({ text: 'what?' });
    expect(await answerTo(what)).toEqual([{ type: 'interactive', text: 'What can I do for you?', buttons: ['Track an order', 'Opening hours', 'Talk to a person'] }]);
    expect((await conversation()).fallbackCount).toBe(1);
    // The hand-over opens the room for a person (issue #22).
    const handOver = vi.spyOn(chatService(t.app), 'handOver');
    const still = await say({ text: 'I do not understand' });
    expect(await answerTo(still)).toEqual([{ type: 'text', text: HAND_OVER_TEXT }]);
    expect(handOver).toHaveBeenCalledWith(expect.objectContaining({ id: hello.room_id }));
    handOver.mockRestore();
    const conv = await conversation();
    expect(conv.handedOverAt).not.toBeNull();
    expect((await room()).pausedUntil?.getTime()).toBe(t.clock.now().getTime() + DAY);
    // The inbox shows the pause (room_info on the room's topic).
    expect(hub.since(0, { event: 'room_info', topic: `room:${hello.room_id}` }).at(-1)?.payload.room.paused_until).toBe(new Date(t.clock.now().getTime() + DAY).toISOString());

    const ignored = await say({ text: 'Hello?' });
    expect(await answerTo(ignored)).toEqual([]);
    // The pause runs out: the bot starts over.
    t.clock.advance(DAY + 1000);
    const back = await say({ text: 'Hello again' });
    expect(await answerTo(back)).toHaveLength(2);
    expect(await conversation()).toMatchObject({ currentStepId: 'start', handedOverAt: null });
  });

  it('a fallback step: after the repeated question, the bot goes to it', async () => {
    const other = await ensureOtherChannel();
    await seedBot('With fallback', [MENU, { id: 'track', texts: ['Track'] }, { id: 'hours', texts: ['Hours'] }, { id: 'human', texts: ['Human'] }, { id: 'sorry', texts: ['Sorry, let us start again.'], next: 'start' }], {
      fallback: 'sorry',
      channel: other.id,
      companyId: other.companyId,
    });
    const who = `fb-${customer}`;
    const post = async (text: string) => {
      const res = await t.app.inject({ method: 'POST', url: `/api/sandbox/${other.key}/conversations/${who}/messages/`, payload: { name: 'Fallback', client_id: `fb-${++seq}`, text } });
      await chatService(t.app).settled();
      return res.json().message as Message;
    };
    await post('hi');
    await post('??');
    const third = await post('???');
    const rows = await t.db.select().from(messages).where(eq(messages.roomId, third.room_id)).orderBy(asc(messages.id));
    expect(rows.filter((m) => m.id > third.id).map((m) => m.text)).toEqual(['Sorry, let us start again.', 'Hello Fallback! I am the shop assistant.', 'What can I do for you?']);
  });

  /** A second company's sandbox channel, for bots of their own. */
  let otherChannel: { id: number; key: string; companyId: number } | null = null;
  async function ensureOtherChannel() {
    if (otherChannel) return otherChannel;
    const other = await t.seed.company('Other Co');
    const channel = await ensureSandboxChannel(t.db, other);
    otherChannel = { id: channel.id, key: channel.simulatorKey!, companyId: other };
    return otherChannel;
  }

  it('hand-over by option: the agent tag is added, the room paused, and an agent resuming the bot from the inbox restarts it', async () => {
    const hello = await say({ text: 'Hello' });
    const human = await say({ button_reply: { id: 'o-human', title: 'Talk to a person' } });
    expect(await answerTo(human)).toEqual([{ type: 'text', text: 'A person will answer you shortly.' }]);
    expect(await tagNames()).toEqual(['agent@acme.test']);
    expect((await room()).pausedUntil).not.toBeNull();
    expect((await conversation()).handedOverAt).not.toBeNull();
    expect(await answerTo(await say({ text: 'Are you there?' }))).toEqual([]);

    // The agent resumes the bot from the inbox (update_user with paused_until null).
    const { ctx } = await hub.join(identityFor({ userId: agentUserId, email: 'agent@acme.test', companyId: company, role: 'admin' }), `room:${hello.room_id}`);
    expect((await hub.push(ctx, 'update_user', { user: { paused_until: null } })).status).toBe('ok');
    const next = await say({ text: 'Thanks!' });
    expect((await answerTo(next)).map((m) => m.text)).toEqual([`Hello Customer ${customer}! I am the shop assistant.`, 'What can I do for you?']);
  });

  it('pausing from the inbox silences the bot until the date, then it resumes at the step it was on', async () => {
    const hello = await say({ text: 'Hello' });
    const { ctx } = await hub.join(identityFor({ userId: agentUserId, email: 'agent@acme.test', companyId: company, role: 'admin' }), `room:${hello.room_id}`);
    const until = new Date(t.clock.now().getTime() + 2 * DAY).toISOString();
    expect((await hub.push(ctx, 'update_user', { user: { paused_until: until } })).status).toBe('ok');
    expect(await answerTo(await say({ text: '1' }))).toEqual([]);
    expect((await conversation()).currentStepId).toBe('start');
    t.clock.advance(2 * DAY + 1);
    expect(await answerTo(await say({ text: 'track an order' }))).toEqual([{ type: 'text', text: 'What is your order number?' }]);
  });

  it('actions: remove a tag, pause the bot N days, opt out (then silent), a start_flow naming no flow is skipped; and an operation sets variables', async () => {
    const chan = await ensureOtherChannel();
    const steps: StepSeed[] = [
      {
        id: 'menu',
        texts: ['Pick one'],
        options: [
          ['a-pause', 'Pause', 'pause'],
          ['a-op', 'Operation', 'op'],
          ['a-out', 'Opt out', 'out'],
          ['a-flow', 'Flow', 'flow'],
        ],
      },
      { id: 'pause', texts: ['Pausing for 3 days.'], actions: [{ type: 'add_tag', tag: 'x' }, { type: 'remove_tag', tag: 'x' }, { type: 'pause_bot', days: 3 }] },
      { id: 'op', texts: ['Checking…'], actions: [{ type: 'run_operation', operation_id: 7, variables: { who: '{{customer.name}}' } }], next: 'op_done' },
      { id: 'op_done', texts: ['Status: {{status}}.'], next: 'menu' },
      { id: 'out', texts: ['Bye.'], actions: [{ type: 'opt_out' }] },
      { id: 'flow', texts: ['Starting a flow.'], actions: [{ type: 'start_flow', flow_id: 3 }], next: 'menu' },
    ];
    const otherCompany = chan.companyId;
    await seedBot('Actions', steps, { channel: chan.id, companyId: otherCompany });
    const calls: unknown[] = [];
    const realRunner = botRuntime(t.app).operationRunner;
    botRuntime(t.app).useOperationRunner(async (input) => {
      calls.push(input);
      return { status: 'shipped' };
    });
    const who = `act-${customer}`;
    const post = async (payload: Record<string, unknown>, name = 'Actor') => {
      const res = await t.app.inject({ method: 'POST', url: `/api/sandbox/${chan.key}/conversations/${who}/messages/`, payload: { name, client_id: `act-${++seq}`, ...payload } });
      await chatService(t.app).settled();
      const m = res.json().message as Message;
      const rows = await t.db.select().from(messages).where(eq(messages.roomId, m.room_id)).orderBy(asc(messages.id));
      return { m, texts: rows.filter((r) => r.id > m.id).map((r) => r.text) };
    };
    await post({ text: 'hi' });
    // An operation: runs with the conversation's variables; its result is a variable of the next messages.
    expect((await post({ button_reply: { id: 'a-op', title: 'Operation' } })).texts).toEqual(['Checking…', 'Status: shipped.', 'Pick one']);
    expect(calls).toEqual([{ companyId: otherCompany, operationId: 7, variables: expect.objectContaining({ who: 'Actor', 'customer.name': 'Actor' }) }]);
    // A start_flow naming no flow of the company (flow 3 does not exist): skipped, the conversation goes on.
    expect((await post({ text: 'flow' })).texts).toEqual(['Starting a flow.', 'Pick one']);
    // Tags added then removed; the bot paused for 3 days.
    const paused = await post({ text: 'Pause' });
    expect(paused.texts).toEqual(['Pausing for 3 days.']);
    const [r] = await t.db.select().from(rooms).where(eq(rooms.id, paused.m.room_id));
    expect(r.pausedUntil?.getTime()).toBe(t.clock.now().getTime() + 3 * DAY);
    expect((await t.db.select().from(roomTags).where(eq(roomTags.roomId, r.id))).length).toBe(0);
    expect((await post({ text: 'hello?' })).texts).toEqual([]);
    t.clock.advance(3 * DAY + 1);
    // Back at the menu (the pause step had no options: the conversation had ended, so it starts over).
    expect((await post({ text: 'hello' })).texts).toEqual(['Pick one']);
    expect((await post({ text: 'opt out' })).texts).toEqual(['Bye.']);
    expect(await t.db.select({ reason: botOptOuts.reason, externalId: botOptOuts.externalId }).from(botOptOuts).where(eq(botOptOuts.channelId, chan.id))).toEqual([{ reason: 'action', externalId: who }]);
    expect((await post({ text: 'hello' })).texts).toEqual([]);
    botRuntime(t.app).useOperationRunner(realRunner);
  });

  it('STOP opts the customer out by keyword: one confirmation, then silence', async () => {
    await say({ text: 'hello' });
    const stop = await say({ text: 'STOP' });
    expect(await answerTo(stop)).toEqual([{ type: 'text', text: OPT_OUT_CONFIRMATION }]);
    expect(await answerTo(await say({ text: 'hello' }))).toEqual([]);
    const [row] = await t.db.select().from(botOptOuts).where(eq(botOptOuts.externalId, customerId()));
    expect(row).toMatchObject({ reason: 'keyword', botId });
  });

  it('a replayed message is answered once, even by two runtimes (two processes) at the same time', async () => {
    const first = await say({ text: 'Hello' }, { clientId: `replay-${customer}` });
    const replay = await say({ text: 'Hello' }, { clientId: `replay-${customer}` });
    expect(replay.id).toBe(first.id);
    expect(await answerTo(first)).toHaveLength(2);

    // Two processes receive the same message: the conditional claim lets one answer.
    const chats = chatService(t.app);
    const sends: string[] = [];
    const original = chats.sendBotMessage.bind(chats);
    // What reaches the customer: the messages stored (a second runtime finishing the answer of the
    // first, still unfinished, may offer the same message again; its client id stores it once).
    chats.sendBotMessage = async (room, input) => {
      const result = await original(room, input);
      if (result.created) sends.push(input.client_id ?? '');
      return result;
    };
    try {
      const stored = await say({ text: 'zzz' }, { clientId: `twice-${customer}` });
      const before = sends.length;
      const deps = { db: t.db, clock: t.clock, chats, runOperation: null, log: t.app.log };
      const [a, b] = [new BotRuntime(deps), new BotRuntime(deps)];
      // The hook already answered it once (the repeated question): neither answers again.
      await Promise.all([a.answer(stored.room_id, stored), b.answer(stored.room_id, stored)]);
      expect(sends.length).toBe(before);
      // A message no runtime answered yet, handed to both at once: exactly one answer.
      chats.runsInboundPipeline = false;
      const fresh = await say({ text: 'Track an order' }, { clientId: `fresh-${customer}` });
      chats.runsInboundPipeline = true;
      const count = sends.length;
      await Promise.all([a.answer(fresh.room_id, fresh), b.answer(fresh.room_id, fresh)]);
      await chats.settled();
      expect(sends.slice(count)).toEqual([`bot:${fresh.id}:0`]);
      expect(await answerTo(fresh)).toEqual([{ type: 'text', text: 'What is your order number?' }]);
    } finally {
      chats.sendBotMessage = original;
    }
  });

  it('a restart in the middle of a conversation resumes at the right step (state in the database only)', async () => {
    await say({ text: 'Hello' });
    await say({ text: '1' });
    expect((await conversation()).currentStepId).toBe('track');
    await t.restart();
    useHubForTests(t.app, hub);
    const order = await say({ text: 'B-7' });
    expect(await answerTo(order)).toEqual([{ type: 'text', text: 'Thanks, order B-7 is on its way.' }]);
  });

  it('a step with only media offers its options under a question of its own', async () => {
    const chan = await ensureOtherChannel();
    await seedBot('Media only', [{ id: 'pic', media: 'https://example.com/p.png', options: [['m1', 'Yes', null]] }], { channel: chan.id, companyId: chan.companyId });
    const res = await t.app.inject({ method: 'POST', url: `/api/sandbox/${chan.key}/conversations/media-${customer}/messages/`, payload: { name: 'M', client_id: `m-${++seq}`, text: 'hi' } });
    await chatService(t.app).settled();
    const m = res.json().message as Message;
    const rows = await t.db.select().from(messages).where(eq(messages.roomId, m.room_id)).orderBy(asc(messages.id));
    expect(rows.filter((r) => r.id > m.id).map((r) => [r.type, r.text])).toEqual([
      ['image', null],
      ['interactive', CHOOSE_TEXT],
    ]);
  });
});
