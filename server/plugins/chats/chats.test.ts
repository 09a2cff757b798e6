import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { CHAT_PAGE_SIZE, type Message, type Room } from '../../../contract/chats';
import { channels, companies, messages as messagesTable } from '../../core/db/schema';
import { createTestApp, describeEachDatabase, type TestApp } from '../../testing/testApp';
import { ensureSandboxChannel } from '../sandbox';
import { registerChatChannels } from './handlers';
import { chatService, useHubForTests } from './index';
import type { ChatService } from './service';
import { FakeHub, identityFor } from './testing';
import type { SocketIdentity } from '../../core/realtime/types';
import type { ChannelRow } from './views';

describeEachDatabase('chats topics (page:*, room:*)', (database) => {
  let t: TestApp;
  let hub: FakeHub;
  let chats: ChatService;
  let acme: number;
  let globex: number;
  let sandbox: ChannelRow;
  let foreignChannel: ChannelRow;
  let admin: SocketIdentity;
  let agent: SocketIdentity;
  let outsider: SocketIdentity;
  let customerSeq = 0;

  beforeAll(async () => {
    t = await createTestApp({ database });
    hub = new FakeHub();
    chats = chatService(t.app);
    useHubForTests(t.app, hub);
    registerChatChannels(hub, chats);
    acme = await t.seed.company('Acme');
    globex = await t.seed.company('Globex');
    const adminId = await t.seed.user({ email: 'boss@acme.test', firstName: 'Boss' });
    const managerId = await t.seed.user({ email: 'manager@acme.test', firstName: 'Mona' });
    const agentId = await t.seed.user({ email: 'agent@acme.test', firstName: 'Alex' });
    const outsiderId = await t.seed.user({ email: 'someone@globex.test' });
    await t.seed.member(acme, adminId, 'admin');
    await t.seed.member(acme, managerId, 'manager');
    await t.seed.member(acme, agentId, 'agent');
    await t.seed.member(globex, outsiderId, 'admin');
    admin = identityFor({ userId: adminId, email: 'boss@acme.test', firstName: 'Boss', companyId: acme, role: 'admin' });
    agent = identityFor({ userId: agentId, email: 'agent@acme.test', firstName: 'Alex', companyId: acme, role: 'agent' });
    outsider = identityFor({ userId: outsiderId, email: 'someone@globex.test', companyId: globex, role: 'admin' });
    sandbox = await ensureSandboxChannel(t.db, acme);
    foreignChannel = await ensureSandboxChannel(t.db, globex);
  });
  afterAll(() => t.close());
  beforeEach(() => hub.clear());

  /** A customer writes in (a new room each call unless `customer` is given). */
  async function inbound(text: string, customer?: { id: string; name: string }) {
    const who = customer ?? { id: `cust-${++customerSeq}`, name: `Customer ${customerSeq}` };
    return chats.receiveInbound(sandbox, { externalUserId: who.id, name: who.name, type: 'text', text, clientId: `c-${Math.random()}` });
  }

  async function newRoom(name?: string): Promise<number> {
    const id = `cust-${++customerSeq}`;
    const { room } = await inbound('hello', { id, name: name ?? `Customer ${customerSeq}` });
    return room.id;
  }

  describe('page:lobby and page:{id}', () => {
    it('page:lobby joins and fetch_pages lists the company channels', async () => {
      const { reply, ctx } = await hub.join(admin, 'page:lobby');
      expect(reply).toEqual({ status: 'ok', response: {} });
      const pages = await hub.push(ctx, 'fetch_pages', {});
      expect(pages).toEqual({
        status: 'ok',
        response: { page_ids: [sandbox.id], pages: [{ id: sandbox.id, name: 'Sandbox', platform: 'sandbox', external_id: `sandbox-${acme}` }] },
      });
    });

    it('page:{id} of another company, or not a page, is not found', async () => {
      expect((await hub.join(admin, `page:${foreignChannel.id}`)).reply).toEqual({ status: 'error', response: { reason: 'not found' } });
      expect((await hub.join(admin, 'page:abc')).reply).toEqual({ status: 'error', response: { reason: 'not found' } });
      expect((await hub.join(admin, `page:${sandbox.id}`)).reply.status).toBe('ok');
    });

    it('members without can_view_chats cannot join, without can_manage_chats cannot change anything', async () => {
      const blind = { ...agent, permissions: { ...agent.permissions, can_view_chats: false } };
      expect((await hub.join(blind, `page:${sandbox.id}`)).reply).toEqual({ status: 'error', response: { reason: 'forbidden' } });
      const roomId = await newRoom();
      expect((await hub.join(blind, `room:${roomId}`)).reply).toEqual({ status: 'error', response: { reason: 'forbidden' } });
      const readOnly = { ...agent, permissions: { ...agent.permissions, can_manage_chats: false } };
      const { ctx } = await hub.join(readOnly, `room:${roomId}`);
      expect(await hub.push(ctx, 'send_message', { message: { text: 'x', client_id: 'ro-1' } })).toEqual({ status: 'error', response: { reason: 'forbidden' } });
      expect(await hub.push(ctx, 'add_tag', { tag: 'vip' })).toEqual({ status: 'error', response: { reason: 'forbidden' } });
      expect((await hub.push(ctx, 'fetch_messages', {})).status).toBe('ok');
    });

    it('an inbound message of a new customer broadcasts new_room on the page; later ones new_message on room and page', async () => {
      const first = await inbound('Hi there', { id: '+33600000001', name: 'Maria Lopez' });
      expect(first.roomCreated).toBe(true);
      const [newRoomEvent] = hub.since(0, { topic: `page:${sandbox.id}`, event: 'new_room' });
      expect(newRoomEvent.payload.room).toMatchObject({ id: first.room.id, name: 'Maria Lopez', external_id: '+33600000001', page_id: sandbox.id, platform: 'sandbox', unread: 1, tags: [] });
      expect(newRoomEvent.payload.room.messages).toHaveLength(1);
      expect(hub.since(0, { topic: `page:${sandbox.id}`, event: 'new_message' })).toHaveLength(0);
      hub.clear();

      const second = await inbound('Are you there?', { id: '+33600000001', name: 'Maria Lopez' });
      expect(second.roomCreated).toBe(false);
      expect(hub.since(0, { topic: `room:${first.room.id}`, event: 'new_message' })[0].payload).toMatchObject({ text: 'Are you there?', origin: 'user', room_id: first.room.id });
      expect(hub.since(0, { topic: `page:${sandbox.id}`, event: 'new_message' })[0].payload).toMatchObject({ room_id: first.room.id, message: { text: 'Are you there?' } });
      expect(hub.since(0, { event: 'new_room' })).toHaveLength(0);
    });

    it('fetch_rooms: newest activity first, CHAT_PAGE_SIZE per page, search on name and external id, last message only, unread', async () => {
      const company = await t.seed.company('Paging Co');
      const userId = await t.seed.user({ email: 'pager@paging.test' });
      await t.seed.member(company, userId, 'admin');
      const me = identityFor({ userId, email: 'pager@paging.test', companyId: company, role: 'admin' });
      const channel = await ensureSandboxChannel(t.db, company);
      for (let i = 1; i <= CHAT_PAGE_SIZE + 5; i++) {
        t.clock.advance(1000);
        await chats.receiveInbound(channel, { externalUserId: `ext-${i}`, name: i === 7 ? 'Zoé 50%_Off' : `Person ${i}`, type: 'text', text: `m${i}`, clientId: `a${i}` });
        if (i === 3) await chats.receiveInbound(channel, { externalUserId: `ext-${i}`, name: 'x', type: 'text', text: 'second', clientId: `b${i}` });
      }
      const { ctx } = await hub.join(me, `page:${channel.id}`);
      const page1 = (await hub.push(ctx, 'fetch_rooms', { search: '', page: 1 })).response.rooms as Room[];
      expect(page1).toHaveLength(CHAT_PAGE_SIZE);
      expect(page1[0].external_id).toBe(`ext-${CHAT_PAGE_SIZE + 5}`);
      expect(page1.map((r) => r.last_message_at)).toEqual([...page1.map((r) => r.last_message_at)].sort().reverse());
      const page2 = (await hub.push(ctx, 'fetch_rooms', { search: '', page: 2 })).response.rooms as Room[];
      expect(page2.map((r) => r.external_id)).toEqual(['ext-5', 'ext-4', 'ext-3', 'ext-2', 'ext-1']);
      const three = page2.find((r) => r.external_id === 'ext-3')!;
      expect(three.messages.map((m) => m.text)).toEqual(['second']);
      expect(three.unread).toBe(2);

      const byName = (await hub.push(ctx, 'fetch_rooms', { search: 'zoé 50%_', page: 1 })).response.rooms as Room[];
      expect(byName.map((r) => r.external_id)).toEqual(['ext-7']);
      expect(((await hub.push(ctx, 'fetch_rooms', { search: '50%x', page: 1 })).response.rooms as Room[]).length).toBe(0);
      const byExternal = (await hub.push(ctx, 'fetch_rooms', { search: 'EXT-1', page: 1 })).response.rooms as Room[];
      expect(byExternal.map((r) => r.external_id).sort()).toEqual(['ext-1', 'ext-10', 'ext-11', 'ext-12', 'ext-13', 'ext-14', 'ext-15', 'ext-16', 'ext-17', 'ext-18', 'ext-19'].sort());

      // Tag filter; defaults apply to a bare payload; a bad payload is refused with its errors.
      const roomCtx = (await hub.join(me, `room:${three.id}`)).ctx;
      const tagged = (await hub.push(roomCtx, 'add_tag', { tag: 'billing' })).response.room as Room;
      const filtered = (await hub.push(ctx, 'fetch_rooms', { search: '', page: 1, tags: [tagged.tags[0].id] })).response.rooms as Room[];
      expect(filtered.map((r) => r.id)).toEqual([three.id]);
      expect(((await hub.push(ctx, 'fetch_rooms', {})).response.rooms as Room[]).length).toBe(CHAT_PAGE_SIZE);
      const bad = await hub.push(ctx, 'fetch_rooms', { search: '', page: 0 });
      expect(bad.status).toBe('error');
      expect(bad.response.reason).toBe('invalid payload');
      expect(bad.response.errors.page).toBeDefined();
      expect((await hub.push(ctx, 'nope', {})).response).toEqual({ reason: 'unknown event' });
    });

    it('create_new_chat_room creates the room, stores and sends the messages, broadcasts new_room; a second call returns the same room', async () => {
      const { ctx } = await hub.join(agent, `page:${sandbox.id}`);
      const payload = { user_id: 'new-customer-1', page_id: sandbox.id, platform: 'sandbox', name: 'Paul Durand', messages: [{ text: 'Hello Paul', client_id: 'cr-1' }] };
      const reply = await hub.push(ctx, 'create_new_chat_room', payload);
      expect(reply.status).toBe('ok');
      const room = reply.response.room as Room;
      expect(room).toMatchObject({ name: 'Paul Durand', external_id: 'new-customer-1', page_id: sandbox.id });
      expect(room.messages.map((m) => [m.origin, m.text, m.sender_name])).toEqual([['agent', 'Hello Paul', 'Alex']]);
      expect(hub.since(0, { topic: `page:${sandbox.id}`, event: 'new_room' })[0].payload.room.id).toBe(room.id);
      await chats.settled();
      const [stored] = await t.db.select().from(messagesTable).where(eq(messagesTable.roomId, room.id));
      expect(stored.status).toBe('delivered');

      hub.clear();
      const again = await hub.push(ctx, 'create_new_chat_room', payload);
      expect(again.response.room.id).toBe(room.id);
      expect(again.response.room.messages).toHaveLength(1);
      expect(hub.broadcasts).toHaveLength(0);

      expect((await hub.push(ctx, 'create_new_chat_room', { ...payload, page_id: foreignChannel.id })).response).toEqual({ reason: 'not found' });
      expect((await hub.push(ctx, 'create_new_chat_room', { ...payload, platform: 'whatsapp' })).response.reason).toBe('invalid payload');
      expect((await hub.push(ctx, 'create_new_chat_room', { page_id: sandbox.id })).response.errors).toMatchObject({ user_id: expect.any(Array), name: expect.any(Array) });
    });
  });

  describe('room:{id}', () => {
    it('join answers the room with its newest page, tracks presence and marks it read for this user only', async () => {
      const roomId = await newRoom('Reader Test');
      for (let i = 0; i < CHAT_PAGE_SIZE + 3; i++) await inbound(`n${i}`, { id: `cust-${customerSeq}`, name: 'Reader Test' });
      const { reply } = await hub.join(agent, `room:${roomId}`);
      expect(reply.status).toBe('ok');
      const room = reply.response.room as Room;
      expect(room.messages).toHaveLength(CHAT_PAGE_SIZE);
      expect(room.messages.at(-1)!.text).toBe(`n${CHAT_PAGE_SIZE + 2}`);
      expect(room.messages.map((m) => m.id)).toEqual([...room.messages.map((m) => m.id)].sort((a, b) => a - b));
      expect(room.unread).toBe(0);
      expect(reply.response.missed).toEqual([]);
      expect(hub.presence).toEqual([{ topic: `room:${roomId}`, key: String(agent.userId), meta: { name: 'Alex', email: 'agent@acme.test' } }]);

      const agentView = (await hub.push((await hub.join(agent, `page:${sandbox.id}`)).ctx, 'fetch_rooms', { search: 'Reader Test', page: 1 })).response.rooms[0];
      const adminView = (await hub.push((await hub.join(admin, `page:${sandbox.id}`)).ctx, 'fetch_rooms', { search: 'Reader Test', page: 1 })).response.rooms[0];
      expect(agentView.unread).toBe(0);
      expect(adminView.unread).toBe(CHAT_PAGE_SIZE + 4);
    });

    it('a background subscription (viewing false) neither marks read nor shows presence until the agent opens the room', async () => {
      const roomId = await newRoom('Background Test');
      await inbound('one', { id: `cust-${customerSeq}`, name: 'Background Test' });
      hub.presence.length = 0;
      const { reply, ctx } = await hub.join(agent, `room:${roomId}`, { viewing: false });
      expect(reply.status).toBe('ok');
      expect((reply.response.room as Room).unread).toBe(2);
      expect(hub.presence).toEqual([]);

      expect((await hub.push(ctx, 'view', { viewing: true })).status).toBe('ok');
      expect(hub.presence).toEqual([{ topic: `room:${roomId}`, key: String(agent.userId), meta: { name: 'Alex', email: 'agent@acme.test' } }]);
      const listed = async () => (await hub.push((await hub.join(agent, `page:${sandbox.id}`)).ctx, 'fetch_rooms', { search: 'Background Test', page: 1 })).response.rooms[0];
      expect((await listed()).unread).toBe(0);

      expect((await hub.push(ctx, 'view', { viewing: false })).status).toBe('ok');
      // The room's presence is gone (the inbox page joined above is presence of its own, for auto-assignment).
      expect(hub.presence.filter((p) => p.topic.startsWith('room:'))).toEqual([]);
      expect((await hub.push(ctx, 'view', { viewing: 'yes' })).status).toBe('error');
    });

    it('a reconnecting client catches up with last_message_id: exactly the messages after it', async () => {
      const roomId = await newRoom();
      const first = await hub.join(agent, `room:${roomId}`);
      const lastSeen = (first.reply.response.room as Room).messages.at(-1)!.id;
      await inbound('while away 1', { id: `cust-${customerSeq}`, name: 'x' });
      await inbound('while away 2', { id: `cust-${customerSeq}`, name: 'x' });
      const rejoin = await hub.join(agent, `room:${roomId}`, { last_message_id: lastSeen });
      expect((rejoin.reply.response.missed as Message[]).map((m) => m.text)).toEqual(['while away 1', 'while away 2']);
      const none = await hub.join(agent, `room:${roomId}`, { last_message_id: (rejoin.reply.response.missed as Message[])[1].id });
      expect(none.reply.response.missed).toEqual([]);
      const bad = await hub.join(agent, `room:${roomId}`, { last_message_id: 'x' });
      expect(bad.reply).toMatchObject({ status: 'error', response: { reason: 'invalid payload', errors: { last_message_id: expect.any(Array) } } });
    });

    it('cross-company joins are refused; unknown rooms are not found', async () => {
      const roomId = await newRoom();
      expect((await hub.join(outsider, `room:${roomId}`)).reply).toEqual({ status: 'error', response: { reason: 'not found' } });
      expect((await hub.join(admin, 'room:999999')).reply).toEqual({ status: 'error', response: { reason: 'not found' } });
      expect((await hub.join(admin, 'room:x')).reply).toEqual({ status: 'error', response: { reason: 'not found' } });
    });

    it('fetch_messages pages back with before_timestamp (ascending, has_more)', async () => {
      const roomId = await newRoom();
      for (let i = 0; i < CHAT_PAGE_SIZE + 4; i++) {
        t.clock.advance(1000);
        await inbound(`h${i}`, { id: `cust-${customerSeq}`, name: 'x' });
      }
      const { reply, ctx } = await hub.join(agent, `room:${roomId}`);
      const oldest = (reply.response.room as Room).messages[0];
      const older = await hub.push(ctx, 'fetch_messages', { before_timestamp: oldest.created_at });
      expect(older.status).toBe('ok');
      expect(older.response.has_more).toBe(false);
      expect((older.response.messages as Message[]).map((m) => m.text)).toEqual(['hello', 'h0', 'h1', 'h2', 'h3']);
      const byId = await hub.push(ctx, 'fetch_messages', { before_id: oldest.id });
      expect(byId.response.messages).toHaveLength(5);
      const latest = await hub.push(ctx, 'fetch_messages', { before_timestamp: null });
      expect(latest.response.has_more).toBe(true);
      expect((await hub.push(ctx, 'fetch_messages', { before_timestamp: 'not a date' })).response.reason).toBe('invalid payload');
    });

    it('send_message: stored first and idempotent on client_id, broadcast once on room and page, then pending → sent → delivered', async () => {
      const roomId = await newRoom();
      const { ctx } = await hub.join(agent, `room:${roomId}`);
      hub.clear();
      const payload = { message: { text: 'Hello from Alex', client_id: 'send-1' } };
      const reply = await hub.push(ctx, 'send_message', payload);
      expect(reply.status).toBe('ok');
      const message = reply.response.message as Message;
      expect(message).toMatchObject({ origin: 'agent', type: 'text', text: 'Hello from Alex', status: 'pending', client_id: 'send-1', sender_name: 'Alex', room_id: roomId });
      const again = await hub.push(ctx, 'send_message', payload);
      expect(again.response.message.id).toBe(message.id);
      await chats.settled();

      const stored = await t.db.select().from(messagesTable).where(eq(messagesTable.clientId, 'send-1'));
      expect(stored).toHaveLength(1);
      expect(stored[0]).toMatchObject({ status: 'delivered', externalId: `sandbox-${message.id}`, senderUserId: agent.userId });
      expect(hub.since(0, { topic: `room:${roomId}`, event: 'new_message' }).map((b) => b.payload.id)).toEqual([message.id]);
      expect(hub.since(0, { topic: `page:${sandbox.id}`, event: 'new_message' }).map((b) => b.payload)).toEqual([{ room_id: roomId, message }]);
      expect(hub.since(0, { topic: `room:${roomId}`, event: 'message_status' }).map((b) => b.payload.status)).toEqual(['sent', 'delivered']);

      const empty = await hub.push(ctx, 'send_message', { message: { text: '  ', client_id: 'send-2' } });
      expect(empty.response.reason).toBe('invalid payload');
      // Spec §7 clients send no client_id: accepted, without idempotency.
      const noClientId = await hub.push(ctx, 'send_message', { message: { text: 'x' } });
      expect(noClientId.response).toMatchObject({ message: { text: 'x', client_id: null } });
      const badClientId = await hub.push(ctx, 'send_message', { message: { text: 'x', client_id: 7 } });
      expect(badClientId.response).toMatchObject({ reason: 'invalid payload', errors: { 'message.client_id': expect.any(Array) } });
    });

    it('delivery status only moves forward; a failing provider marks the message failed with the error', async () => {
      const roomId = await newRoom();
      const { ctx } = await hub.join(agent, `room:${roomId}`);
      const { message } = (await hub.push(ctx, 'send_message', { message: { text: 'track me', client_id: 'mono-1' } })).response;
      await chats.settled();
      hub.clear();
      expect(await chats.applyStatus(message.id, 'sent')).toBeNull();
      expect(await chats.applyStatus(message.id, 'delivered')).toBeNull();
      expect((await chats.applyStatus(message.id, 'read'))!.status).toBe('read');
      expect(await chats.applyStatus(message.id, 'delivered')).toBeNull();
      expect(await chats.applyStatus(message.id, 'read')).toBeNull();
      expect(hub.since(0, { event: 'message_status' }).map((b) => b.payload.status)).toEqual(['read']);

      chats.registerProvider('whatsapp', { send: async () => Promise.reject(new Error('Recipient not on WhatsApp')) });
      const [wa] = await t.db.insert(channels).values({ companyId: acme, platform: 'whatsapp', name: 'WA', externalId: 'wa-1' }).returning();
      const waRoom = await chats.receiveInbound(wa, { externalUserId: '+1555', name: 'WA user', type: 'text', text: 'hi' });
      const waCtx = (await hub.join(agent, `room:${waRoom.room.id}`)).ctx;
      hub.clear();
      const sent = (await hub.push(waCtx, 'send_message', { message: { text: 'hello', client_id: 'wa-1' } })).response.message;
      await chats.settled();
      const statuses = hub.since(0, { event: 'message_status' }).map((b) => b.payload);
      expect(statuses).toEqual([expect.objectContaining({ id: sent.id, status: 'failed', error: 'Recipient not on WhatsApp' })]);
      expect(await chats.applyStatus(sent.id, 'delivered')).toBeNull();
    });

    it('update_user pauses and resumes the bot for the room and broadcasts room_info', async () => {
      const roomId = await newRoom();
      const { ctx } = await hub.join(agent, `room:${roomId}`);
      const until = new Date(t.clock.now().getTime() + 24 * 3600_000).toISOString();
      const paused = await hub.push(ctx, 'update_user', { user: { paused_until: until } });
      expect(paused.response.room.paused_until).toBe(until);
      expect(hub.since(0, { topic: `room:${roomId}`, event: 'room_info' })[0].payload.room.paused_until).toBe(until);
      const resumed = await hub.push(ctx, 'update_user', { user: { paused_until: null } });
      expect(resumed.response.room.paused_until).toBeNull();
      expect((await hub.push(ctx, 'update_user', { user: { paused_until: 'tomorrow' } })).response.reason).toBe('invalid payload');
    });

    it('block_user refuses sends until unblock_user; both reply the room with messages and broadcast', async () => {
      const roomId = await newRoom();
      const { ctx } = await hub.join(agent, `room:${roomId}`);
      const blocked = await hub.push(ctx, 'block_user', {});
      expect(blocked.response.room.blocked_at).toBe(t.clock.now().toISOString());
      expect(blocked.response.room.messages.length).toBeGreaterThan(0);
      expect(hub.since(0, { topic: `room:${roomId}`, event: 'block_user' })[0].payload.room.id).toBe(roomId);
      expect(await hub.push(ctx, 'send_message', { message: { text: 'x', client_id: 'blocked-1' } })).toEqual({ status: 'error', response: { reason: 'blocked' } });
      expect(await t.db.select().from(messagesTable).where(eq(messagesTable.clientId, 'blocked-1'))).toHaveLength(0);
      await expect(inbound('let me in', { id: `cust-${customerSeq}`, name: 'x' })).rejects.toThrow('blocked');

      const unblocked = await hub.push(ctx, 'unblock_user', {});
      expect(unblocked.response.room.blocked_at).toBeNull();
      expect(hub.since(0, { topic: `room:${roomId}`, event: 'unblock_user' })).toHaveLength(1);
      expect((await hub.push(ctx, 'send_message', { message: { text: 'x', client_id: 'blocked-1' } })).status).toBe('ok');
    });

    it('add_tag / remove_tag: tags are created per company on first use (case-insensitive) and broadcast room_info', async () => {
      const roomA = await newRoom();
      const roomB = await newRoom();
      const a = (await hub.join(agent, `room:${roomA}`)).ctx;
      const b = (await hub.join(agent, `room:${roomB}`)).ctx;
      const tagged = await hub.push(a, 'add_tag', { tag: '  VIP ' });
      expect(tagged.response.room.tags).toEqual([{ id: expect.any(Number), name: 'VIP' }]);
      const same = await hub.push(b, 'add_tag', { tag: 'vip' });
      expect(same.response.room.tags).toEqual(tagged.response.room.tags);
      expect((await hub.push(a, 'add_tag', { tag: 'vip' })).response.room.tags).toHaveLength(1);
      expect(hub.since(0, { topic: `room:${roomA}`, event: 'room_info' })).toHaveLength(2);
      const removed = await hub.push(a, 'remove_tag', { tag: 'Vip' });
      expect(removed.response.room.tags).toEqual([]);
      expect((await hub.push(a, 'add_tag', { tag: '' })).response.reason).toBe('invalid payload');

      const { access } = await t.login('boss@acme.test');
      const res = await t.app.inject({ method: 'GET', url: '/api/tags/', headers: t.headers(access, acme) });
      expect(res.statusCode).toBe(200);
      expect(res.json().results.filter((tag: { name: string }) => tag.name.toLowerCase() === 'vip')).toHaveLength(1);
    });

    it('GET /api/chats/rooms/{id}/messages/ pages back for non-socket clients', async () => {
      const roomId = await newRoom();
      const { access } = await t.login('agent@acme.test');
      const res = await t.app.inject({ method: 'GET', url: `/api/chats/rooms/${roomId}/messages/`, headers: t.headers(access, acme) });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ has_more: false, messages: [{ text: 'hello' }] });
      const foreign = await t.app.inject({ method: 'GET', url: `/api/chats/rooms/${roomId}/messages/`, headers: t.headers((await t.login('someone@globex.test')).access, globex) });
      expect(foreign.statusCode).toBe(404);
    });
  });

  describe('agent feature', () => {
    let company: number;
    let channel: ChannelRow;
    let fAdmin: SocketIdentity;
    let fManager: SocketIdentity;
    let fAgent: SocketIdentity;

    beforeAll(async () => {
      company = await t.seed.company('Agents Only');
      await t.db.update(companies).set({ agentFeature: true }).where(eq(companies.id, company));
      const ids = await Promise.all(['a', 'm', 'g'].map((p) => t.seed.user({ email: `${p}@agents.test` })));
      await t.seed.member(company, ids[0], 'admin');
      await t.seed.member(company, ids[1], 'manager');
      await t.seed.member(company, ids[2], 'agent');
      fAdmin = identityFor({ userId: ids[0], email: 'a@agents.test', companyId: company, role: 'admin' });
      fManager = identityFor({ userId: ids[1], email: 'm@agents.test', companyId: company, role: 'manager' });
      fAgent = identityFor({ userId: ids[2], email: 'g@agents.test', companyId: company, role: 'agent' });
      channel = await ensureSandboxChannel(t.db, company);
    });

    it('an agent may join only rooms tagged with their e-mail; admin and manager may join any', async () => {
      const { room } = await chats.receiveInbound(channel, { externalUserId: 'af-1', name: 'Feature Room', type: 'text', text: 'hi' });
      const other = await chats.receiveInbound(channel, { externalUserId: 'af-2', name: 'Other Room', type: 'text', text: 'hi' });
      expect((await hub.join(fAgent, `room:${room.id}`)).reply).toEqual({ status: 'error', response: { reason: 'forbidden' } });
      expect((await hub.join(fAdmin, `room:${room.id}`)).reply.status).toBe('ok');
      const managerCtx = (await hub.join(fManager, `room:${room.id}`)).ctx;
      await hub.push(managerCtx, 'add_tag', { tag: 'G@Agents.test' });
      await hub.push(managerCtx, 'add_tag', { tag: 'priority' });
      expect((await hub.join(fAgent, `room:${room.id}`)).reply.status).toBe('ok');

      const pageCtx = (await hub.join(fAgent, `page:${channel.id}`)).ctx;
      const rooms = (await hub.push(pageCtx, 'fetch_rooms', { search: '', page: 1 })).response.rooms as Room[];
      expect(rooms.map((r) => r.id)).toEqual([room.id]);
      const adminRooms = (await hub.push((await hub.join(fAdmin, `page:${channel.id}`)).ctx, 'fetch_rooms', { search: '', page: 1 })).response.rooms as Room[];
      expect(adminRooms.map((r) => r.id).sort()).toEqual([room.id, other.room.id].sort());

      // The page filter (for hubs supporting handle_out) drops events of rooms the agent may not see.
      const handler = hub.handlers.get('page')! as unknown as { handleOut(e: string, p: unknown, c: unknown): Promise<unknown> };
      expect(await handler.handleOut('new_message', { room_id: other.room.id }, pageCtx)).toBeNull();
      expect(await handler.handleOut('new_message', { room_id: room.id }, pageCtx)).toEqual({ room_id: room.id });

      // Untagged again: the agent's open room refuses further pushes.
      const agentRoom = (await hub.join(fAgent, `room:${room.id}`)).ctx;
      await hub.push(managerCtx, 'remove_tag', { tag: 'g@agents.test' });
      expect((await hub.push(agentRoom, 'fetch_messages', {})).response).toEqual({ reason: 'forbidden' });
    });

    it('GET /api/tags/: agents see only tags naming members’ e-mails, admins and managers all', async () => {
      await chats.ensureTag(company, 'g@agents.test');
      await chats.ensureTag(company, 'stranger@elsewhere.test');
      const asAgent = await t.app.inject({ method: 'GET', url: '/api/tags/', headers: t.headers((await t.login('g@agents.test')).access, company) });
      expect(asAgent.json().results.map((tag: { name: string }) => tag.name)).toEqual(['g@agents.test']);
      const asManager = await t.app.inject({ method: 'GET', url: '/api/tags/', headers: t.headers((await t.login('m@agents.test')).access, company) });
      expect(asManager.json()).toMatchObject({ count: 3, next: null, previous: null });
      expect(asManager.json().results.map((tag: { name: string }) => tag.name).sort()).toEqual(['g@agents.test', 'priority', 'stranger@elsewhere.test']);
      // Elsewhere (no agent feature) every member sees every tag.
      const acmeAgent = await t.app.inject({ method: 'GET', url: '/api/tags/', headers: t.headers((await t.login('agent@acme.test')).access, acme) });
      expect(acmeAgent.json().results.length).toBeGreaterThan(0);
    });
  });
});
