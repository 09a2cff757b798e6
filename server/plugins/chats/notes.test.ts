/**
 * Issue #22 (second part): private notes, mentions, notifications and the search of message text,
 * over REST and the socket, on both databases (the search is PostgreSQL full text with a GIN index,
 * which PGlite must run the same way).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { Message } from '../../../contract/chats';
import type { MessageSearchResult, Notification } from '../../../contract/notes';
import { companies, messages } from '../../core/db/schema';
import type { SocketIdentity } from '../../core/realtime/types';
import { createTestApp, describeEachDatabase, type TestApp } from '../../testing/testApp';
import { ensureSandboxChannel } from '../sandbox';
import { notificationChannel, registerChatChannels } from './handlers';
import { chatService, useHubForTests } from './index';
import { messageVector, prefixQuery } from './messageSearch';
import type { ChatService } from './service';
import { FakeHub, identityFor } from './testing';
import type { ChannelRow } from './views';

describeEachDatabase('private notes, mentions, notifications, message search', (database) => {
  let t: TestApp;
  let hub: FakeHub;
  let chats: ChatService;
  let acme: number;
  let globex: number;
  let sandbox: ChannelRow;
  let ids: { admin: number; agent: number; other: number; outsider: number };
  const emailOf = { admin: 'boss@acme.test', agent: 'alex@acme.test', other: 'sam@acme.test', outsider: 'gus@globex.test' };
  const tokens = new Map<string, string>();
  async function token(who: keyof typeof emailOf): Promise<string> {
    if (!tokens.has(who)) tokens.set(who, (await t.login(emailOf[who])).access);
    return tokens.get(who)!;
  }
  let agentSocket: SocketIdentity;
  let adminSocket: SocketIdentity;
  let seq = 0;
  const sent: Message[] = [];

  beforeAll(async () => {
    t = await createTestApp({ database });
    hub = new FakeHub();
    chats = chatService(t.app);
    useHubForTests(t.app, hub);
    registerChatChannels(hub, chats);
    acme = await t.seed.company('Acme');
    globex = await t.seed.company('Globex');
    ids = {
      admin: await t.seed.user({ email: emailOf.admin, firstName: 'Boss' }),
      agent: await t.seed.user({ email: emailOf.agent, firstName: 'Alex' }),
      other: await t.seed.user({ email: emailOf.other, firstName: 'Sam' }),
      outsider: await t.seed.user({ email: emailOf.outsider, firstName: 'Gus' }),
    };
    await t.seed.member(acme, ids.admin, 'admin');
    await t.seed.member(acme, ids.agent, 'agent');
    await t.seed.member(acme, ids.other, 'agent');
    await t.seed.member(globex, ids.outsider, 'admin');
    // The outsider is also a member of Acme's rival only; a member of both companies is tested below with the admin.
    await t.seed.member(globex, ids.admin, 'agent');
    adminSocket = identityFor({ userId: ids.admin, email: emailOf.admin, firstName: 'Boss', companyId: acme, role: 'admin' });
    agentSocket = identityFor({ userId: ids.agent, email: emailOf.agent, firstName: 'Alex', companyId: acme, role: 'agent' });
    sandbox = await ensureSandboxChannel(t.db, acme);
    // Every message handed to a channel is recorded: a note must never be one of them.
    chats.registerProvider('sandbox', { send: async (_room, message) => (sent.push(message), { external_id: `x-${message.id}` }) });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    hub.clear();
    await t.db.update(companies).set({ agentFeature: false }).where(eq(companies.id, acme));
  });

  async function customerWrites(text: string, customer?: string) {
    const id = customer ?? `cust-${++seq}`;
    return chats.receiveInbound(sandbox, { externalUserId: id, name: `Customer ${id}`, type: 'text', text, clientId: `c-${++seq}` });
  }
  async function note(roomId: number, text: unknown, who: keyof typeof emailOf = 'agent') {
    return t.app.inject({ method: 'POST', url: `/api/rooms/${roomId}/notes/`, headers: t.headers(await token(who), who === 'outsider' ? globex : acme), payload: { text } });
  }
  async function get<T>(url: string, who: keyof typeof emailOf = 'admin', company = acme): Promise<T> {
    const res = await t.app.inject({ method: 'GET', url, headers: t.headers(await token(who), company) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as T;
  }
  const search = (q: string, who: keyof typeof emailOf = 'admin') => get<{ count: number; results: MessageSearchResult[] }>(`/api/messages/search/?q=${encodeURIComponent(q)}`, who);

  describe('private notes', () => {
    it('POST stores a note (201, private) that is never handed to a channel, never in the simulator, never a reply', async () => {
      const { room } = await customerWrites('Where is my parcel?', 'noted');
      const before = (await t.db.select().from(messages).where(eq(messages.roomId, room.id))).length;
      const [roomBefore] = await t.db.execute(sql`select last_message_at from rooms where id = ${room.id}`).then((r) => (r as unknown as { rows: { last_message_at: unknown }[] }).rows);
      const res = await note(room.id, '  Customer is a VIP, be nice  ');
      expect(res.statusCode, res.body).toBe(201);
      const stored: Message = res.json();
      expect(stored).toMatchObject({ room_id: room.id, origin: 'note', private: true, type: 'text', text: 'Customer is a VIP, be nice', status: null, sender_name: 'Alex' });
      await chats.settled();
      expect(sent.map((m) => m.id)).not.toContain(stored.id);
      expect((await t.db.select().from(messages).where(eq(messages.roomId, room.id))).length).toBe(before + 1);
      // The simulator (the customer's view) never shows it.
      const sim = await t.app.inject({ method: 'GET', url: `/api/sandbox/${sandbox.simulatorKey}/conversations/noted/messages/?after_id=0` });
      expect(sim.statusCode, sim.body).toBe(200);
      expect(sim.json().messages.map((m: Message) => m.text)).toEqual(['Where is my parcel?']);
      // Not a reply: the room's activity, unread count and the stats' agent messages ignore it.
      const [roomAfter] = await t.db.execute(sql`select last_message_at from rooms where id = ${room.id}`).then((r) => (r as unknown as { rows: { last_message_at: unknown }[] }).rows);
      expect(roomAfter.last_message_at).toEqual(roomBefore.last_message_at);
      const [agentMessages] = await t.db.select({ n: sql<number>`count(*)::int` }).from(messages).where(sql`${messages.roomId} = ${room.id} and ${messages.origin} = 'agent'`);
      expect(Number(agentMessages.n)).toBe(0);
    });

    it('is pushed live as new_note on the room only; the spec’s events and a client that did not ask never carry it', async () => {
      const { room } = await customerWrites('hello', 'live-note');
      const { ctx: plain } = await hub.join(agentSocket, `room:${room.id}`, {});
      hub.clear();
      const stored: Message = (await note(room.id, 'internal only')).json();
      expect(hub.since(0, { event: 'new_note' })).toEqual([{ topic: `room:${room.id}`, event: 'new_note', payload: expect.objectContaining({ id: stored.id, private: true }) }]);
      expect(hub.since(0, { event: 'new_message' })).toHaveLength(0);
      expect(hub.since(0, { topic: `page:${sandbox.id}` })).toHaveLength(0);

      // A client that knows nothing of notes: not in the join's room or missed messages, nor in fetch_messages or fetch_rooms.
      const old = await hub.join(agentSocket, `room:${room.id}`, { last_message_id: 0 });
      expect(old.reply.response.room.messages.map((m: Message) => m.id)).not.toContain(stored.id);
      expect(old.reply.response.missed.map((m: Message) => m.id)).not.toContain(stored.id);
      expect((await hub.push(plain, 'fetch_messages', {})).response.messages.map((m: Message) => m.id)).not.toContain(stored.id);
      const { ctx: page } = await hub.join(agentSocket, `page:${sandbox.id}`);
      const listed = (await hub.push(page, 'fetch_rooms', { search: 'live-note' })).response.rooms;
      expect(listed[0].messages.map((m: Message) => m.text)).toEqual(['hello']);
      const rest = await get<{ messages: Message[] }>(`/api/chats/rooms/${room.id}/messages/`);
      expect(rest.messages.map((m) => m.id)).not.toContain(stored.id);

      // The console asks for notes: they come with the history, in order.
      const console = await hub.join(agentSocket, `room:${room.id}`, { last_message_id: 0, notes: true });
      expect(console.reply.response.room.messages.map((m: Message) => m.text)).toEqual(['hello', 'internal only']);
      expect(console.reply.response.missed.map((m: Message) => m.id)).toContain(stored.id);
      expect((await hub.push(console.ctx, 'fetch_messages', {})).response.messages.map((m: Message) => m.id)).toContain(stored.id);
      expect((await get<{ messages: Message[] }>(`/api/chats/rooms/${room.id}/messages/?notes=true`)).messages.map((m) => m.id)).toContain(stored.id);
    });

    it('refuses bad input with a 400 in the spec’s words, another company’s room with a 404', async () => {
      const { room } = await customerWrites('x');
      const cases: [unknown, string][] = [
        [undefined, 'This field is required.'],
        ['   ', 'This field may not be blank.'],
        ['a'.repeat(4097), 'Ensure this field has no more than 4096 characters.'],
        [42, 'This field is required.'],
      ];
      for (const [text, message] of cases) {
        const res = await note(room.id, text);
        expect(res.statusCode, JSON.stringify(text)).toBe(400);
        expect(res.json().text).toBeDefined();
        if (text !== 42) expect(res.json()).toEqual({ text: [message] });
      }
      expect((await note(room.id, 'from outside', 'outsider')).statusCode).toBe(404);
      expect((await note(999_999, 'nowhere')).statusCode).toBe(404);
    });

    it('an agent limited to own rooms cannot annotate another agent’s room', async () => {
      const { room } = await customerWrites('for sam');
      await chats.statuses.update(room, { assignee_id: ids.other });
      await t.db.update(companies).set({ agentFeature: true }).where(eq(companies.id, acme));
      expect((await note(room.id, 'peeking')).statusCode).toBe(403);
      expect((await note(room.id, 'my own', 'other')).statusCode).toBe(201);
    });
  });

  describe('mentions and notifications', () => {
    it('a mention notifies that member (stored, pushed on their topic with the company), listed newest first and marked read', async () => {
      const { room } = await customerWrites('refund please', 'mention');
      hub.clear();
      const stored: Message = (await note(room.id, `@${emailOf.admin} can you approve? cc @nobody@acme.test and @${emailOf.outsider}`)).json();
      const pushed = hub.since(0, { event: 'notification' });
      expect(pushed).toEqual([
        { topic: `notifications:${ids.admin}`, event: 'notification', payload: expect.objectContaining({ kind: 'mention', room_id: room.id, message_id: stored.id, read_at: null, company_id: acme, by_name: 'Alex', room_name: 'Customer mention' }) },
      ]);
      const list = await get<{ count: number; results: Notification[] }>('/api/notifications/');
      expect(list.results[0]).toEqual({ id: pushed[0].payload.id, kind: 'mention', room_id: room.id, message_id: stored.id, created_at: expect.any(String), read_at: null, room_name: 'Customer mention', by_name: 'Alex' });
      const unread = (await get<{ count: number }>('/api/notifications/?unread=true')).count;
      // Marking read: the first time counts; the agent cannot read the admin's; a foreign company's header finds nothing.
      const id = pushed[0].payload.id as number;
      const read = async (who: keyof typeof emailOf, company = acme) => t.app.inject({ method: 'POST', url: `/api/notifications/${id}/read/`, headers: t.headers(await token(who), company) });
      expect((await read('agent')).statusCode).toBe(404);
      expect((await read('admin', globex)).statusCode).toBe(404);
      const first = await read('admin');
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json().read_at).not.toBeNull();
      t.clock.advance(1000);
      expect((await read('admin')).json().read_at).toBe(first.json().read_at);
      expect((await get<{ count: number }>('/api/notifications/?unread=true')).count).toBe(unread - 1);
      // The admin's notifications of Acme are not Globex's.
      expect((await get<{ results: Notification[] }>('/api/notifications/', 'admin', globex)).results.map((n) => n.id)).not.toContain(id);
      expect((await t.app.inject({ method: 'GET', url: '/api/notifications/?unread=maybe', headers: t.headers(await token('admin'), acme) })).statusCode).toBe(400);
    });

    it('no notification for the author’s own mention, a plain e-mail address, or a member who may not open the room', async () => {
      const { room } = await customerWrites('x');
      await chats.statuses.update(room, { assignee_id: ids.agent });
      hub.clear();
      await note(room.id, `me: @${emailOf.agent}; plain ${emailOf.admin}`);
      expect(hub.since(0, { event: 'notification' })).toHaveLength(0);
      // Sam is an agent limited to own rooms: this one is Alex's.
      await t.db.update(companies).set({ agentFeature: true }).where(eq(companies.id, acme));
      await note(room.id, `@${emailOf.other} look`);
      expect(hub.since(0, { event: 'notification' })).toHaveLength(0);
    });

    it('assigning a room notifies the new assignee (PATCH, the agent tag over the socket), not one who assigns themselves', async () => {
      const { room } = await customerWrites('assign me');
      hub.clear();
      const patch = async (assignee_id: number | null, who: keyof typeof emailOf) =>
        t.app.inject({ method: 'PATCH', url: `/api/rooms/${room.id}/`, headers: t.headers(await token(who), acme), payload: { assignee_id } });
      expect((await patch(ids.agent, 'admin')).statusCode).toBe(200);
      expect(hub.since(0, { event: 'notification' }).map((b) => [b.topic, b.payload.kind, b.payload.room_id, b.payload.message_id, b.payload.by_name])).toEqual([
        [`notifications:${ids.agent}`, 'assigned', room.id, null, 'Boss'],
      ]);
      // The same assignee again: nothing new. Self-assignment: nothing.
      expect((await patch(ids.agent, 'admin')).statusCode).toBe(200);
      expect((await patch(ids.admin, 'admin')).statusCode).toBe(200);
      expect(hub.since(0, { event: 'notification' })).toHaveLength(1);
      // Spec §5's agent tag over the socket is an assignment too.
      const { ctx } = await hub.join(adminSocket, `room:${room.id}`);
      expect((await hub.push(ctx, 'add_tag', { tag: emailOf.other })).status).toBe('ok');
      expect(hub.since(0, { event: 'notification' }).map((b) => b.topic)).toEqual([`notifications:${ids.agent}`, `notifications:${ids.other}`]);
      // Without an actor (the system: auto-assignment, bots), the notification says so.
      await chats.assignments.assign({ id: room.id, companyId: acme }, { id: ids.agent, email: emailOf.agent });
      expect(hub.since(0, { event: 'notification' }).at(-1)!.payload).toMatchObject({ kind: 'assigned', by_name: null });
    });

    it('only the member joins their notifications topic, and gets only this company’s', async () => {
      expect((await hub.join(adminSocket, `notifications:${ids.admin}`)).reply.status).toBe('ok');
      expect((await hub.join(adminSocket, `notifications:${ids.agent}`)).reply).toEqual({ status: 'error', response: { reason: 'not found' } });
      const { ctx } = await hub.join(adminSocket, `notifications:${ids.admin}`);
      const out = notificationChannel().handleOut!;
      expect(await out('notification', { id: 1, company_id: acme }, ctx)).toEqual({ id: 1, company_id: acme });
      expect(await out('notification', { id: 2, company_id: globex }, ctx)).toBeNull();
    });
  });

  describe('message search', () => {
    it('finds message text by word prefix, notes included, best match first, with the words marked in an escaped snippet', async () => {
      const a = await customerWrites('My blender <b>arrived</b> broken & I want a remboursement', 'search-a');
      const b = await customerWrites('remboursement remboursement, where is my remboursement?', 'search-b');
      const stored: Message = (await note(a.room.id, 'Approved the remboursement for this blender')).json();
      const found = await search('rembours');
      expect(found.count).toBe(3);
      expect(found.results[0]).toMatchObject({ room_id: b.room.id, message_id: b.message.id, room_name: 'Customer search-b' });
      expect(found.results.map((r) => r.message_id).sort()).toEqual([a.message.id, b.message.id, stored.id].sort());
      const snippet = found.results.find((r) => r.message_id === a.message.id)!.snippet;
      expect(snippet).toContain('<mark>remboursement</mark>');
      expect(snippet).toContain('arrived&lt;/b&gt;');
      expect(snippet.replace(/<\/?mark>/g, '')).not.toMatch(/[<>]/);
      expect(snippet).toContain('&amp;');
      // Every word must match; case does not matter.
      expect((await search('BLENDER approved')).results.map((r) => r.message_id)).toEqual([stored.id]);
      expect((await search('blender nothinglikethis')).count).toBe(0);
      expect((await search('!!!')).count).toBe(0);
    });

    it('answers only what the caller may open: the company’s rooms, an agent limited to own rooms only those', async () => {
      const mine = await customerWrites('quokka sighting in room one', 'vis-1');
      const theirs = await customerWrites('quokka sighting in room two', 'vis-2');
      await chats.statuses.update(mine.room, { assignee_id: ids.agent });
      await chats.statuses.update(theirs.room, { assignee_id: ids.other });
      expect((await search('quokka', 'admin')).count).toBe(2);
      expect((await search('quokka', 'agent')).count).toBe(2);
      await t.db.update(companies).set({ agentFeature: true }).where(eq(companies.id, acme));
      expect((await search('quokka', 'agent')).results.map((r) => r.room_id)).toEqual([mine.room.id]);
      expect((await search('quokka', 'other')).results.map((r) => r.room_id)).toEqual([theirs.room.id]);
      expect((await get<{ count: number }>('/api/messages/search/?q=quokka', 'outsider', globex)).count).toBe(0);
    });

    it('refuses a missing, blank or too long q and a bad page with a 400; pages past the end are empty', async () => {
      for (const [query, field] of [['', 'q'], ['q=%20%20', 'q'], [`q=${'a'.repeat(201)}`, 'q'], ['q=x&page=0', 'page'], ['q=x&page=abc', 'page']] as const) {
        const res = await t.app.inject({ method: 'GET', url: `/api/messages/search/?${query}`, headers: t.headers(await token('admin'), acme) });
        expect(res.statusCode, query).toBe(400);
        expect(Object.keys(res.json())).toEqual([field]);
      }
      expect(await get(`/api/messages/search/?q=remboursement&page=50`)).toMatchObject({ count: 3, results: [] });
    });

    it('the match is an index scan of messages_text_search_idx (the query repeats the indexed expression)', async () => {
      await t.db.transaction(async (tx) => {
        await tx.execute(sql`set local enable_seqscan = off`);
        const plan = (await tx.execute(sql`explain select m.id from messages m where ${messageVector('m')} @@ to_tsquery('simple', ${prefixQuery(['refund'])})`)) as unknown as { rows: Record<string, string>[] };
        expect(plan.rows.map((r) => Object.values(r)[0]).join('\n')).toContain('messages_text_search_idx');
      });
    });
  });
});
