import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { Message } from '../../../contract/chats';
import { channels, messages } from '../../core/db/schema';
import { createTestApp, type TestApp } from '../../testing/testApp';
import { SANDBOX_RATE_RULES } from './routes';
import { ensureSandboxChannel } from './service';
import { registerChatChannels, chatService, useHubForTests, FakeHub, identityFor } from '../chats';

describe('sandbox channel and customer simulator', () => {
  let t: TestApp;
  let hub: FakeHub;
  let acme: number;
  let agentId: number;
  let admin: string;
  let key: string;
  let channelId: number;

  beforeAll(async () => {
    t = await createTestApp();
    hub = new FakeHub();
    useHubForTests(t.app, hub);
    registerChatChannels(hub, chatService(t.app));
    acme = await t.seed.company('Acme');
    const adminId = await t.seed.user({ email: 'boss@acme.test' });
    agentId = await t.seed.user({ email: 'agent@acme.test', firstName: 'Alex' });
    await t.seed.member(acme, adminId, 'admin');
    await t.seed.member(acme, agentId, 'agent');
    admin = (await t.login('boss@acme.test')).access;
    const res = await t.app.inject({ method: 'GET', url: '/api/sandbox/', headers: t.headers(admin, acme) });
    expect(res.statusCode).toBe(200);
    channelId = res.json().channel_id;
    key = res.json().simulator_url.split('/sandbox/')[1];
  });
  afterAll(() => t.close());
  beforeEach(() => hub.clear());

  const post = (customer: string, payload: Record<string, unknown>, k = key) =>
    t.app.inject({ method: 'POST', url: `/api/sandbox/${k}/conversations/${customer}/messages/`, payload });
  const poll = (customer: string, afterId = 0) => t.app.inject({ method: 'GET', url: `/api/sandbox/${key}/conversations/${customer}/messages/?after_id=${afterId}` });

  it('every new company gets a sandbox channel; GET /api/sandbox/ gives its simulator link', async () => {
    const created = await t.app.inject({ method: 'POST', url: '/api/companies/', headers: t.headers(admin), payload: { name: 'Fresh Co' } });
    const companyId = created.json().id;
    const rows = await t.db.select().from(channels).where(eq(channels.companyId, companyId));
    expect(rows).toMatchObject([{ platform: 'sandbox', name: 'Sandbox', externalId: `sandbox-${companyId}`, simulatorKey: expect.stringMatching(/^[A-Za-z0-9_-]{24}$/) }]);
    const link = await t.app.inject({ method: 'GET', url: '/api/sandbox/', headers: t.headers(admin, companyId) });
    expect(link.json()).toEqual({ channel_id: rows[0].id, simulator_url: `${t.config.publicUrl}/sandbox/${rows[0].simulatorKey}` });
    // The same channel every time; the Company header is required.
    expect((await ensureSandboxChannel(t.db, companyId)).id).toBe(rows[0].id);
    expect((await t.app.inject({ method: 'GET', url: '/api/sandbox/', headers: t.headers(admin) })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/api/sandbox/' })).statusCode).toBe(401);
  });

  it('GET /api/sandbox/{key}/ names the channel and the company; an unknown key is 404', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/sandbox/${key}/` });
    expect(res.json()).toEqual({ channel_id: channelId, channel_name: 'Sandbox', company_name: 'Acme' });
    expect((await t.app.inject({ method: 'GET', url: '/api/sandbox/AAAAAAAAAAAAAAAAAAAAAAAA/' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/sandbox/short/' })).statusCode).toBe(404);
  });

  it('a first message creates the room (new_room on the page), later ones broadcast new_message; client_id makes it idempotent', async () => {
    const first = await post('maria-1', { name: 'Maria Lopez', text: 'Hola!', client_id: 'sim-1' });
    expect(first.statusCode).toBe(201);
    const message = first.json().message as Message;
    expect(message).toMatchObject({ origin: 'user', type: 'text', text: 'Hola!', client_id: 'sim-1', sender_name: 'Maria Lopez' });
    const [created] = hub.since(0, { topic: `page:${channelId}`, event: 'new_room' });
    expect(created.payload.room).toMatchObject({ name: 'Maria Lopez', external_id: 'maria-1', unread: 1, messages: [{ id: message.id }] });
    expect(hub.since(0, { topic: `room:${message.room_id}`, event: 'new_message' })).toHaveLength(1);

    hub.clear();
    const again = await post('maria-1', { name: 'Maria Lopez', text: 'Hola!', client_id: 'sim-1' });
    expect(again.statusCode).toBe(200);
    expect(again.json().message.id).toBe(message.id);
    expect(hub.broadcasts).toHaveLength(0);

    const button = await post('maria-1', { name: 'Maria Lopez', button_reply: { id: 'yes', title: 'Yes please' }, client_id: 'sim-2' });
    expect(button.json().message).toMatchObject({ type: 'button_reply', text: 'Yes please', data: { button_reply: { id: 'yes', title: 'Yes please' } } });
    const image = await post('maria-1', { name: 'Maria Lopez', media_url: 'https://example.com/cat.png', client_id: 'sim-3' });
    expect(image.json().message).toMatchObject({ type: 'image', media_url: 'https://example.com/cat.png', media_type: 'image' });
    expect(hub.since(0, { topic: `page:${channelId}`, event: 'new_message' }).map((b) => b.payload.message.type)).toEqual(['button_reply', 'image']);
    expect(hub.since(0, { event: 'new_room' })).toHaveLength(0);
  });

  it('validates the simulator message', async () => {
    expect((await post('v-1', { name: 'V', client_id: 'v1' })).json()).toEqual({ text: ['A text, a media_url or a button_reply is required.'] });
    expect((await post('v-1', { name: 'V', media_url: 'javascript:alert(1)', client_id: 'v2' })).json()).toEqual({ media_url: ['Enter a valid URL.'] });
    expect((await post('v-1', { text: 'x', client_id: 'v3' })).json()).toMatchObject({ name: ['This field is required.'] });
    expect((await post('bad id!', { name: 'V', text: 'x', client_id: 'v4' })).statusCode).toBe(404);
    expect((await post('v-1', { name: 'V', text: 'x', client_id: 'v5' }, 'AAAAAAAAAAAAAAAAAAAAAAAA')).statusCode).toBe(404);
  });

  it('the simulator sees what agents send, and reading it marks the messages read', async () => {
    const inbound = (await post('reader-1', { name: 'Rita Reader', text: 'Hello?', client_id: 'r-1' })).json().message as Message;
    const agent = identityFor({ userId: agentId, email: 'agent@acme.test', firstName: 'Alex', companyId: acme, role: 'agent' });
    const { ctx } = await hub.join(agent, `room:${inbound.room_id}`);
    const sent = (await hub.push(ctx, 'send_message', { message: { text: 'Hi Rita, how can I help?', client_id: 'agent-1' } })).response.message as Message;
    await chatService(t.app).settled();
    hub.clear();

    const res = await poll('reader-1', inbound.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ blocked: false, messages: [expect.objectContaining({ id: sent.id, origin: 'agent', text: 'Hi Rita, how can I help?', status: 'read' })] });
    expect(hub.since(0, { topic: `room:${inbound.room_id}`, event: 'message_status' }).map((b) => [b.payload.id, b.payload.status])).toEqual([[sent.id, 'read']]);
    const [row] = await t.db.select().from(messages).where(eq(messages.id, sent.id));
    expect(row.status).toBe('read');

    // Both directions from the start; nothing new after the last id; an unknown customer has no messages yet.
    expect(((await poll('reader-1')).json().messages as Message[]).map((m) => m.origin)).toEqual(['user', 'agent']);
    expect((await poll('reader-1', sent.id)).json().messages).toEqual([]);
    expect((await poll('nobody-yet')).json()).toEqual({ messages: [], blocked: false });
    hub.clear();
    await poll('reader-1');
    expect(hub.broadcasts).toHaveLength(0);
  });

  it('a blocked customer is refused', async () => {
    const inbound = (await post('blocked-1', { name: 'Spammer', text: 'buy now', client_id: 'b-1' })).json().message as Message;
    const admin = identityFor({ userId: agentId, email: 'agent@acme.test', companyId: acme, role: 'agent' });
    const { ctx } = await hub.join(admin, `room:${inbound.room_id}`);
    await hub.push(ctx, 'block_user', {});
    const refused = await post('blocked-1', { name: 'Spammer', text: 'buy more', client_id: 'b-2' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ detail: 'This conversation is blocked.', code: 'blocked' });
    expect((await poll('blocked-1')).json().blocked).toBe(true);
    expect(await t.db.select().from(messages).where(and(eq(messages.roomId, inbound.room_id), eq(messages.clientId, 'b-2')))).toHaveLength(0);
  });

  it('rate-limits sends per simulator key', async () => {
    const company = await t.seed.company('Limited');
    const channel = await ensureSandboxChannel(t.db, company);
    let last = 0;
    for (let i = 0; i <= SANDBOX_RATE_RULES.write.limit; i++) {
      last = (await post('rl-1', { name: 'R', text: `m${i}`, client_id: `rl-${i}` }, channel.simulatorKey!)).statusCode;
    }
    expect(last).toBe(429);
    // Another key is not affected.
    expect((await post('rl-2', { name: 'R', text: 'ok', client_id: 'other-1' })).statusCode).toBe(201);
  });
});
