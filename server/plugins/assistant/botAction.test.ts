/**
 * A bot step's ai_answer action (issue #24): the bot hands the customer's question to the assistant,
 * which answers from the company's knowledge (AI-marked, with its source, counted) before the step's
 * own messages, and the bot goes on; a question the knowledge does not cover (or the assistant turned
 * off) hands over and the bot stops there. Once per customer message, replays and re-runs included.
 * The channel is not in the assistant's channel list: the step is the opt-in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import { ASSISTANT_TEXTS, assistantMarkOf } from '../../../contract/assistant';
import type { Message } from '../../../contract/chats';
import type { StatsReport } from '../../../contract/stats';
import { messages, roomTags, rooms, tags } from '../../core/db/schema';
import { serverPlugins } from '../../plugins.config';
import { createTestApp, describeEachDatabase, type TestApp } from '../../testing/testApp';
import { botRuntime, HAND_OVER_TEXT } from '../bots';
import { botChannels, botConversations, bots, botSteps } from '../bots/testing';
import { chatService, type RoomRecord } from '../chats';
import { ensureSandboxChannel } from '../sandbox';
import { teamFixture, type TeamFixture } from '../team/testing';
import { assistantChannelsRef, assistantServices } from './index';
import { DEMO_ARTICLES } from './demo';
import { assistantQuestions, assistantUsage } from './schema';

const ASK = 'What is your question?';
const MORE = 'Anything else I can help with?';

describeEachDatabase('a bot step asks the assistant (ai_answer)', (database) => {
  let t: TestApp;
  let n = 0;

  beforeAll(async () => {
    t = await createTestApp({ database });
  });
  afterAll(async () => {
    await t?.close();
  });

  interface Shop {
    f: TeamFixture;
    write(who: string, text: string): Promise<Message>;
    roomOf(who: string): Promise<RoomRecord>;
    /** The room's bot-origin messages (the bot's and the assistant's), in order. */
    replies(who: string): Promise<(typeof messages.$inferSelect)[]>;
    usage(): Promise<(typeof assistantUsage.$inferSelect)[]>;
  }

  /**
   * A company with the demo knowledge, its assistant on (`enabled`) but listing no channel, and a bot on its
   * sandbox channel: "ask" takes a typed question, "answer" hands it to the assistant and asks for more.
   */
  async function shop(settings: { enabled?: boolean; listed?: boolean } = {}): Promise<Shop> {
    n += 1;
    const f = await teamFixture(t, `Bot shop ${n}`, `botshop${n}.test`);
    const channel = await ensureSandboxChannel(t.db, f.company);
    const { knowledge, assistant } = assistantServices(t.app);
    for (const article of DEMO_ARTICLES) await knowledge.createArticle(f.company, article);
    await assistant.updateSettings(f.company, { provider: 'local', enabled: settings.enabled ?? true, channels: settings.listed ? [channel.id] : [] });
    const [bot] = await t.db.insert(bots).values({ companyId: f.company, name: 'Shop bot', startStepId: 'ask', fallbackStepId: null }).returning({ id: bots.id });
    await t.db.insert(botSteps).values([
      { botId: bot.id, id: 'ask', messages: [{ text: ASK, media_url: null, type: 'text' }], nextStepId: 'answer', actions: [], inputVariable: 'question', position: 0 },
      // Waits for another question and answers it the same way.
      { botId: bot.id, id: 'answer', messages: [{ text: MORE, media_url: null, type: 'text' }], nextStepId: 'answer', actions: [{ type: 'ai_answer' }, { type: 'add_tag', tag: 'faq' }], inputVariable: 'question', position: 1 },
    ]);
    await t.db.insert(botChannels).values({ botId: bot.id, channelId: channel.id, companyId: f.company });
    const key = channel.simulatorKey!;
    const roomOf = async (who: string) => {
      const [row] = await t.db.select({ id: rooms.id }).from(rooms).where(and(eq(rooms.channelId, channel.id), eq(rooms.externalId, who)));
      return (await chatService(t.app).roomRecord(row.id))!;
    };
    return {
      f,
      async write(who, text) {
        const res = await t.app.inject({ method: 'POST', url: `/api/sandbox/${key}/conversations/${who}/messages/`, payload: { name: `Customer ${who}`, client_id: `${who}-${text}`, text } });
        expect(res.statusCode, res.body).toBeLessThan(300);
        await chatService(t.app).settled();
        return res.json().message as Message;
      },
      roomOf,
      async replies(who) {
        const room = await roomOf(who);
        return (await t.db.select().from(messages).where(eq(messages.roomId, room.id)).orderBy(asc(messages.id))).filter((m) => m.origin === 'bot');
      },
      usage: () => t.db.select().from(assistantUsage).where(eq(assistantUsage.companyId, f.company)),
    };
  }

  const tagsOf = async (room: RoomRecord) =>
    (await t.db.select({ name: tags.name }).from(roomTags).innerJoin(tags, eq(tags.id, roomTags.tagId)).where(eq(roomTags.roomId, room.id))).map((r) => r.name);
  const conversationOf = async (room: RoomRecord) => (await t.db.select().from(botConversations).where(eq(botConversations.roomId, room.id)))[0];

  it('answers a returns question from the knowledge article, AI-marked with its source and counted, then the bot goes on; once on replay and re-run', async () => {
    const s = await shop();
    await s.write('ana', 'hi');
    const question = await s.write('ana', 'How do I return an item I bought?');
    const replies = await s.replies('ana');
    expect(replies.map((r) => [r.clientId, r.text?.slice(0, 30)])).toEqual([
      [expect.stringMatching(/^bot:\d+:0$/), ASK],
      [`ai:${question.id}`, expect.any(String)],
      [`bot:${question.id}:0`, MORE],
    ]);
    const answer = replies[1];
    expect(answer).toMatchObject({ origin: 'bot', senderName: ASSISTANT_TEXTS.senderName });
    expect(answer.text).toContain('within 30 days');
    expect(assistantMarkOf(answer.data)).toEqual({ sources: [expect.objectContaining({ title: 'Returns and refunds' })], handover: false });
    expect(await s.usage()).toEqual([expect.objectContaining({ kind: 'answer', key: `answer:${question.id}` })]);
    // The bot went on: its other action ran, it waits on "answer", not handed over, the room not paused.
    const room = await s.roomOf('ana');
    expect(room.pausedUntil).toBeNull();
    expect(await tagsOf(room)).toEqual(['faq']);
    expect(await conversationOf(room)).toMatchObject({ currentStepId: 'answer', handedOverAt: null, pendingAnswer: null, variables: { question: 'How do I return an item I bought?' } });

    // A replayed message (two at once): nothing more is sent or counted.
    const message = (await chatService(t.app).inboundMessage(question.id))!.message;
    await Promise.all([botRuntime(t.app).answer(room.id, message), botRuntime(t.app).answer(room.id, message)]);
    // A process killed after the assistant answered, before the step's message: the re-run finishes the bot's answer only.
    await t.db
      .update(botConversations)
      .set({ pendingAnswer: { messageId: question.id, from: { stepId: 'ask', fallbackCount: 0, handedOver: false }, variables: {} } })
      .where(eq(botConversations.roomId, room.id));
    expect(await botRuntime(t.app).answer(room.id, message)).toBe(true);
    // The assistant asked again for the same message answers with what it decided, sending nothing.
    expect(await t.app.services.get(assistantChannelsRef).answerForBot(room, message, message.text!)).toBe('answered');
    expect((await s.replies('ana')).map((r) => r.id)).toEqual(replies.map((r) => r.id));
    expect(await s.usage()).toHaveLength(1);
    expect((await conversationOf(room)).pendingAnswer).toBeNull();

    // The next question is answered the same way, from the step the bot waits on.
    const next = await s.write('ana', 'Do you accept PayPal?');
    const after = (await s.replies('ana')).slice(replies.length);
    expect(after.map((r) => [r.clientId, r.text?.includes('PayPal') || r.text === MORE])).toEqual([
      [`ai:${next.id}`, true],
      [`bot:${next.id}:0`, true],
    ]);
    expect(await s.usage()).toHaveLength(2);
  });

  it('hands over a question the knowledge does not cover: says so, pauses and opens the room, and the bot stops there', async () => {
    const s = await shop();
    await s.write('ben', 'hi');
    await t.db.update(rooms).set({ status: 'resolved' }).where(eq(rooms.companyId, s.f.company));
    const question = await s.write('ben', 'Do you organise guided mountain treks in winter?');
    const replies = await s.replies('ben');
    expect(replies.map((r) => r.text)).toEqual([ASK, ASSISTANT_TEXTS.handOver]);
    expect(replies[1].clientId).toBe(`ai:${question.id}`);
    expect(assistantMarkOf(replies[1].data)).toEqual({ sources: [], handover: true });
    const room = await s.roomOf('ben');
    expect(room.pausedUntil!.getTime()).toBeGreaterThan(t.clock.now().getTime());
    const [{ status }] = await t.db.select({ status: rooms.status }).from(rooms).where(eq(rooms.id, room.id));
    expect(status).toBe('open');
    // Not the step's message nor its other action; the conversation is handed over (the bot starts over after the pause).
    expect(await tagsOf(room)).toEqual([]);
    expect(await conversationOf(room)).toMatchObject({ currentStepId: null, pendingAnswer: null });
    expect((await conversationOf(room)).handedOverAt).not.toBeNull();
    expect(await s.usage()).toEqual([]);
    expect(await t.db.select({ outcome: assistantQuestions.outcome, reason: assistantQuestions.reason }).from(assistantQuestions).where(eq(assistantQuestions.messageId, question.id))).toEqual([
      { outcome: 'handover', reason: 'low_confidence' },
    ]);

    // Asked again for the same message (a re-run): handed over, nothing sent twice.
    const message = (await chatService(t.app).inboundMessage(question.id))!.message;
    expect(await t.app.services.get(assistantChannelsRef).answerForBot(room, message, message.text!)).toBe('handed_over');
    expect(await s.replies('ben')).toHaveLength(2);
  });

  it("hands over when the company's assistant is turned off, and not as a gap in the knowledge", async () => {
    const s = await shop({ enabled: false });
    await s.write('cy', 'hi');
    const question = await s.write('cy', 'How do I return an item I bought?');
    expect((await s.replies('cy')).map((r) => r.text)).toEqual([ASK, ASSISTANT_TEXTS.handOver]);
    expect((await s.roomOf('cy')).pausedUntil).not.toBeNull();
    expect(await s.usage()).toEqual([]);
    const [row] = await t.db.select().from(assistantQuestions).where(eq(assistantQuestions.messageId, question.id));
    expect(row).toMatchObject({ outcome: 'handover', reason: 'assistant_disabled' });
    const today = t.clock.now().toISOString().slice(0, 10);
    const stats = await s.f.call(s.f.admin, 'GET', `/api/stats/?from=${today}&to=${today}&tz=UTC`);
    expect(stats.statusCode, stats.body).toBe(200);
    expect((stats.json() as StatsReport).assistant).toMatchObject({ questions: 1, handovers: 1, unanswered: [] });
  });

  it('hands over at once when the model fails (no "say it another way": the bot would take the rephrased text)', async () => {
    const s = await shop();
    // Nothing listens on port 1: the provider's call fails.
    await assistantServices(t.app).assistant.updateSettings(s.f.company, { provider: 'openai-compatible', base_url: 'http://127.0.0.1:1/v1', model: 'test-model' });
    await s.write('dot', 'hi');
    const question = await s.write('dot', 'How do I return an item I bought?');
    expect((await s.replies('dot')).map((r) => r.text)).toEqual([ASK, ASSISTANT_TEXTS.handOver]);
    expect(await s.usage()).toEqual([]);
    const [row] = await t.db.select().from(assistantQuestions).where(eq(assistantQuestions.messageId, question.id));
    expect(row).toMatchObject({ outcome: 'handover', reason: 'provider_error' });
  });

  it("hands over once the plan's assistant answers of the month are used up", async () => {
    const s = await shop();
    // The Free plan's allowance, used up this month.
    await t.db.insert(assistantUsage).values(Array.from({ length: 100 }, (_, i) => ({ companyId: s.f.company, key: `answer:used-${i}`, kind: 'answer' as const, createdAt: t.clock.now() })));
    await s.write('fin', 'hi');
    const question = await s.write('fin', 'How do I return an item I bought?');
    expect((await s.replies('fin')).map((r) => r.text)).toEqual([ASK, ASSISTANT_TEXTS.handOver]);
    expect(await s.usage()).toHaveLength(100);
    const [row] = await t.db.select().from(assistantQuestions).where(eq(assistantQuestions.messageId, question.id));
    expect(row).toMatchObject({ outcome: 'handover', reason: 'plan_limit' });
  });

  it('on a channel the assistant also answers: the bot step takes the typed question, and its ai_answer answers it once', async () => {
    const s = await shop({ listed: true });
    await s.write('dee', 'hi');
    const question = await s.write('dee', 'How do I return an item I bought?');
    expect((await s.replies('dee')).map((r) => r.clientId)).toEqual([expect.stringMatching(/^bot:/), `ai:${question.id}`, `bot:${question.id}:0`]);
    expect(await s.usage()).toHaveLength(1);
  });
});

describe('ai_answer without the assistant plugin', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ plugins: serverPlugins.filter((p) => p.id !== 'assistant') });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('the bot hands over itself: the question reaches a person', async () => {
    const f = await teamFixture(t, 'No assistant', 'noassistant.test');
    const channel = await ensureSandboxChannel(t.db, f.company);
    const [bot] = await t.db.insert(bots).values({ companyId: f.company, name: 'Bot', startStepId: 'answer', fallbackStepId: null }).returning({ id: bots.id });
    await t.db.insert(botSteps).values({ botId: bot.id, id: 'answer', messages: [{ text: MORE, media_url: null, type: 'text' }], nextStepId: null, actions: [{ type: 'ai_answer' }], inputVariable: null, position: 0 });
    await t.db.insert(botChannels).values({ botId: bot.id, channelId: channel.id, companyId: f.company });
    const res = await t.app.inject({ method: 'POST', url: `/api/sandbox/${channel.simulatorKey}/conversations/eli/messages/`, payload: { name: 'Eli', client_id: 'eli-1', text: 'How do I return an item?' } });
    expect(res.statusCode, res.body).toBeLessThan(300);
    await chatService(t.app).settled();
    const [row] = await t.db.select({ id: rooms.id, pausedUntil: rooms.pausedUntil }).from(rooms).where(and(eq(rooms.channelId, channel.id), eq(rooms.externalId, 'eli')));
    const sent = (await t.db.select().from(messages).where(eq(messages.roomId, row.id)).orderBy(asc(messages.id))).filter((m) => m.origin === 'bot');
    expect(sent.map((m) => m.text)).toEqual([HAND_OVER_TEXT]);
    expect(row.pausedUntil).not.toBeNull();
  });
});
