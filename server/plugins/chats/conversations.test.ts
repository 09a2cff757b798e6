/**
 * Issue #22 (first part): a room's status, snooze and assignee, over REST and the socket.
 * The suite runs on both databases: the snooze pass and the assignment are conditional updates and
 * row locks that processes race on, and the list filters search with ILIKE (docs/testing.md).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { Room } from '../../../contract/chats';
import type { RoomCounts, RoomListResponse } from '../../../contract/conversations';
import { channels, companies, roomTags, rooms, tags } from '../../core/db/schema';
import type { SocketIdentity } from '../../core/realtime/types';
import { createTestApp, describeEachDatabase, type TestApp } from '../../testing/testApp';
import { ensureSandboxChannel } from '../sandbox';
import { registerChatChannels } from './handlers';
import { chatService, useHubForTests } from './index';
import type { ChatService } from './service';
import { FakeHub, identityFor } from './testing';
import type { ChannelRow } from './views';

const HOUR = 3600_000;

describeEachDatabase('conversations: status, snooze, assignment', (database) => {
  let t: TestApp;
  let hub: FakeHub;
  let chats: ChatService;
  let acme: number;
  let sandbox: ChannelRow;
  let ids: { admin: number; agent: number; other: number; outsider: number };
  /** Access tokens, signed in again whenever the clock moved (tests advance it by hours; tokens are short-lived). */
  const signedIn = new Map<string, { at: number; access: string }>();
  const emailOf = { admin: 'boss@acme.test', agent: 'alex@acme.test', other: 'sam@acme.test' };
  async function token(who: keyof typeof emailOf = 'admin'): Promise<string> {
    const known = signedIn.get(who);
    if (known && known.at === t.clock.now().getTime()) return known.access;
    const { access } = await t.login(emailOf[who]);
    signedIn.set(who, { at: t.clock.now().getTime(), access });
    return access;
  }
  let agentSocket: SocketIdentity;
  let adminSocket: SocketIdentity;
  let seq = 0;

  function attachHub() {
    hub = new FakeHub();
    chats = chatService(t.app);
    useHubForTests(t.app, hub);
    registerChatChannels(hub, chats);
  }

  beforeAll(async () => {
    t = await createTestApp({ database });
    attachHub();
    acme = await t.seed.company('Acme');
    const globex = await t.seed.company('Globex');
    ids = {
      admin: await t.seed.user({ email: 'boss@acme.test', firstName: 'Boss' }),
      agent: await t.seed.user({ email: 'alex@acme.test', firstName: 'Alex' }),
      other: await t.seed.user({ email: 'sam@acme.test', firstName: 'Sam' }),
      outsider: await t.seed.user({ email: 'gus@globex.test', firstName: 'Gus' }),
    };
    await t.seed.member(acme, ids.admin, 'admin');
    await t.seed.member(acme, ids.agent, 'agent');
    await t.seed.member(acme, ids.other, 'agent');
    await t.seed.member(globex, ids.outsider, 'admin');
    adminSocket = identityFor({ userId: ids.admin, email: 'boss@acme.test', firstName: 'Boss', companyId: acme, role: 'admin' });
    agentSocket = identityFor({ userId: ids.agent, email: 'alex@acme.test', firstName: 'Alex', companyId: acme, role: 'agent' });
    sandbox = await ensureSandboxChannel(t.db, acme);
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
  async function newRoom(): Promise<number> {
    return (await customerWrites('hello')).room.id;
  }
  async function patch(roomId: number, body: unknown, who: keyof typeof emailOf = 'admin') {
    return t.app.inject({ method: 'PATCH', url: `/api/rooms/${roomId}/`, headers: t.headers(await token(who), acme), payload: body as object });
  }
  async function list(query: string, who: keyof typeof emailOf = 'admin'): Promise<RoomListResponse> {
    const res = await t.app.inject({ method: 'GET', url: `/api/rooms/?${query}`, headers: t.headers(await token(who), acme) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  }
  async function roomRow(roomId: number) {
    const [row] = await t.db.select().from(rooms).where(eq(rooms.id, roomId));
    return row;
  }
  async function tagNames(roomId: number): Promise<string[]> {
    const rows = await t.db.select({ name: tags.name }).from(roomTags).innerJoin(tags, eq(tags.id, roomTags.tagId)).where(eq(roomTags.roomId, roomId));
    return rows.map((r) => r.name).sort();
  }

  describe('status', () => {
    it('a new room is open; PATCH moves it between statuses and answers the room, pushed as room_info on the room and the page', async () => {
      const roomId = await newRoom();
      expect((await roomRow(roomId)).status).toBe('open');
      hub.clear();
      for (const status of ['pending', 'resolved', 'open'] as const) {
        const res = await patch(roomId, { status });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json()).toMatchObject({ id: roomId, status, snoozed_until: null, assignee: null });
      }
      const onRoom = hub.since(0, { topic: `room:${roomId}`, event: 'room_info' });
      const onPage = hub.since(0, { topic: `page:${sandbox.id}`, event: 'room_info' });
      expect(onRoom.map((b) => b.payload.room.status)).toEqual(['pending', 'resolved', 'open']);
      expect(onPage.map((b) => b.payload.room.status)).toEqual(['pending', 'resolved', 'open']);
      expect(onPage[0].payload.room.messages).toHaveLength(1);
    });

    it('refuses bad input with a 400 on the field, in the spec’s words, and changes nothing', async () => {
      const roomId = await newRoom();
      const now = t.clock.now().getTime();
      const cases: [unknown, Record<string, string[]>][] = [
        [{ status: 'closed' }, { status: ['"closed" is not a valid choice.'] }],
        [{}, { non_field_errors: ['Give at least one of status, snoozed_until, assignee_id.'] }],
        [{ status: 'snoozed' }, { snoozed_until: ['This field is required.'] }],
        [{ status: 'snoozed', snoozed_until: 'tomorrow' }, { snoozed_until: ['Enter a valid date/time.'] }],
        [{ status: 'snoozed', snoozed_until: new Date(now - 1000).toISOString() }, { snoozed_until: ['Ensure the snooze ends in the future.'] }],
        [{ status: 'resolved', snoozed_until: new Date(now + HOUR).toISOString() }, { snoozed_until: ['Only a snoozed room has a snooze end.'] }],
        [{ assignee_id: ids.outsider }, { assignee_id: [`Invalid pk "${ids.outsider}" - object does not exist.`] }],
        [{ assignee_id: 'me' }, { assignee_id: ['A valid integer is required.'] }],
      ];
      for (const [body, errors] of cases) {
        const res = await patch(roomId, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json()).toEqual(errors);
      }
      expect(await roomRow(roomId)).toMatchObject({ status: 'open', snoozedUntil: null, assigneeUserId: null });
      // A refused assignee leaves the status alone too (everything is checked before anything is written).
      expect((await patch(roomId, { status: 'resolved', assignee_id: ids.outsider })).statusCode).toBe(400);
      expect((await roomRow(roomId)).status).toBe('open');
    });

    it('a customer message re-opens a resolved, snoozed or pending room (room_info before the message)', async () => {
      for (const body of [{ status: 'resolved' }, { status: 'pending' }, { snoozed_until: new Date(t.clock.now().getTime() + HOUR).toISOString() }]) {
        const customer = `reopen-${++seq}`;
        const { room } = await customerWrites('first', customer);
        expect((await patch(room.id, body)).statusCode).toBe(200);
        expect((await roomRow(room.id)).status).not.toBe('open');
        hub.clear();
        await customerWrites('I am back', customer);
        expect(await roomRow(room.id)).toMatchObject({ status: 'open', snoozedUntil: null });
        const events = hub.since(0, { topic: `room:${room.id}` }).map((b) => b.event);
        expect(events.indexOf('room_info')).toBeGreaterThanOrEqual(0);
        expect(events.indexOf('room_info')).toBeLessThan(events.indexOf('new_message'));
      }
      // An open room stays open without a push.
      const { room } = await customerWrites('x', 'steady');
      hub.clear();
      await customerWrites('y', 'steady');
      expect(hub.since(0, { topic: `room:${room.id}`, event: 'room_info' })).toHaveLength(0);
    });

    it('a bot’s or flow’s hand-over opens the room', async () => {
      const roomId = await newRoom();
      await patch(roomId, { status: 'pending' });
      await chats.handOver({ id: roomId });
      expect((await roomRow(roomId)).status).toBe('open');
    });
  });

  describe('snooze', () => {
    it('ends by itself at snoozed_until on the app clock, once, and pushes the change', async () => {
      const roomId = await newRoom();
      const until = new Date(t.clock.now().getTime() + HOUR).toISOString();
      const res = await patch(roomId, { status: 'snoozed', snoozed_until: until });
      expect(res.json()).toMatchObject({ status: 'snoozed', snoozed_until: until });
      expect(await chats.statuses.endSnoozes()).not.toContain(roomId);
      t.clock.advance(HOUR - 1);
      expect(await chats.statuses.endSnoozes()).not.toContain(roomId);
      t.clock.advance(1);
      hub.clear();
      expect(await chats.statuses.endSnoozes()).toContain(roomId);
      expect(await roomRow(roomId)).toMatchObject({ status: 'open', snoozedUntil: null });
      expect(hub.since(0, { topic: `page:${sandbox.id}`, event: 'room_info' }).map((b) => b.payload.room)).toEqual([
        expect.objectContaining({ id: roomId, status: 'open', snoozed_until: null }),
      ]);
      expect(await chats.statuses.endSnoozes()).not.toContain(roomId);
    });

    it('snoozed_until alone snoozes; null ends the snooze', async () => {
      const roomId = await newRoom();
      expect((await patch(roomId, { snoozed_until: new Date(t.clock.now().getTime() + HOUR).toISOString() })).json().status).toBe('snoozed');
      expect((await patch(roomId, { snoozed_until: null })).json()).toMatchObject({ status: 'open', snoozed_until: null });
      expect((await patch(roomId, { status: 'snoozed', snoozed_until: new Date(t.clock.now().getTime() + HOUR).toISOString() })).statusCode).toBe(200);
      expect((await patch(roomId, { status: 'resolved' })).json()).toMatchObject({ status: 'resolved', snoozed_until: null });
    });

    it('two passes at once (two processes) open each room once', async () => {
      const roomIds = [await newRoom(), await newRoom(), await newRoom()];
      for (const id of roomIds) await patch(id, { status: 'snoozed', snoozed_until: new Date(t.clock.now().getTime() + HOUR).toISOString() });
      t.clock.advance(HOUR);
      const [a, b] = await Promise.all([chats.statuses.endSnoozes(), chats.statuses.endSnoozes()]);
      expect([...a, ...b].filter((id) => roomIds.includes(id)).sort((x, y) => x - y)).toEqual(roomIds);
    });

    it('holds across a restart: the first pass of the new process opens what ended meanwhile', async () => {
      const roomId = await newRoom();
      await patch(roomId, { status: 'snoozed', snoozed_until: new Date(t.clock.now().getTime() + HOUR).toISOString() });
      await t.restart();
      attachHub();
      expect((await roomRow(roomId)).status).toBe('snoozed');
      t.clock.advance(2 * HOUR);
      // The job started with the app; a trigger is what its interval timer does.
      chats.statuses.snoozeJob.trigger();
      await chats.statuses.snoozeJob.settled();
      expect((await roomRow(roomId)).status).toBe('open');
    });
  });

  describe('assignment and agent tags', () => {
    it('assigning adds the assignee’s e-mail tag and removes any other agent tag; null unassigns and removes them', async () => {
      const roomId = await newRoom();
      const { ctx } = await hub.join(adminSocket, `room:${roomId}`);
      await hub.push(ctx, 'add_tag', { tag: 'vip' });
      await hub.push(ctx, 'add_tag', { tag: 'someone@elsewhere.test' });
      const res = await patch(roomId, { assignee_id: ids.agent });
      expect(res.json().assignee).toEqual({ id: ids.agent, first_name: 'Alex', email: 'alex@acme.test' });
      expect(await tagNames(roomId)).toEqual(['alex@acme.test', 'vip']);
      expect((await patch(roomId, { assignee_id: ids.other })).json().assignee.id).toBe(ids.other);
      expect(await tagNames(roomId)).toEqual(['sam@acme.test', 'vip']);
      const cleared = await patch(roomId, { assignee_id: null });
      expect(cleared.json()).toMatchObject({ assignee: null });
      expect(await tagNames(roomId)).toEqual(['vip']);
    });

    it('adding a member’s agent tag over the socket assigns them (the other agent tag goes); removing it unassigns', async () => {
      const roomId = await newRoom();
      const { ctx } = await hub.join(adminSocket, `room:${roomId}`);
      await hub.push(ctx, 'add_tag', { tag: 'Alex@Acme.test' });
      expect((await roomRow(roomId)).assigneeUserId).toBe(ids.agent);
      hub.clear();
      const reply = await hub.push(ctx, 'add_tag', { tag: 'sam@acme.test' });
      expect(reply.response.room).toMatchObject({ assignee: { id: ids.other, email: 'sam@acme.test' } });
      expect(await tagNames(roomId)).toEqual(['sam@acme.test']);
      expect(hub.since(0, { topic: `page:${sandbox.id}`, event: 'room_info' })[0].payload.room.assignee.id).toBe(ids.other);
      // Removing another address changes nothing; removing the assignee's unassigns.
      await hub.push(ctx, 'remove_tag', { tag: 'alex@acme.test' });
      expect((await roomRow(roomId)).assigneeUserId).toBe(ids.other);
      await hub.push(ctx, 'remove_tag', { tag: 'SAM@acme.test' });
      expect(await roomRow(roomId)).toMatchObject({ assigneeUserId: null });
      expect(await tagNames(roomId)).toEqual([]);
      // An address of no member is only a tag, as before.
      await hub.push(ctx, 'add_tag', { tag: 'nobody@acme.test' });
      expect(await roomRow(roomId)).toMatchObject({ assigneeUserId: null });
      expect(await tagNames(roomId)).toEqual(['nobody@acme.test']);
    });

    it('two assignments at once leave one assignee and its one agent tag', async () => {
      const roomId = await newRoom();
      await Promise.all([patch(roomId, { assignee_id: ids.agent }), patch(roomId, { assignee_id: ids.other })]);
      const row = await roomRow(roomId);
      const emails = { [ids.agent]: 'alex@acme.test', [ids.other]: 'sam@acme.test' } as Record<number, string>;
      expect(await tagNames(roomId)).toEqual([emails[row.assigneeUserId!]]);
    });
  });

  describe('the list and its counts', () => {
    it('filters by status (open by default), assignee (me, none, a member) and search, with its count and pages', async () => {
      const company = await t.seed.company('Listing Co');
      await t.seed.member(company, ids.admin, 'admin');
      await t.seed.member(company, ids.agent, 'agent');
      const channel = await ensureSandboxChannel(t.db, company);
      const made: Record<string, number> = {};
      for (const name of ['Ana', 'Bob', 'Cy 50%', 'Dee', 'Eve']) {
        t.clock.advance(1000);
        made[name] = (await chats.receiveInbound(channel, { externalUserId: name, name, type: 'text', text: 'hi', clientId: `l-${name}` })).room.id;
      }
      const headers = t.headers(await token(), company);
      const call = (query: string) => t.app.inject({ method: 'GET', url: `/api/rooms/?${query}`, headers }).then((r) => r.json() as RoomListResponse);
      const names = (res: RoomListResponse) => res.results.map((r) => r.name);
      const change = (id: number, body: object) => t.app.inject({ method: 'PATCH', url: `/api/rooms/${id}/`, headers, payload: body });
      await change(made.Bob, { status: 'resolved' });
      await change(made.Dee, { status: 'pending', assignee_id: ids.admin });
      await change(made.Eve, { assignee_id: ids.agent });

      expect(names(await call(''))).toEqual(['Eve', 'Cy 50%', 'Ana']);
      expect(await call('status=all&page_size=2')).toMatchObject({ count: 5, next: '/api/rooms/?status=all&page_size=2&page=2', previous: null });
      expect(names(await call('status=all&page_size=2&page=3'))).toEqual(['Ana']);
      expect(names(await call('status=resolved'))).toEqual(['Bob']);
      expect(names(await call('status=all&assignee=me'))).toEqual(['Dee']);
      expect(names(await call('status=all&assignee=none'))).toEqual(['Cy 50%', 'Bob', 'Ana']);
      expect(names(await call(`status=all&assignee=${ids.agent}`))).toEqual(['Eve']);
      expect((await call('assignee=me')).count).toBe(0);
      expect(names(await call('status=all&search=50%25'))).toEqual(['Cy 50%']);
      expect(names(await call('status=all&search=50%25&assignee=none&page_size=1'))).toEqual(['Cy 50%']);

      // The channel filter: one room on a second channel, chosen alone, with the first, or not at all.
      const [second] = await t.db.insert(channels).values({ companyId: company, platform: 'whatsapp', name: 'WA', externalId: 'listing-wa' }).returning();
      t.clock.advance(1000);
      await chats.receiveInbound(second, { externalUserId: 'Fay', name: 'Fay', type: 'text', text: 'hi', clientId: 'l-Fay' });
      expect(names(await call(`status=all&pages=${second.id}`))).toEqual(['Fay']);
      expect(names(await call(`status=all&pages=${second.id},${channel.id}&page_size=2`))).toEqual(['Fay', 'Eve']);
      expect((await call(`status=all&pages=${channel.id}`)).count).toBe(5);
      const eve = (await call(`status=all&assignee=${ids.agent}`)).results[0];
      expect(eve).toMatchObject({ status: 'open', snoozed_until: null, assignee: { id: ids.agent, first_name: 'Alex', email: 'alex@acme.test' }, tags: [{ name: 'alex@acme.test' }] });

      expect((await t.app.inject({ method: 'GET', url: `/api/rooms/counts/?pages=${second.id}`, headers })).json()).toMatchObject({ open: { mine: 0, unassigned: 1, all: 1 }, resolved: { all: 0 } });
      const counts: RoomCounts = (await t.app.inject({ method: 'GET', url: `/api/rooms/counts/?pages=${channel.id}`, headers })).json();
      expect(counts).toEqual({
        open: { mine: 0, unassigned: 2, all: 3 },
        pending: { mine: 1, unassigned: 0, all: 1 },
        snoozed: { mine: 0, unassigned: 0, all: 0 },
        resolved: { mine: 0, unassigned: 1, all: 1 },
      });
      const bad = await t.app.inject({ method: 'GET', url: '/api/rooms/?status=closed&assignee=someone', headers });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({ status: ['"closed" is not a valid choice.'], assignee: ['Enter me, none or a user id.'] });
    });

    it('fetch_rooms over the socket takes the same status and assignee filters', async () => {
      const mine = await newRoom();
      await patch(mine, { assignee_id: ids.admin, status: 'pending' });
      const { ctx } = await hub.join(adminSocket, `page:${sandbox.id}`);
      const reply = await hub.push(ctx, 'fetch_rooms', { status: 'pending', assignee: 'me' });
      expect(reply.response.rooms.map((r: Room) => r.id)).toEqual([mine]);
    });
  });

  describe('an agent limited to own rooms (agent feature)', () => {
    it('lists, counts and changes only their own rooms; another’s is 403; without manage access nothing changes', async () => {
      const own = await newRoom();
      const others = await newRoom();
      await patch(own, { assignee_id: ids.agent });
      await patch(others, { assignee_id: ids.other });
      await t.db.update(companies).set({ agentFeature: true }).where(eq(companies.id, acme));

      const all = await list('status=all', 'agent');
      expect(all.results.map((r) => r.id)).toContain(own);
      expect(all.results.map((r) => r.id)).not.toContain(others);
      expect(all.results.every((r) => r.assignee?.id === ids.agent)).toBe(true);
      const counts: RoomCounts = (await t.app.inject({ method: 'GET', url: '/api/rooms/counts/', headers: t.headers(await token('agent'), acme) })).json();
      expect(counts.open.all).toBe(counts.open.mine);

      expect((await patch(others, { status: 'resolved' }, 'agent')).statusCode).toBe(403);
      expect((await patch(others, { assignee_id: ids.agent }, 'agent')).statusCode).toBe(403);
      expect(await roomRow(others)).toMatchObject({ status: 'open', assigneeUserId: ids.other });
      expect((await patch(own, { status: 'resolved' }, 'agent')).statusCode).toBe(200);

      // A page subscriber sees room_info only for rooms they may open.
      const { ctx } = await hub.join(agentSocket, `page:${sandbox.id}`);
      hub.clear();
      await patch(others, { status: 'pending' });
      await patch(own, { status: 'pending' });
      const delivered = [];
      for (const b of hub.since(0, { topic: `page:${sandbox.id}`, event: 'room_info' })) {
        const out = await hub.handlers.get('page')!.handleOut!(b.event, b.payload, ctx);
        if (out) delivered.push((out as { room: Room }).room.id);
      }
      expect(delivered).toEqual([own]);

      await t.db.update(companies).set({ agentFeature: false }).where(eq(companies.id, acme));
      await t.seed.rolePermissions(acme, 'agent', { can_manage_chats: false });
      try {
        expect((await patch(own, { status: 'open' }, 'agent')).statusCode).toBe(403);
        expect((await list('status=all', 'agent')).count).toBeGreaterThan(0);
      } finally {
        await t.db.execute(sql`delete from company_role_permissions where company_id = ${acme}`);
      }
    });
  });
});

describe('migration room_status_assignment', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('existing rooms become resolved when their last message is older than 7 days, and a member’s agent tag becomes the assignee', async () => {
    const company = await t.seed.company('Old Co');
    const userId = await t.seed.user({ email: 'old@old.test', firstName: 'Old' });
    await t.seed.member(company, userId, 'agent');
    const channel = await ensureSandboxChannel(t.db, company);
    const day = 24 * HOUR;
    const at = (daysAgo: number) => new Date(Date.now() - daysAgo * day);
    const [stale, recent, silent] = await t.db
      .insert(rooms)
      .values([
        { companyId: company, channelId: channel.id, externalId: 'stale', name: 'Stale', lastMessageAt: at(8), createdAt: at(30) },
        { companyId: company, channelId: channel.id, externalId: 'recent', name: 'Recent', lastMessageAt: at(6), createdAt: at(30) },
        { companyId: company, channelId: channel.id, externalId: 'silent', name: 'Silent', lastMessageAt: null, createdAt: at(9) },
      ])
      .returning({ id: rooms.id });
    const [tag] = await t.db.insert(tags).values({ companyId: company, name: 'old@old.test' }).returning({ id: tags.id });
    await t.db.insert(roomTags).values({ roomId: recent.id, tagId: tag.id });

    // The migration's data statements (its UPDATEs), run on these rows as they were before it.
    // Found by name: its number may change when migrations written at the same time are merged.
    const dir = new URL('../../core/db/migrations/', import.meta.url);
    const name = readdirSync(dir).find((f) => f.endsWith('_room_status_assignment.sql'))!;
    const updates = readFileSync(new URL(name, dir), 'utf8')
      .split('--> statement-breakpoint')
      .map((s) => s.replace(/^\s*--.*$/gm, '').trim())
      .filter((s) => s.startsWith('UPDATE'));
    expect(updates).toHaveLength(2);
    for (const statement of updates) await t.db.execute(sql.raw(statement));

    const rows = await t.db.select().from(rooms).where(eq(rooms.companyId, company));
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(stale.id)).toMatchObject({ status: 'resolved', assigneeUserId: null });
    expect(byId.get(recent.id)).toMatchObject({ status: 'open', assigneeUserId: userId });
    expect(byId.get(silent.id)).toMatchObject({ status: 'resolved' });
  });
});

describe('the demo’s conversations', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('are in every status, assigned and not, each assignee with their agent tag only', async () => {
    expect(await t.seed.demo()).toBe(true);
    const [company] = await t.db.select({ id: companies.id }).from(companies).where(eq(companies.name, 'Demo Company'));
    const { access } = await t.login('admin@demo.test', t.config.demoPassword);
    const res = await t.app.inject({ method: 'GET', url: '/api/rooms/?status=all', headers: t.headers(access, company.id) });
    const list: RoomListResponse = res.json();
    expect(new Set(list.results.map((r) => r.status))).toEqual(new Set(['open', 'pending', 'snoozed', 'resolved']));
    expect(list.results.some((r) => r.assignee === null)).toBe(true);
    expect(list.results.some((r) => r.assignee !== null)).toBe(true);
    for (const room of list.results) {
      const agentTags = room.tags.filter((tag) => tag.name.includes('@')).map((tag) => tag.name);
      expect(agentTags).toEqual(room.assignee ? [room.assignee.email] : []);
      if (room.status === 'snoozed') expect(Date.parse(room.snoozed_until!)).toBeGreaterThan(Date.now());
    }
  });
});
