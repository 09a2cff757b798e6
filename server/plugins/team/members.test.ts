import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Paged } from '../../../contract/api';
import type { TeamMember } from '../../../contract/team';
import { memberships, users } from '../../core/db/schema';
import { createTestApp, describeEachDatabase, type TestApp } from '../../testing/testApp';
import { COMPANY_FORBIDDEN, NOT_FOUND, PERMISSION_DENIED, teamFixture, type TeamFixture } from './testFixtures';

const LAST_ADMIN = 'A company needs at least one admin.';
const ADMIN_ONLY = { detail: 'Only an admin can grant or remove the admin role.', code: 'admin_role_forbidden' };

describeEachDatabase('team members', (database) => {
  let t: TestApp;
  let n = 0;
  const fixture = () => teamFixture(t, `Company ${++n}`, `c${n}.test`);

  beforeAll(async () => {
    t = await createTestApp({ database });
  });
  afterAll(() => t.close());

  describe('GET /api/members/', () => {
    let f: TeamFixture;
    const list = async (query = '') => {
      const res = await f.call(f.admin, 'GET', `/api/members/${query}`);
      expect(res.statusCode).toBe(200);
      return res.json() as Paged<TeamMember>;
    };
    const emails = (page: Paged<TeamMember>) => page.results.map((m) => m.email);

    beforeAll(async () => {
      f = await teamFixture(t, 'Listing', 'list.test');
      await f.add('agent', 'zoe.zimmer@list.test', { firstName: 'zoe', lastName: 'Zimmer' });
      await f.add('agent', 'bob@list.test', { firstName: 'Bob', lastName: 'Builder' });
      await f.add('manager', 'carla@elsewhere.test', { firstName: 'Carla', lastName: '100%_Sure' });
      await f.add('admin', 'yuri@list.test', { firstName: 'Yuri', lastName: 'Admin' });
    });

    it('lists the members as TeamMember, oldest membership first, marking the caller', async () => {
      const page = await list();
      expect(page.count).toBe(7);
      expect(page.next).toBeNull();
      expect(page.previous).toBeNull();
      expect(emails(page)).toEqual([
        'admin@list.test',
        'manager@list.test',
        'agent@list.test',
        'zoe.zimmer@list.test',
        'bob@list.test',
        'carla@elsewhere.test',
        'yuri@list.test',
      ]);
      expect(page.results[0]).toEqual({
        id: await f.membershipId(f.admin.id),
        user_id: f.admin.id,
        first_name: 'Admin',
        last_name: 'Listing',
        email: 'admin@list.test',
        role_id: 'admin',
        role: { id: 'admin', name: 'Admin' },
        profile_avatar: null,
        profile_avatar_url: null,
        created_at: expect.any(String),
        is_current_user: true,
      });
      expect(page.results.filter((m) => m.is_current_user)).toHaveLength(1);
      // The list maps the driver's rows itself (preparedMapped): each created_at is the row's, as toISOString writes it.
      const joined = await t.db.select({ id: memberships.id, createdAt: memberships.createdAt }).from(memberships);
      const createdAt = new Map(joined.map((m) => [m.id, m.createdAt.toISOString()]));
      for (const member of page.results) expect(member.created_at).toBe(createdAt.get(member.id));
    });

    it('pages with page and page_size (pages from 1), with next/previous links', async () => {
      const second = await list('?page=2&page_size=3');
      expect(second.count).toBe(7);
      expect(emails(second)).toEqual(['zoe.zimmer@list.test', 'bob@list.test', 'carla@elsewhere.test']);
      expect(second.next).toBe('/api/members/?page=3&page_size=3');
      expect(second.previous).toBe('/api/members/?page=1&page_size=3');
      const third = await list('?page=3&page_size=3');
      expect(emails(third)).toEqual(['yuri@list.test']);
      expect(third.next).toBeNull();
      // Past the end: an empty page, not an error.
      const beyond = await list('?page=9&page_size=3');
      expect(beyond).toMatchObject({ count: 7, next: null, results: [] });
      // page_size is capped at 1000; the default is 25.
      expect((await list('?page_size=5000')).results).toHaveLength(7);
      const bad = await f.call(f.admin, 'GET', '/api/members/?page=0');
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({ page: ['Invalid page.'] });
    });

    it('sorts by first_name, email, role_id and created_at, descending with a leading -', async () => {
      expect(emails(await list('?ordering=first_name'))).toEqual([
        'admin@list.test',
        'agent@list.test',
        'bob@list.test',
        'carla@elsewhere.test',
        'manager@list.test',
        'yuri@list.test',
        'zoe.zimmer@list.test', // lower-case "zoe" sorts case-insensitively
      ]);
      expect(emails(await list('?ordering=-first_name'))[0]).toBe('zoe.zimmer@list.test');
      expect(emails(await list('?ordering=email'))).toEqual([
        'admin@list.test',
        'agent@list.test',
        'bob@list.test',
        'carla@elsewhere.test',
        'manager@list.test',
        'yuri@list.test',
        'zoe.zimmer@list.test',
      ]);
      expect((await list('?ordering=role_id')).results.map((m) => m.role_id)).toEqual(['admin', 'admin', 'manager', 'manager', 'agent', 'agent', 'agent']);
      expect((await list('?ordering=-role_id')).results.map((m) => m.role_id)).toEqual(['agent', 'agent', 'agent', 'manager', 'manager', 'admin', 'admin']);
      expect(emails(await list('?ordering=-created_at'))[0]).toBe('yuri@list.test');
      const bad = await f.call(f.admin, 'GET', '/api/members/?ordering=password_hash');
      expect(bad.statusCode).toBe(400);
      expect(Object.keys(bad.json())).toEqual(['ordering']);
    });

    it('searches first name, last name and e-mail case-insensitively, wildcards taken literally', async () => {
      expect(emails(await list('?search=ZOE'))).toEqual(['zoe.zimmer@list.test']);
      expect(emails(await list('?search=builder'))).toEqual(['bob@list.test']);
      expect(emails(await list('?search=ELSEWHERE'))).toEqual(['carla@elsewhere.test']);
      expect(emails(await list(`?search=${encodeURIComponent('100%_')}`))).toEqual(['carla@elsewhere.test']);
      expect((await list(`?search=${encodeURIComponent('%')}`)).count).toBe(1);
      expect((await list('?search=_')).count).toBe(1);
      const paged = await list('?search=list.test&page_size=2');
      expect(paged.count).toBe(6);
      expect(paged.next).toBe('/api/members/?search=list.test&page_size=2&page=2');
    });

    it('needs can_view_members: a manager may list, an agent (default permissions) may not', async () => {
      expect((await f.call(f.manager, 'GET', '/api/members/')).statusCode).toBe(200);
      const res = await f.call(f.agent, 'GET', '/api/members/');
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual(PERMISSION_DENIED);
    });

    it('needs a login and a Company header of a company the user belongs to', async () => {
      expect((await t.app.inject({ method: 'GET', url: '/api/members/' })).statusCode).toBe(401);
      const noHeader = await t.app.inject({ method: 'GET', url: '/api/members/', headers: t.headers(f.admin.access) });
      expect(noHeader.statusCode).toBe(400);
      const other = await t.seed.company('Not mine');
      const foreign = await f.call(f.admin, 'GET', '/api/members/', undefined, other);
      expect(foreign.statusCode).toBe(403);
      expect(foreign.json()).toEqual(COMPANY_FORBIDDEN);
    });
  });

  describe('PATCH /api/members/{id}/', () => {
    it('changes a role and answers the updated member', async () => {
      const f = await fixture();
      const id = await f.membershipId(f.agent.id);
      const res = await f.call(f.admin, 'PATCH', `/api/members/${id}/`, { role_id: 'manager' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ id, user_id: f.agent.id, role_id: 'manager', role: { id: 'manager', name: 'Manager' }, is_current_user: false });
      // The new role's permissions apply to the member's next request.
      expect((await f.call(f.agent, 'GET', '/api/members/')).statusCode).toBe(200);
    });

    it('validates role_id', async () => {
      const f = await fixture();
      const id = await f.membershipId(f.agent.id);
      const res = await f.call(f.admin, 'PATCH', `/api/members/${id}/`, { role_id: 'owner' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ role_id: ['"owner" is not a valid choice.'] });
      expect((await f.call(f.admin, 'PATCH', `/api/members/${id}/`, {})).json()).toEqual({ role_id: ['This field is required.'] });
    });

    it('refuses to demote the last admin, allows it while another admin remains', async () => {
      const f = await fixture();
      const own = await f.membershipId(f.admin.id);
      const res = await f.call(f.admin, 'PATCH', `/api/members/${own}/`, { role_id: 'manager' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ role_id: [LAST_ADMIN] });

      const second = await f.add('admin', `second-admin@c${n}.test`);
      expect((await f.call(second, 'PATCH', `/api/members/${own}/`, { role_id: 'agent' })).statusCode).toBe(200);
      // Now `second` is the only admin.
      const secondId = await f.membershipId(second.id);
      expect((await f.call(second, 'PATCH', `/api/members/${secondId}/`, { role_id: 'agent' })).json()).toEqual({ role_id: [LAST_ADMIN] });
    });

    it('lets only an admin grant or remove the admin role; a manager may change other roles', async () => {
      const f = await fixture();
      const agentId = await f.membershipId(f.agent.id);
      const grant = await f.call(f.manager, 'PATCH', `/api/members/${agentId}/`, { role_id: 'admin' });
      expect(grant.statusCode).toBe(403);
      expect(grant.json()).toEqual(ADMIN_ONLY);
      const self = await f.call(f.manager, 'PATCH', `/api/members/${await f.membershipId(f.manager.id)}/`, { role_id: 'admin' });
      expect(self.statusCode).toBe(403);
      await f.add('admin', `second-admin@c${n}.test`);
      const demote = await f.call(f.manager, 'PATCH', `/api/members/${await f.membershipId(f.admin.id)}/`, { role_id: 'agent' });
      expect(demote.statusCode).toBe(403);
      const [row] = await t.db.select({ role: memberships.role }).from(memberships).where(eq(memberships.id, await f.membershipId(f.admin.id)));
      expect(row.role).toBe('admin');

      expect((await f.call(f.manager, 'PATCH', `/api/members/${agentId}/`, { role_id: 'manager' })).statusCode).toBe(200);
      expect((await f.call(f.admin, 'PATCH', `/api/members/${agentId}/`, { role_id: 'admin' })).json()).toMatchObject({ role_id: 'admin' });
    });

    it('needs can_manage_members (an agent gets 403) and answers 404 for an unknown id', async () => {
      const f = await fixture();
      const res = await f.call(f.agent, 'PATCH', `/api/members/${await f.membershipId(f.agent.id)}/`, { role_id: 'admin' });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual(PERMISSION_DENIED);
      expect((await f.call(f.admin, 'PATCH', '/api/members/999999/', { role_id: 'agent' })).json()).toEqual(NOT_FOUND);
      expect((await f.call(f.admin, 'PATCH', '/api/members/abc/', { role_id: 'agent' })).statusCode).toBe(404);
    });
  });

  describe('DELETE /api/members/{id}/', () => {
    it('removes a member: only the membership ends, the user and their session stay', async () => {
      const f = await fixture();
      const id = await f.membershipId(f.agent.id);
      const res = await f.call(f.admin, 'DELETE', `/api/members/${id}/`);
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      expect(await t.db.select().from(memberships).where(eq(memberships.id, id))).toEqual([]);
      expect(await t.db.select({ id: users.id }).from(users).where(eq(users.id, f.agent.id))).toHaveLength(1);
      const me = await t.app.inject({ method: 'GET', url: '/account/user/', headers: t.headers(f.agent.access) });
      expect(me.statusCode).toBe(200);
      expect(me.json().companies).toEqual([]);
      // The former member no longer reaches the company.
      expect((await f.call(f.agent, 'GET', '/api/members/')).json()).toEqual(COMPANY_FORBIDDEN);
      expect((await f.call(f.admin, 'DELETE', `/api/members/${id}/`)).statusCode).toBe(404);
    });

    it('refuses to remove the last admin, even when the admin leaves', async () => {
      const f = await fixture();
      const own = await f.membershipId(f.admin.id);
      const res = await f.call(f.admin, 'DELETE', `/api/members/${own}/`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ detail: LAST_ADMIN, code: 'last_admin' });

      const second = await f.add('admin', `second-admin@c${n}.test`);
      expect((await f.call(second, 'DELETE', `/api/members/${own}/`)).statusCode).toBe(204);
      const secondId = await f.membershipId(second.id);
      expect((await f.call(second, 'DELETE', `/api/members/${secondId}/`)).json()).toEqual({ detail: LAST_ADMIN, code: 'last_admin' });
    });

    it('lets anyone leave (an agent removes their own membership)', async () => {
      const f = await fixture();
      const res = await f.call(f.agent, 'DELETE', `/api/members/${await f.membershipId(f.agent.id)}/`);
      expect(res.statusCode).toBe(204);
      expect((await f.call(f.admin, 'GET', '/api/members/')).json().count).toBe(2);
    });

    it('refuses an agent removing someone else, and a manager removing an admin', async () => {
      const f = await fixture();
      const byAgent = await f.call(f.agent, 'DELETE', `/api/members/${await f.membershipId(f.manager.id)}/`);
      expect(byAgent.statusCode).toBe(403);
      expect(byAgent.json()).toEqual(PERMISSION_DENIED);
      await f.add('admin', `second-admin@c${n}.test`);
      const byManager = await f.call(f.manager, 'DELETE', `/api/members/${await f.membershipId(f.admin.id)}/`);
      expect(byManager.statusCode).toBe(403);
      expect(byManager.json()).toEqual(ADMIN_ONLY);
      expect((await f.call(f.admin, 'GET', '/api/members/')).json().count).toBe(4);
      // A manager may remove an agent.
      expect((await f.call(f.manager, 'DELETE', `/api/members/${await f.membershipId(f.agent.id)}/`)).statusCode).toBe(204);
    });
  });

  it('an agent with the default permissions gets 403 on every members, invites and permissions write, and on GET /api/permissions/', async () => {
    const f = await fixture();
    const managerId = await f.membershipId(f.manager.id);
    const invite = (await f.call(f.admin, 'POST', '/api/invites/bulk/', { invites: [{ email: 'someone@example.com' }] })).json().results[0];
    const attempts: [Parameters<TeamFixture['call']>[1], string, unknown?][] = [
      ['PATCH', `/api/members/${managerId}/`, { role_id: 'agent' }],
      ['DELETE', `/api/members/${managerId}/`],
      ['POST', '/api/invites/bulk/', { invites: [{ email: 'new@example.com' }] }],
      ['DELETE', `/api/invites/${invite.id}/`],
      ['PATCH', '/api/permissions/agent/', { permissions: { can_view_members: true } }],
      ['GET', '/api/permissions/'],
      ['GET', '/api/members/'],
      ['GET', '/api/invites/'],
    ];
    for (const [method, url, payload] of attempts) {
      const res = await f.call(f.agent, method, url, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json()).toEqual(PERMISSION_DENIED);
    }
    const members = (await f.call(f.admin, 'GET', '/api/members/')).json() as Paged<TeamMember>;
    expect(members.results.map((m) => m.role_id)).toEqual(['admin', 'manager', 'agent']);
    expect((await f.call(f.admin, 'GET', '/api/invites/')).json().count).toBe(1);
  });

  describe('across companies', () => {
    it("answers 404 for another company's membership ids and changes nothing", async () => {
      const a = await fixture();
      const b = await fixture();
      const foreign = await b.membershipId(b.agent.id);
      const foreignAdmin = await b.membershipId(b.admin.id);
      expect((await a.call(a.admin, 'PATCH', `/api/members/${foreign}/`, { role_id: 'manager' })).json()).toEqual(NOT_FOUND);
      expect((await a.call(a.admin, 'DELETE', `/api/members/${foreign}/`)).json()).toEqual(NOT_FOUND);
      expect((await a.call(a.admin, 'DELETE', `/api/members/${foreignAdmin}/`)).statusCode).toBe(404);
      const listed = (await b.call(b.admin, 'GET', '/api/members/')).json() as Paged<TeamMember>;
      expect(listed.count).toBe(3);
      expect(listed.results.find((m) => m.id === foreign)?.role_id).toBe('agent');
    });

    it('answers 403 when the Company header names a company the user is not in', async () => {
      const a = await fixture();
      const b = await fixture();
      const foreign = await b.membershipId(b.agent.id);
      for (const [method, payload] of [['PATCH', { role_id: 'manager' }], ['DELETE', undefined]] as const) {
        const res = await a.call(a.admin, method, `/api/members/${foreign}/`, payload, b.company);
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual(COMPANY_FORBIDDEN);
      }
      expect((await b.call(b.admin, 'GET', '/api/members/')).json().count).toBe(3);
    });
  });
});
