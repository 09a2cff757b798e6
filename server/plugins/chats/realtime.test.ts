/**
 * The inbox topics over the real socket with the official phoenix.js client: pages, rooms,
 * presence, sends with their delivery statuses, broadcasts between agents, and reconnect catch-up.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Presence, type Socket } from 'phoenix';
import type { Message, PageInfo, Room } from '../../../contract/chats';
import { connect, disconnect, join, nextEvent, phoenixSocket, push, startRealtimeApp, waitFor, type RealtimeTestApp, type TransportName } from '../../core/realtime/testSupport';
import { ensureSandboxChannel } from '../sandbox';
import { chatService } from './index';
import type { ChannelRow } from './views';

let rt: RealtimeTestApp;
let sandbox: ChannelRow;
let adminAccess: string;
let customerSeq = 0;

beforeAll(async () => {
  rt = await startRealtimeApp({ email: 'alex@acme.test', realtime: { longPollTimeoutMs: 300, longPollSessionTtlMs: 400 } });
  sandbox = await ensureSandboxChannel(rt.t.db, rt.companyId);
  const adminId = await rt.t.seed.user({ email: 'boss@acme.test', firstName: 'Boss' });
  await rt.t.seed.member(rt.companyId, adminId, 'admin');
  adminAccess = (await rt.t.login('boss@acme.test')).access;
});
afterAll(async () => rt.close());

/** The customer simulator writes in over HTTP. */
async function customerSays(customer: string, text: string, name = 'Maria Lopez'): Promise<Message> {
  const res = await rt.t.app.inject({
    method: 'POST',
    url: `/api/sandbox/${sandbox.simulatorKey}/conversations/${customer}/messages/`,
    payload: { name, text, client_id: `${customer}-${Math.random()}` },
  });
  expect(res.statusCode).toBe(201);
  return res.json().message;
}

// Long-poll runs the same topics through the same hub; it is covered by the hub's own conformance suite
// (an app with finished long-poll sessions currently takes ~70 s to close, which would dominate this file).
for (const transport of ['websocket'] as TransportName[]) {
  describe(`inbox topics over ${transport}`, () => {
    const sockets: Socket[] = [];
    const open = async (access = rt.access) => {
      const socket = phoenixSocket(rt.endpoint, transport, { token: access, company_id: String(rt.companyId) });
      sockets.push(socket);
      await connect(socket);
      return socket;
    };
    afterEach(async () => {
      await Promise.all(sockets.splice(0).map(disconnect));
      await waitFor(() => rt.hub().socketCount() === 0, 3_000, 'sockets to close');
    });

    it('page:lobby lists the pages; page:{id} announces new rooms and lists them', async () => {
      const socket = await open();
      const lobby = socket.channel('page:lobby', {});
      expect(await join(lobby)).toEqual({ status: 'ok', response: {} });
      const pages = (await push(lobby, 'fetch_pages', {})).response as { page_ids: number[]; pages: PageInfo[] };
      expect(pages.page_ids).toEqual([sandbox.id]);

      const page = socket.channel(`page:${sandbox.id}`, {});
      expect((await join(page)).status).toBe('ok');
      const customer = `${transport}-${++customerSeq}`;
      const announced = nextEvent(page, 'new_room');
      await customerSays(customer, 'Hello, anyone?');
      const { room } = (await announced) as { room: Room };
      expect(room).toMatchObject({ external_id: customer, name: 'Maria Lopez', unread: 1, messages: [{ text: 'Hello, anyone?' }] });

      const listed = (await push(page, 'fetch_rooms', { search: customer, page: 1 })).response as { rooms: Room[] };
      expect(listed.rooms.map((r) => r.id)).toEqual([room.id]);
      expect((await join(socket.channel('page:999999', {})))).toEqual({ status: 'error', response: { reason: 'not found' } });
    });

    it("a member with the channel's inbox open is online for its auto-assignment: a new conversation goes to them; gone, nobody gets it", async () => {
      const toggle = (enabled: boolean) =>
        rt.t.app.inject({ method: 'PUT', url: `/api/auto-assignment/${sandbox.id}/`, payload: { enabled }, headers: rt.t.headers(adminAccess, rt.companyId) });
      expect((await toggle(true)).statusCode).toBe(200);
      try {
        const socket = await open();
        const page = socket.channel(`page:${sandbox.id}`, {});
        expect((await join(page)).status).toBe('ok');
        // The page join tracked the agent (who may manage chats) on the page's presence.
        expect(Object.keys(await rt.hub().listPresence(`page:${sandbox.id}`))).toEqual([String(rt.userId)]);
        const first = await customerSays(`${transport}-${++customerSeq}`, 'Hello?');
        await chatService(rt.t.app).settled();
        expect((await chatService(rt.t.app).roomRecord(first.room_id))!.assigneeUserId).toBe(rt.userId);

        await disconnect(socket);
        await waitFor(() => rt.hub().socketCount() === 0, 3_000, 'the socket to close');
        expect(await rt.hub().listPresence(`page:${sandbox.id}`)).toEqual({});
        const second = await customerSays(`${transport}-${++customerSeq}`, 'Anyone?');
        await chatService(rt.t.app).settled();
        expect((await chatService(rt.t.app).roomRecord(second.room_id))!.assigneeUserId).toBeNull();
      } finally {
        await toggle(false);
      }
    });

    it('two agents in one room: presence, a send with its statuses, the simulator reading it, and catch-up after a reconnect', async () => {
      const customer = `${transport}-${++customerSeq}`;
      const first = await customerSays(customer, 'I need help');
      const agentSocket = await open();
      const adminSocket = await open(adminAccess);

      const agentRoom = agentSocket.channel(`room:${first.room_id}`, {});
      const joined = await join(agentRoom);
      expect(joined.status).toBe('ok');
      const opened = joined.response as { room: Room; missed: Message[] };
      expect(opened.room.messages.map((m) => m.text)).toEqual(['I need help']);
      expect(opened.missed).toEqual([]);

      const adminRoom = adminSocket.channel(`room:${first.room_id}`, {});
      const presence = new Presence(adminRoom);
      expect((await join(adminRoom)).status).toBe('ok');
      await waitFor(() => presence.list().length === 2, 3_000, 'both agents in presence');
      const metas = presence.list((_key, { metas }) => metas[0]) as { name: string; email: string }[];
      expect(metas.map((m) => m.email).sort()).toEqual(['alex@acme.test', 'boss@acme.test']);

      // The agent sends; the admin sees the message, then its delivery statuses.
      const seen = nextEvent(adminRoom, 'new_message');
      const statuses: string[] = [];
      adminRoom.on('message_status', (m: Message) => {
        statuses.push(m.status!);
      });
      const reply = await push(agentRoom, 'send_message', { message: { text: 'Happy to help!', client_id: `${customer}-send` } });
      expect(reply.status).toBe('ok');
      const sent = (reply.response as { message: Message }).message;
      expect(sent.status).toBe('pending');
      expect(((await seen) as Message).id).toBe(sent.id);
      await waitFor(() => statuses.length === 2, 3_000, 'sent and delivered');
      expect(statuses).toEqual(['sent', 'delivered']);
      // Resent with the same client_id: the same message, nothing new broadcast.
      const again = await push(agentRoom, 'send_message', { message: { text: 'Happy to help!', client_id: `${customer}-send` } });
      expect((again.response as { message: Message }).message.id).toBe(sent.id);

      const read = nextEvent(adminRoom, 'message_status');
      const polled = await rt.t.app.inject({ method: 'GET', url: `/api/sandbox/${sandbox.simulatorKey}/conversations/${customer}/messages/?after_id=${first.id}` });
      expect(polled.json().messages.map((m: Message) => m.text)).toEqual(['Happy to help!']);
      expect(await read).toMatchObject({ id: sent.id, status: 'read' });

      // The admin goes away; the customer writes twice; rejoining with the last id catches up exactly.
      await new Promise<void>((resolve) => adminRoom.leave().receive('ok', () => resolve()));
      await customerSays(customer, 'Thanks!');
      await customerSays(customer, 'One more question');
      const rejoin = adminSocket.channel(`room:${first.room_id}`, { last_message_id: sent.id });
      const caught = await join(rejoin);
      expect((caught.response as { missed: Message[] }).missed.map((m) => m.text)).toEqual(['Thanks!', 'One more question']);

      // Blocking is seen by the other agent; sending is then refused.
      const blocked = nextEvent(agentRoom, 'block_user');
      expect((await push(rejoin, 'block_user', {})).status).toBe('ok');
      expect(((await blocked) as { room: Room }).room.blocked_at).not.toBeNull();
      expect(await push(agentRoom, 'send_message', { message: { text: 'x', client_id: `${customer}-x` } })).toEqual({ status: 'error', response: { reason: 'blocked' } });
      await chatService(rt.t.app).settled();
    });
  });
}
