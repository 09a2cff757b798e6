import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { companies } from '../../core/db/schema';
import { createTestApp, type TestApp } from '../../testing/testApp';

const COMPANY_FORBIDDEN = { detail: 'You do not have access to this company.', code: 'company_forbidden' };
const COMPANY_REQUIRED = { detail: 'The Company header is required.', code: 'company_required' };
const PERMISSION_DENIED = { detail: 'You do not have permission to perform this action.', code: 'permission_denied' };

describe('companies, roles and tenancy', () => {
  let t: TestApp;
  let admin: string;
  let agent: string;
  let outsider: string;
  let acme: number;
  let globex: number;

  beforeAll(async () => {
    t = await createTestApp();
    const adminId = await t.seed.user({ email: 'boss@acme.test', firstName: 'Boss' });
    const agentId = await t.seed.user({ email: 'agent@acme.test' });
    await t.seed.user({ email: 'outsider@globex.test' });
    acme = await t.seed.company('Acme', { planName: 'Growth' });
    globex = await t.seed.company('Globex');
    await t.seed.member(acme, adminId, 'admin');
    await t.seed.member(acme, agentId, 'agent');
    admin = (await t.login('boss@acme.test')).access;
    agent = (await t.login('agent@acme.test')).access;
    outsider = (await t.login('outsider@globex.test')).access;
  });
  afterAll(() => t.close());

  it('POST /api/companies/ creates a company whose creator is admin (no Company header needed)', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/companies/', headers: t.headers(outsider), payload: { name: '  Hopper Logistics ' } });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      id: expect.any(Number),
      name: 'Hopper Logistics',
      logo: null,
      translator_domain: null,
      subscription_plan_name: null,
      role: { id: 'admin', name: 'Admin' },
    });
    expect(body.permissions.can_manage_permissions).toBe(true);

    const me = (await t.app.inject({ method: 'GET', url: '/account/user/', headers: t.headers(outsider) })).json();
    expect(me.companies.map((c: { id: number }) => c.id)).toEqual([body.id]);
  });

  it('POST /api/companies/ validates the name and the logo, and needs a login', async () => {
    const blank = await t.app.inject({ method: 'POST', url: '/api/companies/', headers: t.headers(outsider), payload: { name: '   ' } });
    expect(blank.json()).toEqual({ name: ['This field may not be blank.'] });
    const script = await t.app.inject({ method: 'POST', url: '/api/companies/', headers: t.headers(outsider), payload: { name: 'X', logo: 'javascript:alert(1)' } });
    expect(script.json()).toEqual({ logo: ['Enter a valid image URL.'] });
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/companies/', payload: { name: 'X' } });
    expect(anonymous.statusCode).toBe(401);
  });

  it('GET /api/companies/{id}/account/ returns the membership with members_count', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/companies/${acme}/account/`, headers: t.headers(agent) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: acme, name: 'Acme', subscription_plan_name: 'Growth', role: { id: 'agent', name: 'Agent' }, members_count: 2 });
    // With a Company header it must name the same company.
    expect((await t.app.inject({ method: 'GET', url: `/api/companies/${acme}/account/`, headers: t.headers(agent, acme) })).statusCode).toBe(200);
    const mismatch = await t.app.inject({ method: 'GET', url: `/api/companies/${acme}/account/`, headers: t.headers(agent, globex) });
    expect(mismatch.statusCode).toBe(403);
    expect(mismatch.json()).toEqual(COMPANY_FORBIDDEN);
  });

  it('a company the user does not belong to and one that does not exist get the same 403', async () => {
    const foreign = await t.app.inject({ method: 'GET', url: `/api/companies/${globex}/account/`, headers: t.headers(agent) });
    const missing = await t.app.inject({ method: 'GET', url: '/api/companies/999999/account/', headers: t.headers(agent) });
    const junk = await t.app.inject({ method: 'GET', url: '/api/companies/abc/account/', headers: t.headers(agent) });
    for (const res of [foreign, missing, junk]) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual(COMPANY_FORBIDDEN);
    }
  });

  it('PATCH /api/companies/{id}/ updates name and logo for an admin', async () => {
    const logo = 'data:image/png;base64,iVBORw0KGgo=';
    const res = await t.app.inject({ method: 'PATCH', url: `/api/companies/${acme}/`, headers: t.headers(admin, acme), payload: { name: 'Acme Corp', logo } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: acme, name: 'Acme Corp', logo, role: { id: 'admin', name: 'Admin' } });
    const cleared = await t.app.inject({ method: 'PATCH', url: `/api/companies/${acme}/`, headers: t.headers(admin, acme), payload: { logo: null } });
    expect(cleared.json()).toMatchObject({ name: 'Acme Corp', logo: null });
  });

  it('PATCH needs the Company header, the same company, and can_manage_your_account', async () => {
    const url = `/api/companies/${acme}/`;
    const noHeader = await t.app.inject({ method: 'PATCH', url, headers: t.headers(admin), payload: { name: 'Nope' } });
    expect(noHeader.statusCode).toBe(400);
    expect(noHeader.json()).toEqual(COMPANY_REQUIRED);

    const byAgent = await t.app.inject({ method: 'PATCH', url, headers: t.headers(agent, acme), payload: { name: 'Nope' } });
    expect(byAgent.statusCode).toBe(403);
    expect(byAgent.json()).toEqual(PERMISSION_DENIED);

    const otherHeader = await t.app.inject({ method: 'PATCH', url: `/api/companies/${globex}/`, headers: t.headers(admin, acme), payload: { name: 'Nope' } });
    expect(otherHeader.statusCode).toBe(403);
    expect(otherHeader.json()).toEqual(COMPANY_FORBIDDEN);

    const foreign = await t.app.inject({ method: 'PATCH', url: `/api/companies/${globex}/`, headers: t.headers(admin, globex), payload: { name: 'Nope' } });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json()).toEqual(COMPANY_FORBIDDEN);

    const names = await t.db.select({ id: companies.id, name: companies.name }).from(companies).where(eq(companies.id, globex));
    expect(names).toEqual([{ id: globex, name: 'Globex' }]);
    const [acmeRow] = await t.db.select({ name: companies.name }).from(companies).where(eq(companies.id, acme));
    expect(acmeRow.name).not.toBe('Nope');
  });

  it('a company override can grant a role what its defaults do not', async () => {
    const initech = await t.seed.company('Initech');
    const userId = await t.seed.user({ email: 'trusted-agent@initech.test' });
    await t.seed.member(initech, userId, 'agent');
    await t.seed.rolePermissions(initech, 'agent', { can_manage_your_account: true });
    const { access } = await t.login('trusted-agent@initech.test');
    const res = await t.app.inject({ method: 'PATCH', url: `/api/companies/${initech}/`, headers: t.headers(access, initech), payload: { name: 'Initech Ltd' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().permissions.can_manage_your_account).toBe(true);
  });

  it('GET /api/roles/ lists the roles, with a Company header of a company the user belongs to', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/roles/', headers: t.headers(agent, acme) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      count: 3,
      next: null,
      previous: null,
      results: [
        { id: 'admin', name: 'Admin' },
        { id: 'manager', name: 'Manager' },
        { id: 'agent', name: 'Agent' },
      ],
    });
    expect((await t.app.inject({ method: 'GET', url: '/api/roles/', headers: t.headers(agent) })).json()).toEqual(COMPANY_REQUIRED);
    expect((await t.app.inject({ method: 'GET', url: '/api/roles/', headers: t.headers(agent, globex) })).json()).toEqual(COMPANY_FORBIDDEN);
    expect((await t.app.inject({ method: 'GET', url: '/api/roles/', headers: t.headers(agent, 'x' as unknown as number) })).json()).toEqual(COMPANY_FORBIDDEN);
    expect((await t.app.inject({ method: 'GET', url: '/api/roles/' })).statusCode).toBe(401);
  });
});
