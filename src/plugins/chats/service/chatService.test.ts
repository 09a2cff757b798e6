// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAccountStore } from '../../../core/account/accountStore';
import { membership, testUser } from '../../../core/account/testUsers';
import { createAlertApi } from '../../../core/alert/alertApi';
import { createFakeHttp } from '../../../core/testing/fakeHttp';
import type { AccountStore } from '../../../core/apis';
import { createFakeChatServer, message, room, WINDOW_CLOSED_MESSAGE, type FakeChatServer } from '../testing/fakeChatServer';
import { WHATSAPP_WINDOW_MS, type MessageTemplate } from '../../../../contract/channels';
import { FakeSocket, flush } from '../../../core/testing/fakeSocket';
import { loadUnread, unreadKey } from '../model/unread';
import { createChatService, REVOKED_MEMBERSHIP_CLOSE, REVOKED_SESSION_CLOSE, type ChatService } from './chatService';

function setup(server: FakeChatServer, http?: ReturnType<typeof createFakeHttp>) {
  const account: AccountStore = createAccountStore();
  account.setUser(testUser([membership(1), membership(2)]));
  account.selectCompany(1);
  const sockets: FakeSocket[] = [];
  const alert = createAlertApi();
  const service = createChatService({
    realtime: { createSocket: () => { const s = new FakeSocket((topic, event, payload) => server.reply(topic, event, payload)); sockets.push(s); return s.asSocket(); } },
    account,
    alert,
    http,
  });
  return { service, account, alert, sockets, socket: () => sockets[sockets.length - 1] };
}

async function started(service: ChatService) {
  service.start();
  await flush(20);
}

describe('chat service', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => vi.useRealTimers());

  it('connects, loads pages, joins page topics and lists rooms newest first', async () => {
    const server = createFakeChatServer({
      rooms: [
        { room: room(1), messages: [message(1, 1)] },
        { room: room(2), messages: [message(2, 5)] },
      ],
    });
    const { service, socket } = setup(server);
    await started(service);
    const s = service.getState();
    expect(s.connection).toBe('live');
    expect(s.pages.map((p) => p.id)).toEqual([1]);
    expect(socket().joins.map((j) => j.topic)).toEqual(expect.arrayContaining(['page:lobby', 'page:1']));
    expect(s.visibleRoomIds).toEqual([2, 1]);
    expect(server.log.find((l) => l.event === 'fetch_rooms')?.payload).toEqual({ search: '', page: 1, pages: [1], status: 'open' });
  });

  it('counts unread customer messages once (page and room topics both deliver), persists them per company, clears on select', async () => {
    const server = createFakeChatServer({ rooms: [{ room: room(1), messages: [message(1, 1)] }, { room: room(2), messages: [message(2, 2)] }] });
    const { service, socket } = setup(server);
    await started(service);
    await vi.waitFor(() => expect(socket().joins.filter((j) => j.topic.startsWith('room:'))).toHaveLength(2));
    await flush(10);
    const m = server.add(1, { origin: 'user', text: 'hello' });
    socket().emit('page:1', 'new_message', { room_id: 1, message: m });
    socket().emit('room:1', 'new_message', m);
    const bot = server.add(1, { origin: 'bot', text: 'auto' });
    socket().emit('room:1', 'new_message', bot);
    expect(service.getState().unread).toEqual({ 1: 1 });
    expect(loadUnread(1)).toEqual({ 1: 1 });
    expect(service.getState().threads[1].messages.filter((x) => x.id === m.id)).toHaveLength(1);
    expect(service.getState().visibleRoomIds[0]).toBe(1);

    service.selectRoom(1);
    expect(service.getState().unread).toEqual({});
    const m2 = server.add(1, { origin: 'user' });
    socket().emit('room:1', 'new_message', m2);
    expect(service.getState().unread).toEqual({}); // the open room does not count
    const m3 = server.add(2, { origin: 'user' });
    socket().emit('page:1', 'new_message', { room_id: 2, message: m3 });
    expect(service.getState().unread).toEqual({ 2: 1 });
  });

  it('customer messages that came while the console was closed count as unread (the server count, or the local one when higher)', async () => {
    localStorage.setItem('chats.unread.1', JSON.stringify({ 2: 5 }));
    const server = createFakeChatServer({
      rooms: [
        { room: room(1, { unread: 2 }), messages: [message(1, 1, { origin: 'user' }), message(1, 2, { origin: 'user' })] },
        { room: room(2, { unread: 1 }), messages: [message(2, 3, { origin: 'user' })] },
      ],
    });
    const { service } = setup(server);
    await started(service);
    expect(service.getState().unread).toEqual({ 1: 2, 2: 5 });
  });

  it('sends optimistically and replaces by the server copy; a failed send retries with the same client_id', async () => {
    const server = createFakeChatServer({ rooms: [{ room: room(1), messages: [message(1, 1)] }] });
    const { service, socket } = setup(server);
    await started(service);
    service.selectRoom(1);
    await flush(10);
    server.failNext.add('send_message');
    const cid = service.sendMessage(1, 'Hi there 😀');
    let list = service.getState().threads[1].messages;
    expect(list[list.length - 1]).toMatchObject({ text: 'Hi there 😀', status: 'pending', local: true });
    await flush(10);
    list = service.getState().threads[1].messages;
    expect(list[list.length - 1]).toMatchObject({ status: 'failed', client_id: cid });

    service.retryMessage(1, cid);
    expect(service.getState().threads[1].messages.at(-1)!.status).toBe('pending');
    await flush(10);
    list = service.getState().threads[1].messages;
    expect(list.filter((m) => m.client_id === cid)).toHaveLength(1);
    expect(list.at(-1)).toMatchObject({ status: 'sent', client_id: cid });
    expect(list.at(-1)!.id).toBeGreaterThan(0);
    const sends = socket().pushes.filter((p) => p.event === 'send_message');
    expect(sends.map((p) => p.payload.message.client_id)).toEqual([cid, cid]);

    // The echo on the room topic and later status updates: still one message, status forward only.
    const stored = list.at(-1)!;
    socket().emit('room:1', 'new_message', stored);
    socket().emit('room:1', 'message_status', { ...stored, status: 'read' });
    socket().emit('room:1', 'message_status', { ...stored, status: 'delivered' });
    list = service.getState().threads[1].messages;
    expect(list.filter((m) => m.client_id === cid)).toHaveLength(1);
    expect(list.at(-1)!.status).toBe('read');
  });

  it('tells the server which room is being viewed, so background subscriptions neither mark read nor show presence', async () => {
    const server = createFakeChatServer({ rooms: [{ room: room(1), messages: [message(1, 1)] }, { room: room(2), messages: [message(2, 2)] }] });
    const { service, socket } = setup(server);
    await started(service);
    service.selectRoom(1);
    await vi.waitFor(() => expect(socket().joins.filter((j) => j.topic.startsWith('room:'))).toHaveLength(2));
    expect(socket().joins.find((j) => j.topic === 'room:1')!.payload).toMatchObject({ viewing: true });
    expect(socket().joins.find((j) => j.topic === 'room:2')!.payload).toMatchObject({ viewing: false });
    service.selectRoom(2);
    await flush(5);
    const views = server.log.filter((l) => l.event === 'view').map((l) => [l.topic, l.payload]);
    expect(views).toEqual([
      ['room:1', { viewing: false }],
      ['room:2', { viewing: true }],
    ]);
  });

  it('after a reconnect rejoins rooms with last_message_id, merges what was missed without gap or duplicate and re-syncs the list', async () => {
    const server = createFakeChatServer({ rooms: [{ room: room(1), messages: [message(1, 1), message(1, 2)] }, { room: room(2), messages: [message(2, 3)] }] });
    const { service, socket } = setup(server);
    await started(service);
    service.selectRoom(1);
    await vi.waitFor(() => expect(socket().joins.filter((j) => j.topic.startsWith('room:'))).toHaveLength(2));
    await flush(10);
    socket().drop();
    expect(service.getState().connection).toBe('reconnecting');
    const missed1 = server.add(1, { origin: 'user', text: 'while away' });
    const missed2 = server.add(2, { origin: 'user', text: 'other room' });
    const fetchesBefore = server.log.filter((l) => l.event === 'fetch_rooms').length;
    socket().open();
    await flush(20);
    await new Promise((r) => setTimeout(r, 250));
    await flush(10);
    expect(service.getState().connection).toBe('live');
    const rejoin = socket().joins.filter((j) => j.topic === 'room:1');
    // The open room rejoins as viewed; background rooms do not claim to be read.
    expect(rejoin.at(-1)!.payload).toEqual({ last_message_id: 2, viewing: true, notes: true });
    expect(socket().joins.filter((j) => j.topic === 'room:2').at(-1)!.payload).toMatchObject({ viewing: false });
    const ids = service.getState().threads[1].messages.map((m) => m.id);
    expect(ids).toEqual([1, 2, missed1.id]);
    expect(service.getState().rooms[2].messages[0].id).toBe(missed2.id);
    expect(service.getState().unread).toEqual({ 2: 1 });
    expect(server.log.filter((l) => l.event === 'fetch_rooms').length).toBeGreaterThan(fetchesBefore);
  });

  it('a room join refused for the joins-per-user limit is made again after retry_after; one refused as not found is not', async () => {
    const server = createFakeChatServer({ rooms: [{ room: room(1), messages: [message(1, 1), message(1, 2)] }, { room: room(2), messages: [message(2, 3)] }] });
    server.refuseNext('room:1', 'phx_join', { reason: 'rate limited', retry_after: 1 });
    server.refuseNext('room:2', 'phx_join', { reason: 'not found' });
    const { service, socket } = setup(server);
    await started(service);
    service.selectRoom(1);
    await vi.waitFor(() => expect(socket().joins.filter((j) => j.topic.startsWith('room:'))).toHaveLength(2));
    await flush(10);
    expect(service.getState().threads[1]?.loaded ?? false).toBe(false);
    // Refused as not found, the room is said unavailable; the rate-limited one is not (it is joined again).
    expect(service.getState().unavailableRooms).toEqual({ 2: true });
    // A second later the open room is joined again, as viewed, and its thread loads; room 2 stays refused.
    await vi.waitFor(() => expect(service.getState().threads[1]?.messages.map((m) => m.id)).toEqual([1, 2]), { timeout: 3_000 });
    expect(socket().joins.filter((j) => j.topic === 'room:1').at(-1)!.payload).toMatchObject({ viewing: true });
    await new Promise((r) => setTimeout(r, 200));
    expect(socket().joins.filter((j) => j.topic === 'room:2')).toHaveLength(1);
    expect(service.getState().unavailableRooms).toEqual({ 2: true });
    // Pushed live into the room after the retry: the room's topic is joined.
    const live = server.add(1, { origin: 'user', text: 'after the retry' });
    socket().emit('room:1', 'new_message', live);
    await flush(10);
    expect(service.getState().threads[1].messages.map((m) => m.id)).toEqual([1, 2, live.id]);
  });

  it("a room join refused for another reason than the room's (a crash) does not say the room is unavailable", async () => {
    const server = createFakeChatServer({ rooms: [{ room: room(1), messages: [message(1, 1)] }] });
    server.refuseNext('room:1', 'phx_join', { reason: 'join crashed' });
    const { service, socket } = setup(server);
    await started(service);
    service.selectRoom(1);
    await vi.waitFor(() => expect(socket().joins.filter((j) => j.topic === 'room:1')).toHaveLength(1));
    await flush(10);
    expect(service.getState().unavailableRooms).toEqual({});
  });

  it('loads older history with before_timestamp', async () => {
    const msgs = Array.from({ length: 70 }, (_, i) => message(1, i + 1));
    const server = createFakeChatServer({ rooms: [{ room: room(1), messages: msgs }] });
    const { service } = setup(server);
    await started(service);
    service.selectRoom(1);
    await flush(10);
    expect(service.getState().threads[1].messages).toHaveLength(30);
    expect(service.getState().threads[1].hasMore).toBe(true);
    await service.loadOlder(1);
    expect(server.log.find((l) => l.event === 'fetch_messages')!.payload).toEqual({ before_timestamp: new Date(Date.parse(msgs[40].created_at) + 1).toISOString(), before_id: 41 });
    expect(service.getState().threads[1].messages.map((m) => m.id)).toEqual(msgs.slice(10).map((m) => m.id));
    await service.loadOlder(1);
    expect(service.getState().threads[1].messages).toHaveLength(70);
    expect(service.getState().threads[1].hasMore).toBe(false);
  });

  it('asks again for a message whose attachment no longer loads, and takes its fresh URL (once a minute at most)', async () => {
    const msgs = Array.from({ length: 40 }, (_, i) => message(1, i + 1, i === 34 ? { type: 'image', media_url: '/media/chats/1/a.png?exp=1&sig=old', media_type: 'image/png' } : {}));
    const server = createFakeChatServer({ rooms: [{ room: room(1), messages: msgs }] });
    const { service } = setup(server);
    await started(service);
    service.selectRoom(1);
    await flush(10);
    // The server now signs the same file anew.
    server.rooms.get(1)!.all[34] = { ...msgs[34], media_url: '/media/chats/1/a.png?exp=2&sig=new' };
    await service.refreshMedia(1, 35);
    expect(server.log.filter((l) => l.event === 'fetch_messages').map((l) => l.payload)).toEqual([
      { before_timestamp: new Date(Date.parse(msgs[34].created_at) + 1).toISOString(), before_id: 36 },
    ]);
    const thread = () => service.getState().threads[1].messages;
    expect(thread().find((m) => m.id === 35)!.media_url).toBe('/media/chats/1/a.png?exp=2&sig=new');
    // The page came merged: ids 6 to 40, none twice, in order.
    expect(thread().map((m) => m.id)).toEqual(msgs.slice(5).map((m) => m.id));
    // A second failure right away (the file may really be gone) does not ask again.
    await service.refreshMedia(1, 35);
    expect(server.log.filter((l) => l.event === 'fetch_messages')).toHaveLength(1);
  });

  it('pause toggles now + N days / clear; block and unblock replace the room from the reply', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-05-01T10:00:00Z'));
    const server = createFakeChatServer({ rooms: [{ room: room(1), messages: [message(1, 1)] }] });
    const { service } = setup(server);
    await started(service);
    await service.togglePause(1, 2);
    expect(server.log.find((l) => l.event === 'update_user')!.payload).toEqual({ user: { paused_until: '2026-05-03T10:00:00.000Z' } });
    expect(service.getState().rooms[1].paused_until).toBe('2026-05-03T10:00:00.000Z');
    await service.togglePause(1);
    expect(service.getState().rooms[1].paused_until).toBeNull();

    const before = service.getState().rooms[1];
    await service.setBlocked(1, true);
    expect(service.getState().rooms[1]).not.toBe(before);
    expect(service.getState().rooms[1].blocked_at).toBe('2026-05-01T10:00:00.000Z');
    await service.setBlocked(1, false);
    expect(service.getState().rooms[1].blocked_at).toBeNull();

    await service.addTag(1, 'vip');
    expect(service.getState().rooms[1].tags.map((t) => t.name)).toEqual(['vip']);
    expect(service.getState().tags.map((t) => t.name)).toEqual(['vip']);
    await service.removeTag(1, 'vip');
    expect(service.getState().rooms[1].tags).toEqual([]);
  });

  it('filters at once and asks the server after 500 ms of quiet', async () => {
    const server = createFakeChatServer({ rooms: [{ room: room(1, { name: 'Alice' }), messages: [message(1, 1)] }, { room: room(2, { name: 'Bob' }), messages: [message(2, 2)] }] });
    const { service } = setup(server);
    await started(service);
    vi.useFakeTimers();
    service.setFilter({ term: 'al' });
    service.setFilter({ term: 'ali' });
    expect(service.getState().visibleRoomIds).toEqual([1]);
    const count = () => server.log.filter((l) => l.event === 'fetch_rooms').length;
    const n = count();
    vi.advanceTimersByTime(499);
    expect(count()).toBe(n);
    vi.advanceTimersByTime(1);
    await flush(10);
    expect(count()).toBe(n + 1);
    expect(server.log.filter((l) => l.event === 'fetch_rooms').at(-1)!.payload).toEqual({ search: 'ali', page: 1, pages: [1], status: 'open' });
    service.setFilter({ term: '', tags: [{ id: 3 }] });
    vi.advanceTimersByTime(500);
    await flush(10);
    expect(server.log.filter((l) => l.event === 'fetch_rooms').at(-1)!.payload).toEqual({ search: '', page: 1, tags: [3], pages: [1], status: 'open' });
  });

  it('pages rooms from 1 (30 per page) and paces room subscriptions', async () => {
    const rooms = Array.from({ length: 45 }, (_, i) => ({ room: room(i + 1), messages: [message(i + 1, i + 1)] }));
    const server = createFakeChatServer({ rooms });
    const { service, socket } = setup(server);
    vi.useFakeTimers();
    service.start();
    await vi.advanceTimersByTimeAsync(0);
    await flush(20);
    expect(service.getState().visibleRoomIds).toHaveLength(30);
    expect(service.getState().hasMoreRooms).toBe(true);
    const roomJoins = () => socket().joins.filter((j) => j.topic.startsWith('room:')).length;
    expect(roomJoins()).toBe(1);
    await vi.advanceTimersByTimeAsync(100 * 9);
    expect(roomJoins()).toBe(10);
    await vi.advanceTimersByTimeAsync(2999);
    expect(roomJoins()).toBe(10);
    await vi.advanceTimersByTimeAsync(1);
    expect(roomJoins()).toBe(11);
    service.loadMoreRooms();
    await vi.advanceTimersByTimeAsync(0);
    await flush(10);
    expect(server.log.filter((l) => l.event === 'fetch_rooms').at(-1)!.payload.page).toBe(2);
    expect(service.getState().visibleRoomIds).toHaveLength(45);
    expect(service.getState().hasMoreRooms).toBe(false);
  });

  it('a company change resets chat state; sign-out clears unread counts', async () => {
    const server = createFakeChatServer({ rooms: [{ room: room(1), messages: [message(1, 1)] }] });
    const { service, account, sockets } = setup(server);
    await started(service);
    await flush(10);
    const m = server.add(1, { origin: 'user' });
    sockets[0].emit('page:1', 'new_message', { room_id: 1, message: m });
    expect(service.getState().unread).toEqual({ 1: 1 });
    account.selectCompany(2);
    expect(sockets[0].disconnected).toBe(true);
    expect(service.getState().rooms).toEqual({});
    expect(service.getState().unread).toEqual({});
    expect(sockets).toHaveLength(2); // reconnected for the new company
    expect(localStorage.getItem(unreadKey(1))).not.toBeNull();
    account.clear();
    expect(localStorage.getItem(unreadKey(1))).toBeNull();
    expect(sockets[1].disconnected).toBe(true);
  });

  it('new rooms appear at the top and create_new_chat_room opens one', async () => {
    const server = createFakeChatServer({ rooms: [{ room: room(1), messages: [message(1, 1)] }] });
    const { service, socket } = setup(server);
    await started(service);
    const r = room(9, { name: 'Newcomer' });
    server.rooms.set(9, { ...r, all: [] });
    const first = server.add(9, { origin: 'user', text: 'hi' });
    socket().emit('page:1', 'new_room', { room: { ...r, messages: [first], last_message_at: first.created_at } });
    expect(service.getState().visibleRoomIds[0]).toBe(9);
    expect(service.getState().unread).toEqual({ 9: 1 });
    const created = await service.createRoom({ pageId: 1, userId: '+15550001', name: 'Carla', text: 'Hello Carla' });
    expect(server.log.find((l) => l.event === 'create_new_chat_room')!.payload).toMatchObject({ user_id: '+15550001', page_id: 1, platform: 'sandbox', name: 'Carla', messages: [{ text: 'Hello Carla' }] });
    expect(service.getState().rooms[created.id].name).toBe('Carla');
  });

  it('attachments: shown when the presign answers; upload = presign, PUT to upload_url with its Content-Type, then send media_url = file_url', async () => {
    const server = createFakeChatServer({ rooms: [{ room: room(1), messages: [message(1, 1)] }] });
    const account = createAccountStore();
    account.setUser(testUser([membership(1)]));
    account.selectCompany(1);
    const presigned = (fileName: string, fileType: string) => ({
      upload_url: `http://console.test/media/upload/chats/1/abc/${fileName}?expires=1&max_bytes=16&signature=f00`,
      method: 'PUT',
      // As a bucket signs it for images here: the upload-once condition is one more header to send.
      headers: fileType.startsWith('image/') ? { 'Content-Type': fileType, 'If-None-Match': '*' } : { 'Content-Type': fileType },
      file_url: `http://console.test/media/chats/1/abc/${fileName}`,
      expires_at: '2026-01-01T00:00:00.000Z',
    });
    const http = createFakeHttp((_method, path, options) => {
      if (path === '/api/chats/presigned_url/') return presigned(String(options.query!.file_name), String(options.query!.file_type));
      return { results: [] };
    });
    const puts: { url: string; init: RequestInit }[] = [];
    const fakeFetch = (async (url: string, init: RequestInit) => {
      puts.push({ url, init });
      return new Response(JSON.stringify({ file_url: 'ignored' }), { status: 200 });
    }) as unknown as typeof fetch;
    let socket!: FakeSocket;
    const service = createChatService({
      realtime: { createSocket: () => (socket = new FakeSocket((t, e, p) => server.reply(t, e, p))).asSocket() },
      account,
      alert: createAlertApi(),
      http,
      fetch: fakeFetch,
    });
    await started(service);
    await flush(10);
    expect(service.getState().attachments).toBe(true);
    service.selectRoom(1);
    await flush(10);

    const file = new File([new Uint8Array([1, 2, 3])], 'report.pdf', { type: 'application/pdf' });
    const cid = await service.sendAttachment(1, file);
    expect(http.calls.at(-1)).toMatchObject({ method: 'GET', path: '/api/chats/presigned_url/', options: { query: { file_name: 'report.pdf', file_type: 'application/pdf' } } });
    expect(puts).toHaveLength(1);
    expect(puts[0].url).toBe(presigned('report.pdf', 'application/pdf').upload_url);
    expect(puts[0].init).toMatchObject({ method: 'PUT', body: file, headers: { 'Content-Type': 'application/pdf' } });
    await flush(10);
    const send = socket.pushes.filter((p) => p.event === 'send_message').at(-1)!;
    expect(send.payload.message).toMatchObject({
      client_id: cid,
      type: 'document',
      media_url: 'http://console.test/media/chats/1/abc/report.pdf',
      media_type: 'application/pdf',
    });

    const photo = new File([new Uint8Array([9])], 'p.jpg', { type: 'image/jpeg' });
    await service.sendAttachment(1, photo);
    await flush(10);
    expect(socket.pushes.filter((p) => p.event === 'send_message').at(-1)!.payload.message).toMatchObject({ type: 'image', media_type: 'image/jpeg' });
    expect(puts[1].init.headers).toEqual({ 'Content-Type': 'image/jpeg', 'If-None-Match': '*' });

    // A refused PUT fails the upload and sends nothing.
    const before = socket.pushes.filter((p) => p.event === 'send_message').length;
    const failing = createChatService({
      realtime: { createSocket: () => new FakeSocket((t, e, p) => server.reply(t, e, p)).asSocket() },
      account,
      alert: createAlertApi(),
      http,
      fetch: (async () => new Response('{}', { status: 403 })) as unknown as typeof fetch,
    });
    await expect(failing.upload(file)).rejects.toThrow('upload 403');
    expect(socket.pushes.filter((p) => p.event === 'send_message')).toHaveLength(before);
  });

  it('while the socket is down with an expired access token, an authenticated call refreshes it for the next reconnect', async () => {
    const server = createFakeChatServer({ rooms: [] });
    const account = createAccountStore();
    account.setUser(testUser([membership(1)]));
    account.selectCompany(1);
    const http = createFakeHttp(() => ({ results: [{ id: 1, name: 'vip' }] }));
    let expired = false;
    const session = { getAccessToken: () => 'tok', getRefreshToken: () => 'r', setTokens: () => undefined, clear: () => undefined, isExpired: () => expired };
    let socket!: FakeSocket;
    const service = createChatService({
      realtime: { createSocket: () => (socket = new FakeSocket((t, e, p) => server.reply(t, e, p))).asSocket() },
      account,
      alert: createAlertApi(),
      http,
      session,
    });
    await started(service);
    await flush(10);
    expect(service.getState().tags).toEqual([{ id: 1, name: 'vip' }]);
    const nonCounts = () => http.calls.filter((c) => c.path !== '/api/rooms/counts/');
    expect(nonCounts()).toHaveLength(2); // tags and the attachment probe (and the list's counts, issue #22)
    socket.drop();
    expect(nonCounts()).toHaveLength(2); // token still valid: nothing to do
    socket.open();
    expired = true;
    socket.drop();
    expect(http.calls.map((c) => c.path)).toContain('/api/tags/');
    expect(nonCounts()).toHaveLength(3);
  });

  it('a socket closed because its session was revoked (4401) makes an authenticated call at once, which signs a revoked session out', async () => {
    const server = createFakeChatServer({ rooms: [] });
    const account = createAccountStore();
    account.setUser(testUser([membership(1)]));
    account.selectCompany(1);
    const http = createFakeHttp(() => ({ results: [] }));
    const session = { getAccessToken: () => 'tok', getRefreshToken: () => 'r', setTokens: () => undefined, clear: () => undefined, isExpired: () => false };
    let socket!: FakeSocket;
    const service = createChatService({
      realtime: { createSocket: () => (socket = new FakeSocket((t, e, p) => server.reply(t, e, p))).asSocket() },
      account,
      alert: createAlertApi(),
      http,
      session,
    });
    await started(service);
    await flush(10);
    const before = http.calls.length;
    socket.drop(1006); // an ordinary network drop: nothing to check
    expect(http.calls).toHaveLength(before);
    socket.open();
    socket.drop(REVOKED_SESSION_CLOSE);
    expect(http.calls).toHaveLength(before + 1);
    expect(http.calls.at(-1)!.path).toBe('/api/tags/');
    expect(service.getState().connection).toBe('reconnecting');
  });

  it('a socket closed because the membership changed (4403: a role or its permissions) reloads the user, so the inbox follows the new permissions without a reload', async () => {
    const server = createFakeChatServer({ rooms: [] });
    const account = createAccountStore();
    account.setUser(testUser([membership(1, { can_view_chats: true, can_manage_chats: true })]));
    account.selectCompany(1);
    const http = createFakeHttp((_method, path) => (path === '/account/user/' ? testUser([membership(1, { can_view_chats: true, can_manage_chats: false })]) : { results: [] }));
    const session = { getAccessToken: () => 'tok', getRefreshToken: () => 'r', setTokens: () => undefined, clear: () => undefined, isExpired: () => false };
    let socket!: FakeSocket;
    const service = createChatService({
      realtime: { createSocket: () => (socket = new FakeSocket((t, e, p) => server.reply(t, e, p))).asSocket() },
      account,
      alert: createAlertApi(),
      http,
      session,
    });
    await started(service);
    await flush(10);
    socket.drop(REVOKED_MEMBERSHIP_CLOSE);
    expect(http.calls.map((c) => c.path)).toContain('/account/user/');
    await flush(10);
    expect(account.getCompany()?.permissions).toMatchObject({ can_manage_chats: false });
    expect(account.getCompanyId()).toBe(1);
  });

  describe('WhatsApp: 24-hour window and templates', () => {
    const template: MessageTemplate = {
      id: 't1',
      name: 'order_update',
      language: 'en_US',
      status: 'APPROVED',
      category: 'UTILITY',
      components: [{ type: 'BODY', text: 'Hi {{1}}, your order {{2}} has shipped.' }],
    };
    const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

    it('keeps last_inbound_at current from live and loaded customer messages', async () => {
      const old = ago(WHATSAPP_WINDOW_MS + 60_000);
      const server = createFakeChatServer({ rooms: [{ room: room(1, { platform: 'whatsapp', last_inbound_at: old }), messages: [message(1, 1, { origin: 'agent', created_at: ago(WHATSAPP_WINDOW_MS) })] }] });
      server.rooms.get(1)!.last_inbound_at = old;
      const { service, socket } = setup(server);
      await started(service);
      service.selectRoom(1);
      await flush(10);
      expect(service.getState().rooms[1].last_inbound_at).toBe(old);
      const agent = server.add(1, { origin: 'agent' });
      socket().emit('room:1', 'new_message', agent);
      expect(service.getState().rooms[1].last_inbound_at).toBe(old);
      const m = server.add(1, { origin: 'user', text: 'hi again' });
      socket().emit('room:1', 'new_message', m);
      expect(service.getState().rooms[1].last_inbound_at).toBe(m.created_at);

      // Loaded while away (rejoin catch-up), even if the room payload lags behind.
      socket().drop();
      const missed = server.add(1, { origin: 'user', text: 'while away', created_at: new Date(Date.now() + 5000).toISOString() });
      server.rooms.get(1)!.last_inbound_at = old;
      socket().open();
      await flush(20);
      expect(service.getState().rooms[1].last_inbound_at).toBe(missed.created_at);
    });

    it('older history loaded with fetch_messages moves last_inbound_at forward too (the room payload may lack it)', async () => {
      const msgs = Array.from({ length: 40 }, (_, i) => message(1, i + 1, { origin: i === 5 ? 'user' : 'agent' }));
      const server = createFakeChatServer({ rooms: [{ room: room(1, { platform: 'whatsapp' }), messages: msgs }] });
      server.rooms.get(1)!.last_inbound_at = null;
      const { service } = setup(server);
      await started(service);
      service.selectRoom(1);
      await flush(10);
      expect(service.getState().rooms[1].last_inbound_at).toBeNull();
      await service.loadOlder(1);
      expect(service.getState().rooms[1].last_inbound_at).toBe(msgs[5].created_at);
    });

    it('sends a template like a message: optimistic, client_id, {type: template, text: rendered body, template}, retry on failure', async () => {
      const server = createFakeChatServer({ rooms: [{ room: room(1, { platform: 'whatsapp' }), messages: [message(1, 1, { origin: 'user', created_at: ago(WHATSAPP_WINDOW_MS * 2) })] }] });
      const { service, socket } = setup(server);
      await started(service);
      service.selectRoom(1);
      await flush(10);
      server.failNext.add('send_message');
      const cid = service.sendTemplate(1, template, [' Ann ', '#42']);
      expect(service.getState().threads[1].messages.at(-1)).toMatchObject({
        type: 'template',
        text: 'Hi Ann, your order #42 has shipped.',
        status: 'pending',
        local: true,
        client_id: cid,
        data: { template: { name: 'order_update', language: 'en_US', parameters: ['Ann', '#42'] } },
      });
      await flush(10);
      expect(service.getState().threads[1].messages.at(-1)).toMatchObject({ status: 'failed', client_id: cid, error: 'nope' });
      service.retryMessage(1, cid);
      await flush(10);
      const sends = socket().pushes.filter((p) => p.event === 'send_message');
      expect(sends).toHaveLength(2);
      for (const p of sends) {
        expect(p.payload.message).toEqual({ type: 'template', text: 'Hi Ann, your order #42 has shipped.', client_id: cid, template: { name: 'order_update', language: 'en_US', parameters: ['Ann', '#42'] } });
      }
      const list = service.getState().threads[1].messages;
      expect(list.filter((m) => m.client_id === cid)).toHaveLength(1);
      expect(list.at(-1)).toMatchObject({ type: 'template', status: 'sent', client_id: cid });
      expect(list.at(-1)!.id).toBeGreaterThan(0);
    });

    it('a free-form text refused as "window closed" leaves the conversation and comes back as a refusal with the server message', async () => {
      const server = createFakeChatServer({ rooms: [{ room: room(1, { platform: 'whatsapp' }), messages: [message(1, 1, { origin: 'user', created_at: ago(60_000) })] }] });
      const { service } = setup(server);
      await started(service);
      service.selectRoom(1);
      await flush(10);
      // The window closed on the server meanwhile.
      server.rooms.get(1)!.last_inbound_at = ago(WHATSAPP_WINDOW_MS + 1000);
      const cid = service.sendMessage(1, 'Are you still there? 🙂');
      await flush(10);
      expect(service.getState().threads[1].messages.some((m) => m.client_id === cid)).toBe(false);
      expect(service.getState().refusals[1]).toEqual({ clientId: cid, text: 'Are you still there? 🙂', error: WINDOW_CLOSED_MESSAGE });
      service.dismissRefusal(1);
      expect(service.getState().refusals).toEqual({});

      // A template is accepted outside the window, and sending clears any refusal.
      service.sendMessage(1, 'again');
      await flush(10);
      expect(service.getState().refusals[1]?.text).toBe('again');
      service.sendTemplate(1, template, ['Ann', '1']);
      expect(service.getState().refusals).toEqual({});
      await flush(10);
      expect(service.getState().threads[1].messages.at(-1)).toMatchObject({ type: 'template', status: 'sent' });
    });

    it('other failures keep the bubble, failed, with the server message as its error', async () => {
      const server = createFakeChatServer({ rooms: [{ room: room(1), messages: [message(1, 1)] }] });
      const base = server.reply;
      server.reply = (topic, event, payload) => (event === 'send_message' ? { status: 'error', response: { reason: 'invalid', errors: { text: ['Too long for this channel.'] } } } : base(topic, event, payload));
      const { service } = setup(server);
      await started(service);
      service.selectRoom(1);
      await flush(10);
      const cid = service.sendMessage(1, 'x');
      await flush(10);
      expect(service.getState().threads[1].messages.at(-1)).toMatchObject({ client_id: cid, status: 'failed', error: 'Too long for this channel.' });
      expect(service.getState().refusals).toEqual({});
    });

    it('loads the channel templates with GET /api/channels/{pageId}/templates/', async () => {
      const server = createFakeChatServer({ rooms: [] });
      const http = createFakeHttp((_m, path) => (path === '/api/channels/7/templates/' ? { results: [template] } : { results: [] }));
      const { service } = setup(server, http);
      expect(await service.loadTemplates(7)).toEqual([template]);
      expect(http.calls.at(-1)).toMatchObject({ method: 'GET', path: '/api/channels/7/templates/' });
    });
  });
});
