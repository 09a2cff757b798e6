import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSION_AREAS, defaultPermissions } from '../../../contract/permissions';
import type { RolePermissions } from '../../../contract/team';
import { createTestApp, type TestApp } from '../../testing/testApp';
import { COMPANY_FORBIDDEN, PERMISSION_DENIED, teamFixture } from './testFixtures';

describe('team role permissions', () => {
  let t: TestApp;
  let n = 0;
  const fixture = () => teamFixture(t, `Company ${++n}`, `c${n}.test`);

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('GET /api/permissions/ lists the effective maps of admin, manager and agent (defaults + the company override)', async () => {
    const f = await fixture();
    await t.seed.rolePermissions(f.company, 'agent', { can_view_stats: false, can_view_members: true });
    const res = await f.call(f.admin, 'GET', '/api/permissions/');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ count: 3, next: null, previous: null });
    const [admin, manager, agent] = body.results as RolePermissions[];
    expect(admin).toEqual({ role_id: 'admin', name: 'Admin', permissions: defaultPermissions('admin'), editable: false });
    expect(manager).toEqual({ role_id: 'manager', name: 'Manager', permissions: defaultPermissions('manager'), editable: true });
    expect(agent).toEqual({
      role_id: 'agent',
      name: 'Agent',
      permissions: { ...defaultPermissions('agent'), can_view_stats: false, can_view_members: true },
      editable: true,
    });
    expect(Object.keys(agent.permissions)).toHaveLength(PERMISSION_AREAS.length * 2);
  });

  it('PATCH /api/permissions/{role}/ merges the flags and applies them at once to every member with the role', async () => {
    const f = await fixture();
    const other = await f.add('agent', `second-agent@c${n}.test`);
    expect((await f.call(f.agent, 'GET', '/api/members/')).statusCode).toBe(403);

    const res = await f.call(f.admin, 'PATCH', '/api/permissions/agent/', { permissions: { can_view_members: true, can_manage_members: true } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      role_id: 'agent',
      name: 'Agent',
      permissions: { ...defaultPermissions('agent'), can_view_members: true, can_manage_members: true },
      editable: true,
    });
    // Same access tokens, next request: the new permissions hold.
    expect((await f.call(f.agent, 'GET', '/api/members/')).statusCode).toBe(200);
    expect((await f.call(other, 'GET', '/api/invites/')).statusCode).toBe(200);
    const me = await t.app.inject({ method: 'GET', url: '/account/user/', headers: t.headers(f.agent.access) });
    expect(me.json().companies[0].permissions).toMatchObject({ can_view_members: true, can_manage_members: true });

    // A later change keeps the earlier flags it does not mention.
    const again = await f.call(f.admin, 'PATCH', '/api/permissions/agent/', { permissions: { can_manage_members: false } });
    expect(again.json().permissions).toMatchObject({ can_view_members: true, can_manage_members: false });
    expect((await f.call(f.agent, 'POST', '/api/invites/bulk/', { invites: [{ email: 'x@example.com' }] })).statusCode).toBe(403);

    // The manager's role is editable too, and taking a right away works immediately.
    await f.call(f.admin, 'PATCH', '/api/permissions/manager/', { permissions: { can_view_members: false } });
    expect((await f.call(f.manager, 'GET', '/api/members/')).json()).toEqual(PERMISSION_DENIED);
  });

  it('refuses to edit the admin role, unknown areas, unknown roles and malformed bodies', async () => {
    const f = await fixture();
    const admin = await f.call(f.admin, 'PATCH', '/api/permissions/admin/', { permissions: { can_manage_billing: false } });
    expect(admin.statusCode).toBe(400);
    expect(admin.json()).toEqual({ detail: 'The admin role always has every permission.', code: 'admin_locked' });

    const unknown = await f.call(f.admin, 'PATCH', '/api/permissions/agent/', { permissions: { can_view_members: true, can_view_secrets: true } });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({ permissions: ['Unknown permission: can_view_secrets.'] });
    const shape = await f.call(f.admin, 'PATCH', '/api/permissions/agent/', { permissions: { is_superuser: true } });
    expect(shape.statusCode).toBe(400);
    // Nested fields are named with their dotted path.
    expect(Object.keys(shape.json())).toEqual(['permissions.is_superuser']);
    const notBool = await f.call(f.admin, 'PATCH', '/api/permissions/agent/', { permissions: { can_view_members: 'yes' } });
    expect(Object.keys(notBool.json())).toEqual(['permissions.can_view_members']);
    expect((await f.call(f.admin, 'PATCH', '/api/permissions/owner/', { permissions: {} })).statusCode).toBe(404);
    // Nothing of the refused requests was stored.
    const list = (await f.call(f.admin, 'GET', '/api/permissions/')).json().results as RolePermissions[];
    expect(list[2].permissions).toEqual(defaultPermissions('agent'));
  });

  it('needs can_view_permissions to read and can_manage_permissions to change (agents and managers by default have neither)', async () => {
    const f = await fixture();
    for (const who of [f.agent, f.manager]) {
      expect((await f.call(who, 'GET', '/api/permissions/')).json()).toEqual(PERMISSION_DENIED);
      const res = await f.call(who, 'PATCH', '/api/permissions/agent/', { permissions: { can_view_members: true } });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual(PERMISSION_DENIED);
    }
    // Another company's role permissions are out of reach.
    const b = await fixture();
    expect((await f.call(f.admin, 'PATCH', '/api/permissions/agent/', { permissions: { can_view_members: true } }, b.company)).json()).toEqual(COMPANY_FORBIDDEN);
    expect((await b.call(b.agent, 'GET', '/api/members/')).statusCode).toBe(403);
  });
});
