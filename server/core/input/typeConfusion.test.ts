/**
 * Type confusion is a 400, never a TypeError: objects whose toString is not a function, arrays,
 * numbers and nulls where the contract wants text or a choice, on real routes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/testApp';

const HOSTILE: unknown[] = [{ toString: 1 }, { toString: 1, valueOf: 1 }, ['agent'], 5, null, true, { __defineGetter__: 1 }];

describe('type confusion on the API', () => {
  let t: TestApp;
  let headers: Record<string, string>;
  let companyId: number;
  let memberId: number;

  beforeAll(async () => {
    t = await createTestApp();
    companyId = await t.seed.company('Acme');
    const admin = await t.seed.user({ email: 'admin@acme.test' });
    const agent = await t.seed.user({ email: 'agent@acme.test' });
    await t.seed.member(companyId, admin, 'admin');
    await t.seed.member(companyId, agent, 'agent');
    headers = t.headers((await t.login('admin@acme.test')).access, companyId);
    const members = (await t.app.inject({ method: 'GET', url: '/api/members/', headers })).json().results as { id: number; email: string }[];
    memberId = members.find((m) => m.email === 'agent@acme.test')!.id;
  });
  afterAll(() => t.close());

  const call = (method: 'POST' | 'PATCH' | 'PUT', url: string, payload: unknown) => t.app.inject({ method, url, headers, payload: payload as object });

  it('PATCH /api/members/{id}/ and POST /api/invites/bulk/ answer 400 on the field for any role_id', async () => {
    for (const value of HOSTILE) {
      const member = await call('PATCH', `/api/members/${memberId}/`, { role_id: value });
      expect(member.statusCode, JSON.stringify(value)).toBe(400);
      expect(Object.keys(member.json())).toEqual(['role_id']);

      const bulk = await call('POST', '/api/invites/bulk/', { invites: [{ email: 'new@acme.test', role_id: value }] });
      expect(bulk.statusCode, JSON.stringify(value)).toBe(400);
      expect(Object.keys(bulk.json())).toEqual(['invites.0.role_id']);
    }
    expect((await call('PATCH', `/api/members/${memberId}/`, { role_id: 'owner' })).json()).toEqual({ role_id: ['"owner" is not a valid choice.'] });
    expect((await call('PATCH', `/api/members/${memberId}/`, { role_id: { toString: 1 } })).json()).toEqual({ role_id: ['Not a valid choice.'] });
  });

  it('text fields, lists and records of other routes answer 400 too', async () => {
    const attempts: [method: 'POST' | 'PATCH' | 'PUT', url: string, payload: unknown][] = [];
    for (const value of HOSTILE) {
      attempts.push(
        ['POST', '/account/login/', { email: value, password: value }],
        ['POST', '/api/invites/bulk/', { invites: value }],
        ['POST', '/api/invites/bulk/', { invites: [{ email: value }] }],
        ['POST', '/api/agent-templates/', { name: value, text: value }],
        ['POST', '/api/companies/', { name: value, logo: value }],
        ['PATCH', '/api/permissions/agent/', { permissions: value }],
        // (true is a valid permission value)
        ['PATCH', '/api/permissions/agent/', { permissions: { can_view_chats: value === true ? 'yes' : value } }],
        ['POST', '/api/channels/facebook_pages/', { access_token: value }],
        ['POST', '/api/wa-onboard/embedded_signup/', { phone_number_id: value, waba_id: '1', code: 'c', company: value, email: 'a@b.co' }],
      );
    }
    for (const [method, url, payload] of attempts) {
      const res = await call(method, url, payload);
      expect(res.statusCode, `${method} ${url} ${JSON.stringify(payload)}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, `${method} ${url} ${JSON.stringify(payload)}`).toBeLessThan(500);
    }
  });

  it('numbers beyond what the database stores are a 400, not a failed query', async () => {
    for (const url of ['/api/members/?page=99999999999999', '/api/chats/rooms/1/messages/?before_id=99999999999', '/api/agent-templates/?page=1e300']) {
      const res = await t.app.inject({ method: 'GET', url, headers });
      expect(res.statusCode, url).toBe(400);
    }
  });

  it('huge values are refused: a 900 kB e-mail full of dots never reaches the backtracking pattern', async () => {
    const email = `a@${'a.'.repeat(450_000)}@`;
    const login = await t.app.inject({ method: 'POST', url: '/account/login/', payload: { email, password: 'x' } });
    expect([login.statusCode, login.json()]).toEqual([400, { email: ['Enter a valid email address.'] }]);
    const bulk = await call('POST', '/api/invites/bulk/', { invites: [{ email: email.slice(0, 500_000) }] });
    expect(bulk.statusCode).toBe(400);
    const tooBig = await t.app.inject({ method: 'POST', url: '/account/login/', payload: { email: 'a@b.co', password: 'x'.repeat(2_000_000) } });
    expect(tooBig.statusCode).toBe(413);
  });
});
