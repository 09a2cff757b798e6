/**
 * Auto-assignment (issue #22): round-robin among the online members under capacity, off by default,
 * the agent tag kept in step, and two apps (two processes) on one database assigning many rooms at once:
 * a fair spread, no member picked twice in a round. Online members are given by the test (in the app
 * they come from the realtime hub's presence on page:{channel}: ./handlers.ts).
 */
import { beforeAll, afterAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { roomTags, rooms, tags } from '../../core/db/schema';
import { createTestApp, describeEachDatabase, type TestApp } from '../../testing/testApp';
import { ensureSandboxChannel } from '../sandbox';
import { AutoAssignment } from './autoAssignment';
import { chatService } from '.';

describeEachDatabase('auto-assignment', (database) => {
  let t: TestApp;
  let company: number;
  let channelId: number;
  const members: number[] = [];
  let admin: { access: string };
  let online: number[] = [];

  beforeAll(async () => {
    t = await createTestApp({ database });
    company = await t.seed.company('Acme');
    const adminId = await t.seed.user({ email: 'boss@acme.test' });
    await t.seed.member(company, adminId, 'admin');
    admin = await t.login('boss@acme.test');
    for (const name of ['ann', 'bob', 'cy', 'dee']) {
      const id = await t.seed.user({ email: `${name}@acme.test`, firstName: name });
      await t.seed.member(company, id, 'agent');
      members.push(id);
    }
    channelId = (await ensureSandboxChannel(t.db, company)).id;
  });
  afterAll(() => t.close());

  const auto = (app: TestApp = t) =>
    new AutoAssignment({ db: app.db, assignments: chatService(app.app).assignments, presentUsers: async () => online, announce: async () => {} });

  let customers = 0;
  async function openRoom(): Promise<number> {
    const [row] = await t.db.insert(rooms).values({ companyId: company, channelId, externalId: `c-${++customers}`, name: 'Customer' }).returning({ id: rooms.id });
    return row.id;
  }
  const put = (url: string, payload: Record<string, unknown>, access = admin.access) => t.app.inject({ method: 'PUT', url, payload, headers: t.headers(access, company) });
  async function resolveAll(): Promise<void> {
    await t.db.update(rooms).set({ status: 'resolved' }).where(eq(rooms.companyId, company));
  }

  it('is off by default: an opened room stays unassigned', async () => {
    online = [...members];
    expect(await auto().roomOpened(await openRoom())).toBeNull();
    expect((await t.app.inject({ method: 'GET', url: '/api/auto-assignment/', headers: t.headers(admin.access, company) })).json()).toEqual({ count: 0, results: [] });
  });

  it('round-robin among the online members, the agent tag kept in step, offline members skipped', async () => {
    const res = await put(`/api/auto-assignment/${channelId}/`, { enabled: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ channel_id: channelId, enabled: true });
    online = [members[0], members[2], members[3]]; // bob is offline
    const picks: (number | null)[] = [];
    const opened: number[] = [];
    for (let i = 0; i < 6; i++) {
      const room = await openRoom();
      opened.push(room);
      picks.push(await auto().roomOpened(room));
    }
    // The cursor continues after the last member picked (none yet: from the lowest id).
    expect(picks).toEqual([members[0], members[2], members[3], members[0], members[2], members[3]]);
    const tagged = await t.db.select({ roomId: roomTags.roomId, name: tags.name }).from(roomTags).innerJoin(tags, eq(tags.id, roomTags.tagId)).where(inArray(roomTags.roomId, opened));
    expect(tagged.sort((a, b) => a.roomId - b.roomId).map((r) => r.name)).toEqual(['ann', 'cy', 'dee', 'ann', 'cy', 'dee'].map((n) => `${n}@acme.test`));
    // An assigned room is not re-assigned; a resolved one is not assigned.
    expect(await auto().roomOpened(opened[0])).toBeNull();
    const resolved = await openRoom();
    await t.db.update(rooms).set({ status: 'resolved' }).where(eq(rooms.id, resolved));
    expect(await auto().roomOpened(resolved)).toBeNull();
    await resolveAll();
  });

  it('skips a member at capacity (open rooms assigned), default 20; nobody available leaves the room unassigned', async () => {
    online = [members[0], members[1]];
    expect((await put(`/api/assignment-capacities/${members[1]}/`, { capacity: 1 })).json()).toEqual({ user_id: members[1], capacity: 1 });
    expect((await put(`/api/assignment-capacities/${members[0]}/`, { capacity: 2 })).statusCode).toBe(200);
    const list = (await t.app.inject({ method: 'GET', url: '/api/assignment-capacities/', headers: t.headers(admin.access, company) })).json();
    expect(list.results).toContainEqual({ user_id: members[2], capacity: 20 });
    const picks: (number | null)[] = [];
    for (let i = 0; i < 4; i++) picks.push(await auto().roomOpened(await openRoom()));
    expect(picks.filter((p) => p === members[0])).toHaveLength(2);
    expect(picks.filter((p) => p === members[1])).toHaveLength(1);
    expect(picks.filter((p) => p === null)).toHaveLength(1);
    // A room resolved frees a place.
    await resolveAll();
    expect(await auto().roomOpened(await openRoom())).not.toBeNull();
    await resolveAll();
  });

  it('refuses bad input with a 400 and another company’s channel or member with a 404', async () => {
    expect((await put(`/api/auto-assignment/${channelId}/`, { enabled: 'yes' })).statusCode).toBe(400);
    expect((await put(`/api/assignment-capacities/${members[0]}/`, { capacity: -1 })).statusCode).toBe(400);
    expect((await put(`/api/assignment-capacities/${members[0]}/`, { capacity: 2.5 })).statusCode).toBe(400);
    const other = await t.seed.company('Other');
    const otherChannel = await ensureSandboxChannel(t.db, other);
    expect((await put(`/api/auto-assignment/${otherChannel.id}/`, { enabled: true })).statusCode).toBe(404);
    const stranger = await t.seed.user({ email: 'stranger@other.test' });
    await t.seed.member(other, stranger, 'agent');
    expect((await put(`/api/assignment-capacities/${stranger}/`, { capacity: 3 })).statusCode).toBe(404);
    // An agent may not switch it (channels manage) nor set capacities (members manage).
    const agent = await t.login('ann@acme.test');
    expect((await put(`/api/auto-assignment/${channelId}/`, { enabled: false }, agent.access)).statusCode).toBe(403);
    expect((await put(`/api/assignment-capacities/${members[0]}/`, { capacity: 3 }, agent.access)).statusCode).toBe(403);
  });

  describe('two apps on one database', () => {
    let b: TestApp;
    beforeAll(async () => {
      b = await createTestApp({ sameDatabaseAs: t });
    });
    afterAll(() => b?.close());

    it('assigning 40 rooms at once through both: each member gets 10, no room twice', async () => {
      await t.db.delete(tags).where(eq(tags.companyId, company));
      online = [...members];
      await Promise.all(members.map((m) => put(`/api/assignment-capacities/${m}/`, { capacity: 20 })));
      const opened: number[] = [];
      for (let i = 0; i < 40; i++) opened.push(await openRoom());
      const [onA, onB] = [auto(t), auto(b)];
      const picks = await Promise.all(opened.map((room, i) => (i % 2 === 0 ? onA : onB).roomOpened(room)));
      expect(picks.every((p) => p !== null)).toBe(true);
      const assigned = await t.db.select({ id: rooms.id, assignee: rooms.assigneeUserId }).from(rooms).where(inArray(rooms.id, opened));
      const spread = new Map<number, number>();
      for (const r of assigned) spread.set(r.assignee!, (spread.get(r.assignee!) ?? 0) + 1);
      expect([...spread.entries()].sort((x, y) => x[0] - y[0])).toEqual(members.map((m) => [m, 10]));
      // Each room carries exactly its assignee's tag.
      const tagged = await t.db.select({ roomId: roomTags.roomId }).from(roomTags).where(inArray(roomTags.roomId, opened));
      expect(tagged).toHaveLength(40);
    });
  });
});
