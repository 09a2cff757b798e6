/**
 * The assistant on the channels and in the inbox (issue #24): it answers free text on the channels
 * its settings list (as the bot, marked AI with its sources), hands over below the threshold, when the
 * customer asks for a person and after two unanswered questions in a row, stays silent while the room
 * is paused, answers each customer message once, leaves the bot what a bot step takes; the copilot
 * suggests a reply and stores a summary note for those who may manage that room; every answer and
 * suggestion counts towards the plan's `assistant_answers`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import { ASSISTANT_TEXTS, assistantMarkOf, type SuggestReplyResponse } from '../../../contract/assistant';
import type { Message } from '../../../contract/chats';
import type { StatsReport } from '../../../contract/stats';
import { companies, messages, rooms } from '../../core/db/schema';
import { createTestApp, describeEachDatabase, type TestApp } from '../../testing/testApp';
import { botChannels, bots, botSteps, stepOptions } from '../bots/testing';
import { chatService, type ChannelProvider, type RoomRecord } from '../chats';
import { ensureSandboxChannel } from '../sandbox';
import { PERMISSION_DENIED, teamFixture, type TeamFixture } from '../team/testing';
import { assistantChannelsRef, assistantServices } from './index';
import { DEMO_ARTICLES } from './demo';
import { assistantConversations, assistantUsage } from './schema';

class CountingProvider implements ChannelProvider {
  readonly sent: number[] = [];
  async send(_room: RoomRecord, message: Message) {
    this.sent.push(message.id);
    return { external_id: `fake-${message.id}` };
  }
}

describeEachDatabase('the assistant on the channels and in the inbox', (database) => {
  let t: TestApp;
  let n = 0;
  const provider = new CountingProvider();
  /** A chat-completions endpoint that answers without citing a passage (the model "failing" to answer). */
  let model: Server;
  let modelUrl: string;

  beforeAll(async () => {
    t = await createTestApp({ database, onBuild: (app) => chatService(app).registerProvider('sandbox', provider) });
    model = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: 'Probably, yes.' } }] }));
    });
    await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve));
    modelUrl = `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`;
  });
  afterAll(async () => {
    await new Promise((resolve) => model?.close(resolve));
    await t?.close();
  });

  interface Shop {
    f: TeamFixture;
    channelId: number;
    key: string;
    write(who: string, text: string): Promise<Message>;
    roomOf(who: string): Promise<RoomRecord>;
    /** The room's bot-origin messages (the assistant's and the bot's), in order. */
    replies(who: string): Promise<(typeof messages.$inferSelect)[]>;
  }

  async function shop(settings: { enabled?: boolean; listed?: boolean } = {}): Promise<Shop> {
    n += 1;
    const f = await teamFixture(t, `Shop ${n}`, `shop${n}.test`);
    const channel = await ensureSandboxChannel(t.db, f.company);
    const { knowledge, assistant } = assistantServices(t.app);
    for (const article of DEMO_ARTICLES) await knowledge.createArticle(f.company, article);
    await assistant.updateSettings(f.company, { provider: 'local', enabled: settings.enabled ?? true, channels: settings.listed === false ? [] : [channel.id] });
    const key = channel.simulatorKey!;
    const roomOf = async (who: string) => {
      const [row] = await t.db.select({ id: rooms.id }).from(rooms).where(and(eq(rooms.channelId, channel.id), eq(rooms.externalId, who)));
      return (await chatService(t.app).roomRecord(row.id))!;
    };
    return {
      f,
      channelId: channel.id,
      key,
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
    };
  }

  it('answers free text on a listed channel as the bot, marked AI with its sources, once; counted', async () => {
    const s = await shop();
    const question = await s.write('ana', 'How do I return an item I bought?');
    const [reply, ...more] = await s.replies('ana');
    expect(more).toEqual([]);
    expect(reply).toMatchObject({ origin: 'bot', clientId: `ai:${question.id}`, senderName: ASSISTANT_TEXTS.senderName });
    expect(reply.text).toContain('within 30 days');
    expect(assistantMarkOf(reply.data)).toEqual({ sources: [expect.objectContaining({ title: 'Returns and refunds' })], handover: false });
    expect(provider.sent).toContain(reply.id);
    const room = await s.roomOf('ana');
    expect(room.pausedUntil).toBeNull();
    expect(await t.db.select().from(assistantUsage).where(eq(assistantUsage.companyId, s.f.company))).toEqual([expect.objectContaining({ kind: 'answer', key: `answer:${question.id}` })]);

    // The pipeline running the same message again (a replay, a second process) answers nothing more.
    const channels = t.app.services.get(assistantChannelsRef);
    const message = (await chatService(t.app).inboundMessage(question.id))!.message;
    await Promise.all([channels.handle(room, message), channels.handle(room, message)]);
    expect(await s.replies('ana')).toHaveLength(1);
    expect(await t.db.select().from(assistantUsage).where(eq(assistantUsage.companyId, s.f.company))).toHaveLength(1);
  });

  it('finishes a reply claimed by a process that stopped before sending it, once', async () => {
    const s = await shop();
    const first = await s.write('ben', 'Do you accept PayPal?');
    expect(await s.replies('ben')).toHaveLength(1);
    // A second question claimed (its reply stored as pending) by a process that died before sending it.
    const room = await s.roomOf('ben');
    const [row] = await t.db
      .insert(messages)
      .values({ companyId: s.f.company, roomId: room.id, origin: 'user', type: 'text', text: 'When are you open?', status: null, createdAt: t.clock.now() })
      .returning();
    await t.db
      .update(assistantConversations)
      .set({ lastInboundMessageId: row.id, pendingReply: { messageId: row.id, kind: 'answer', text: 'Monday to Friday, 9 am to 6 pm.', sources: [{ id: 1, title: 'Opening hours' }] } })
      .where(eq(assistantConversations.roomId, room.id));
    const channels = t.app.services.get(assistantChannelsRef);
    const message = (await chatService(t.app).inboundMessage(row.id))!.message;
    expect(await channels.handle(room, message)).toBe('handled');
    expect(await channels.handle(room, message)).toBe('handled');
    const replies = await s.replies('ben');
    expect(replies.map((r) => [r.clientId, r.text])).toEqual([
      [`ai:${first.id}`, expect.stringContaining('PayPal')],
      [`ai:${row.id}`, 'Monday to Friday, 9 am to 6 pm.'],
    ]);
    const [conv] = await t.db.select().from(assistantConversations).where(eq(assistantConversations.roomId, room.id));
    expect(conv.pendingReply).toBeNull();
  });

  it('hands over below the threshold: says so, pauses the room and opens it for a person; then stays silent while paused', async () => {
    const s = await shop();
    await t.db.update(rooms).set({ status: 'resolved' }).where(eq(rooms.companyId, s.f.company));
    await s.write('cleo', 'Do you organise guided mountain treks in winter?');
    const [handover] = await s.replies('cleo');
    expect(handover.text).toBe(ASSISTANT_TEXTS.handOver);
    expect(assistantMarkOf(handover.data)).toEqual({ sources: [], handover: true });
    const room = await s.roomOf('cleo');
    expect(room.pausedUntil!.getTime()).toBeGreaterThan(t.clock.now().getTime());
    const [{ status }] = await t.db.select({ status: rooms.status }).from(rooms).where(eq(rooms.id, room.id));
    expect(status).toBe('open');
    // No answer counted for a hand-over.
    expect(await t.db.select().from(assistantUsage).where(eq(assistantUsage.companyId, s.f.company))).toEqual([]);

    // Paused: even a question the knowledge answers gets no reply.
    await s.write('cleo', 'How do I return an item I bought?');
    expect(await s.replies('cleo')).toHaveLength(1);
  });

  it('hands over when the customer asks for a person, in English and in French', async () => {
    const s = await shop();
    await s.write('dan', 'Can I talk to a real person please?');
    expect((await s.replies('dan')).map((r) => r.text)).toEqual([ASSISTANT_TEXTS.handOver]);
    await s.write('eve', 'Je voudrais parler à un conseiller');
    expect((await s.replies('eve')).map((r) => r.text)).toEqual([ASSISTANT_TEXTS.handOver]);
    expect((await s.roomOf('eve')).pausedUntil).not.toBeNull();
  });

  it('after two unanswered questions in a row (the model answers without a source), hands over', async () => {
    const s = await shop();
    await assistantServices(t.app).assistant.updateSettings(s.f.company, { provider: 'openai-compatible', base_url: modelUrl, model: 'test-model' });
    await s.write('fay', 'How do I return an item I bought?');
    expect((await s.replies('fay')).map((r) => r.text)).toEqual([ASSISTANT_TEXTS.rephrase]);
    expect((await s.roomOf('fay')).pausedUntil).toBeNull();
    await s.write('fay', 'How long do refunds take?');
    expect((await s.replies('fay')).map((r) => r.text)).toEqual([ASSISTANT_TEXTS.rephrase, ASSISTANT_TEXTS.handOver]);
    expect((await s.roomOf('fay')).pausedUntil).not.toBeNull();
  });

  it('/stats counts the questions, answers, requests to rephrase and hand-overs, and lists the questions left without an answer, most asked first', async () => {
    const s = await shop();
    await s.write('gus', 'How do I return an item I bought?');
    await s.write('hal', 'Do you organise guided mountain treks in winter?');
    await s.write('ivy', 'do you organise  guided mountain treks in WINTER?');
    await s.write('jon', 'Can you repair a bicycle?');
    await s.write('kim', 'Can I talk to a real person please?');
    const stats = async (who: typeof s.f.admin, f = s.f) => {
      const today = t.clock.now().toISOString().slice(0, 10);
      const res = await f.call(who, 'GET', `/api/stats/?from=${today}&to=${today}&tz=UTC`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as StatsReport;
    };
    const report = await stats(s.f.admin);
    expect(report.assistant).toMatchObject({ questions: 5, answered: 1, rephrased: 0, handovers: 4, answer_rate: 20 });
    // Asking for a person is no gap in the knowledge: it is not listed.
    expect(report.assistant!.unanswered.map((q) => [q.question.toLowerCase().replace(/\s+/g, ' '), q.count])).toEqual([
      ['do you organise guided mountain treks in winter?', 2],
      ['can you repair a bicycle?', 1],
    ]);
    // An agent (own figures) gets none; another company's questions never count.
    expect((await stats(s.f.agent)).assistant).toBeNull();
    const other = await shop();
    expect((await stats(other.f.admin, other.f)).assistant).toMatchObject({ questions: 0, answer_rate: null, unanswered: [] });
  });

  it('says nothing when disabled or on a channel its settings do not list', async () => {
    const off = await shop({ enabled: false });
    await off.write('gus', 'How do I return an item I bought?');
    expect(await off.replies('gus')).toEqual([]);
    const unlisted = await shop({ listed: false });
    await unlisted.write('hal', 'How do I return an item I bought?');
    expect(await unlisted.replies('hal')).toEqual([]);
  });

  it('leaves the bot what a bot step takes, and answers the free text the bot would only repeat its question to', async () => {
    const s = await shop();
    const [bot] = await t.db.insert(bots).values({ companyId: s.f.company, name: 'Shop bot', startStepId: 'start', fallbackStepId: null }).returning({ id: bots.id });
    await t.db.insert(botSteps).values([
      { botId: bot.id, id: 'start', messages: [{ text: 'Welcome! Pick an option.', media_url: null, type: 'text' }], nextStepId: null, actions: [], inputVariable: null, position: 0 },
      { botId: bot.id, id: 'hours', messages: [{ text: 'We are open 9:00 to 19:00.', media_url: null, type: 'text' }], nextStepId: null, actions: [], inputVariable: null, position: 1 },
    ]);
    await t.db.insert(stepOptions).values({ botId: bot.id, id: 'o-hours', stepId: 'start', text: 'Opening hours', nextStep: 'hours', position: 0 });
    await t.db.insert(botChannels).values({ botId: bot.id, channelId: s.channelId, companyId: s.f.company });

    await s.write('ida', 'hi');
    await s.write('ida', 'How do I return an item I bought?');
    await s.write('ida', 'Opening hours');
    const replies = await s.replies('ida');
    expect(replies.map((r) => [r.clientId!.split(':')[0], r.text?.slice(0, 24)])).toEqual([
      ['bot', 'Welcome! Pick an option.'],
      ['ai', expect.stringContaining('You can return')],
      ['bot', 'We are open 9:00 to 19:0'],
    ]);
  });

  describe('the copilot', () => {
    it('suggests a reply from the knowledge and the last messages, never sent, counted', async () => {
      const s = await shop({ enabled: false });
      await s.write('jo', 'Hello! How do I return an item I bought?');
      const room = await s.roomOf('jo');
      const before = await t.db.select().from(messages).where(eq(messages.roomId, room.id));
      const res = await s.f.call(s.f.agent, 'POST', `/api/rooms/${room.id}/suggest-reply/`);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as SuggestReplyResponse;
      expect(body.text).toContain('within 30 days');
      expect(body.text).not.toContain('—');
      expect(body.sources.map((x) => x.title)).toEqual(['Returns and refunds']);
      expect(await t.db.select().from(messages).where(eq(messages.roomId, room.id))).toHaveLength(before.length);
      expect(await t.db.select().from(assistantUsage).where(eq(assistantUsage.companyId, s.f.company))).toEqual([expect.objectContaining({ kind: 'suggestion' })]);

      // Nothing in the knowledge for it: an empty suggestion, not counted.
      await s.write('kim', 'Do you organise guided mountain treks in winter?');
      const none = await s.f.call(s.f.agent, 'POST', `/api/rooms/${(await s.roomOf('kim')).id}/suggest-reply/`);
      expect(none.json()).toEqual({ text: '', sources: [] });
      expect(await t.db.select().from(assistantUsage).where(eq(assistantUsage.companyId, s.f.company))).toHaveLength(1);
    });

    it('stores the summary as a private note and returns it', async () => {
      const s = await shop();
      await s.write('lea', 'How do I return an item I bought?');
      await s.write('lea', 'And how long do refunds take?');
      const room = await s.roomOf('lea');
      const res = await s.f.call(s.f.manager, 'POST', `/api/rooms/${room.id}/summary/`);
      expect(res.statusCode, res.body).toBe(201);
      const note = res.json() as Message;
      expect(note).toMatchObject({ origin: 'note' });
      expect(note.text).toMatch(/^Summary: Customer lea — 4 message\(s\), 2 from the customer\./);
      expect(note.text).toContain('“And how long do refunds take?”');
      const [stored] = await t.db.select().from(messages).where(and(eq(messages.roomId, room.id), eq(messages.origin, 'note')));
      expect(stored.text).toBe(note.text);
    });

    it('only for members who may manage chats on that room', async () => {
      const s = await shop();
      await s.write('max', 'How do I return an item I bought?');
      const room = await s.roomOf('max');
      await t.seed.rolePermissions(s.f.company, 'manager', { can_manage_chats: false });
      for (const path of ['suggest-reply', 'summary']) {
        const res = await s.f.call(s.f.manager, 'POST', `/api/rooms/${room.id}/${path}/`);
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual(PERMISSION_DENIED);
      }
      // An agent limited to own rooms (the agent feature) may not for a room that is not theirs.
      await t.db.update(companies).set({ agentFeature: true }).where(eq(companies.id, s.f.company));
      for (const path of ['suggest-reply', 'summary']) expect((await s.f.call(s.f.agent, 'POST', `/api/rooms/${room.id}/${path}/`)).statusCode).toBe(403);
      expect((await s.f.call(s.f.admin, 'POST', `/api/rooms/${room.id}/suggest-reply/`)).statusCode).toBe(200);
      // A room that does not exist, or an id that is not one.
      expect((await s.f.call(s.f.admin, 'POST', `/api/rooms/999999999/summary/`)).statusCode).toBe(404);
      expect((await s.f.call(s.f.admin, 'POST', `/api/rooms/abc/suggest-reply/`)).statusCode).toBe(404);
    });
  });

  it('over the plan’s assistant answers this month: the channels hand over, the copilot answers the plan-limit error', async () => {
    const s = await shop();
    // The Free plan's allowance, used up this month.
    await t.db.insert(assistantUsage).values(Array.from({ length: 100 }, (_, i) => ({ companyId: s.f.company, key: `answer:used-${i}`, kind: 'answer' as const, createdAt: t.clock.now() })));
    const sub = await s.f.call(s.f.admin, 'GET', '/api/subscriptions/active/');
    expect(sub.json().usage.assistant_answers).toBe(100);
    expect(sub.json().plan.limits.assistant_answers).toBe(100);

    await s.write('ned', 'How do I return an item I bought?');
    expect((await s.replies('ned')).map((r) => r.text)).toEqual([ASSISTANT_TEXTS.handOver]);
    const res = await s.f.call(s.f.agent, 'POST', `/api/rooms/${(await s.roomOf('ned')).id}/suggest-reply/`);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({
      code: 'plan_limit_reached',
      limit: 'assistant_answers',
      max: 100,
      detail: 'The Free plan allows 100 assistant answers per month. Upgrade to Starter to add more.',
    });
  });
});
