/**
 * CSAT (issue #22): off by default, switched per channel; resolving a room sends the rating question
 * (choices; once even when two resolves race), the customer's next reply 1–5 within the window is
 * stored for the assignee at resolve, shown as an event row, never re-opens the room nor reaches a
 * bot; any other reply re-opens the room as usual; /stats counts the score. On both databases: the
 * resolve and the rating are conditional writes that processes race on (docs/testing.md).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import type { StatsReport } from '../../../contract/stats';
import { messages, rooms } from '../../core/db/schema';
import { createTestApp, describeEachDatabase, type TestApp } from '../../testing/testApp';
import { botChannels, bots, botSteps } from '../bots/testing';
import { ensureSandboxChannel } from '../sandbox';
import { teamFixture, type TeamFixture } from '../team/testing';
import { csatQuestion } from './csat';
import { chatService } from './index';
import { csatRequests, csatResponses, inboundWaiting } from './schema';

describe('the CSAT question', () => {
  it('offers choices where the channel does (WhatsApp: a list of five), and says how to answer by typing', () => {
    const q = csatQuestion('whatsapp');
    expect(q.type).toBe('interactive');
    expect(q.text).toMatch(/Reply with a number from 1 \(poor\) to 5 \(excellent\)/);
    expect((q.data!.buttons as { id: string }[]).map((b) => b.id)).toEqual(['csat:5', 'csat:4', 'csat:3', 'csat:2', 'csat:1']);
  });
});

describeEachDatabase('CSAT', (database) => {
  let t: TestApp;
  let f: TeamFixture;
  let channel: Awaited<ReturnType<typeof ensureSandboxChannel>>;
  let seq = 0;

  beforeAll(async () => {
    t = await createTestApp({ database });
    f = await teamFixture(t, 'Acme', 'acme.test');
    channel = await ensureSandboxChannel(t.db, f.company);
    // A bot answers every new conversation on the channel: a rating must never reach it.
    const [bot] = await t.db.insert(bots).values({ companyId: f.company, name: 'Helper', startStepId: 'start' }).returning({ id: bots.id });
    await t.db.insert(botSteps).values({ botId: bot.id, id: 'start', messages: [{ text: 'Hi, I am the bot.', media_url: null, type: 'text' }], nextStepId: null, actions: [], inputVariable: null, position: 0 });
    await t.db.insert(botChannels).values({ botId: bot.id, channelId: channel.id, companyId: f.company });
  });
  afterAll(() => t.close());

  async function write(customer: string, input: { text: string; type?: 'text' | 'button_reply'; data?: Record<string, unknown> }) {
    const chats = chatService(t.app);
    const result = await chats.receiveInbound(channel, { externalUserId: customer, name: customer, type: input.type ?? 'text', text: input.text, data: input.data ?? null, clientId: `m-${++seq}` });
    await chats.settled();
    return result;
  }
  const resolve = (roomId: number, body: Record<string, unknown> = {}) => f.call(f.agent, 'PATCH', `/api/rooms/${roomId}/`, { status: 'resolved', ...body });
  async function thread(roomId: number) {
    return t.db.select().from(messages).where(eq(messages.roomId, roomId)).orderBy(asc(messages.id));
  }
  async function status(roomId: number) {
    return (await t.db.select({ status: rooms.status }).from(rooms).where(eq(rooms.id, roomId)))[0].status;
  }
  const questions = async (roomId: number) => (await thread(roomId)).filter((m) => m.clientId?.startsWith('csat:') && m.origin === 'bot');

  it('is off by default: resolving sends nothing', async () => {
    expect((await f.call(f.agent, 'GET', '/api/csat/')).json()).toEqual({ count: 0, results: [] });
    const { room } = await write('ann', { text: 'hello' });
    expect((await resolve(room.id)).statusCode).toBe(200);
    expect(await questions(room.id)).toHaveLength(0);
  });

  it('is switched per channel by whoever manages channels', async () => {
    expect((await f.call(f.agent, 'PUT', `/api/csat/${channel.id}/`, { enabled: true })).statusCode).toBe(403);
    const bad = await f.call(f.admin, 'PUT', `/api/csat/${channel.id}/`, { enabled: 'yes' });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json())).toEqual(['enabled']);
    expect((await f.call(f.admin, 'PUT', '/api/csat/999999/', { enabled: true })).statusCode).toBe(404);
    const res = await f.call(f.admin, 'PUT', `/api/csat/${channel.id}/`, { enabled: true });
    expect(res.statusCode, res.body).toBe(200);
    expect((await f.call(f.agent, 'GET', '/api/csat/')).json()).toEqual({ count: 1, results: [{ channel_id: channel.id, enabled: true }] });
  });

  it('resolving sends the question once (two resolves at once), and a rating is stored for the assignee, the room left resolved, no bot answer', async () => {
    const { room } = await write('bo', { text: 'where is my order?' });
    const [first, second] = await Promise.all([resolve(room.id, { assignee_id: f.agent.id }), resolve(room.id, { assignee_id: f.agent.id })]);
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    await chatService(t.app).settled();
    const asked = await questions(room.id);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ type: 'interactive', status: expect.any(String) });
    expect((asked[0].data as { buttons: unknown[] }).buttons).toHaveLength(5);
    const before = (await thread(room.id)).length;

    const { message } = await write('bo', { type: 'button_reply', text: '4 - Good', data: { button_reply: { id: 'csat:4', title: '4 - Good' } } });
    expect(await status(room.id)).toBe('resolved');
    const after = (await thread(room.id)).slice(before);
    expect(after.map((m) => [m.origin, m.text, m.data])).toEqual([
      ['user', '4 - Good', { button_reply: { id: 'csat:4', title: '4 - Good' } }],
      ['system', 'Rated 4/5', { csat: { rating: 4 } }],
    ]);
    expect(await t.db.select().from(inboundWaiting).where(eq(inboundWaiting.messageId, message.id))).toHaveLength(0);
    const stored = await t.db.select().from(csatResponses).where(eq(csatResponses.roomId, room.id));
    expect(stored.map((r) => [r.rating, r.agentUserId, r.messageId])).toEqual([[4, f.agent.id, message.id]]);
    // The question is answered: a second "5" is an ordinary message, which re-opens the room.
    await write('bo', { text: '5' });
    expect(await status(room.id)).toBe('open');
    expect(await t.db.select().from(csatResponses).where(eq(csatResponses.roomId, room.id))).toHaveLength(1);
  });

  it('a typed rating counts; a reply that is not a rating re-opens the room and closes the question', async () => {
    const { room } = await write('cy', { text: 'hi' });
    await resolve(room.id);
    await chatService(t.app).settled();
    await write('cy', { text: ' 5 ' });
    expect(await status(room.id)).toBe('resolved');
    expect((await t.db.select().from(csatResponses).where(eq(csatResponses.roomId, room.id))).map((r) => [r.rating, r.agentUserId])).toEqual([[5, null]]);

    const { room: other } = await write('dee', { text: 'hi' });
    await resolve(other.id, { assignee_id: f.admin.id });
    await chatService(t.app).settled();
    await write('dee', { text: 'actually, one more question' });
    expect(await status(other.id)).toBe('open');
    await t.db.update(rooms).set({ status: 'resolved' }).where(eq(rooms.id, other.id));
    await write('dee', { text: '2' });
    expect(await status(other.id)).toBe('open');
    expect(await t.db.select().from(csatResponses).where(eq(csatResponses.roomId, other.id))).toHaveLength(0);
    const [request] = await t.db.select().from(csatRequests).where(eq(csatRequests.roomId, other.id));
    expect(request.closedAt).not.toBeNull();
  });

  it('a rating after the window is an ordinary message', async () => {
    const { room } = await write('eve', { text: 'hi' });
    await resolve(room.id, { assignee_id: f.admin.id });
    await chatService(t.app).settled();
    t.clock.advance(25 * 3_600_000);
    await f.signInAgain();
    await write('eve', { text: '1' });
    expect(await status(room.id)).toBe('open');
    expect(await t.db.select().from(csatResponses).where(and(eq(csatResponses.roomId, room.id)))).toHaveLength(0);
  });

  it('/stats counts the score (share of 4 and 5), the responses and per agent; an agent sees their own', async () => {
    // One more rating for the admin: a 2.
    const { room } = await write('fay', { text: 'hi' });
    await resolve(room.id, { assignee_id: f.admin.id });
    await chatService(t.app).settled();
    await write('fay', { text: '2' });
    const day = t.clock.now().toISOString().slice(0, 10);
    const from = new Date(t.clock.now().getTime() - 3 * 86_400_000).toISOString().slice(0, 10);
    const report = (await f.call(f.admin, 'GET', `/api/stats/?from=${from}&to=${day}&tz=UTC`)).json<StatsReport>();
    expect(report.csat).toMatchObject({ responses: 3, satisfied: 2, score: 66.7 });
    expect(report.csat.agents.map((a) => [a.email, a.responses, a.satisfied, a.score])).toEqual([
      [f.admin.email, 1, 0, 0],
      [f.agent.email, 1, 1, 100],
    ]);
    const own = (await f.call(f.agent, 'GET', `/api/stats/?from=${from}&to=${day}&tz=UTC`)).json<StatsReport>();
    expect(own.csat).toMatchObject({ responses: 1, satisfied: 1, score: 100 });
    expect(own.csat.agents.map((a) => a.user_id)).toEqual([f.agent.id]);
  });
});
