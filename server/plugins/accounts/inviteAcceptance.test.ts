import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CompanyMembership } from '../../../contract/api';
import type { Invite } from '../../../contract/team';
import { createTestApp, describeEachDatabase, type TestApp } from '../../testing/testApp';

const DAY = 24 * 3600 * 1000;
const PASSWORD = 'Sturdy-Passphrase-42';

function form(email: string, extra: Record<string, unknown> = {}) {
  return { first_name: 'Invited', last_name: 'Person', email, password1: PASSWORD, password2: PASSWORD, ...extra };
}

describeEachDatabase('invite acceptance', (database) => {
  let t: TestApp;
  let acme: number;
  let globex: number;
  let adminAccess: string;

  const register = (body: Record<string, unknown>) => t.app.inject({ method: 'POST', url: '/account/registration/', payload: body });
  const invite = async (companyId: number, email: string, role_id = 'agent') => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/invites/bulk/',
      headers: t.headers(adminAccess, companyId),
      payload: { invites: [{ email, role_id }] },
    });
    expect(res.statusCode).toBe(201);
    const link = new URL(await t.outbox.link(email));
    return { invite: res.json().results[0] as Invite, token: link.searchParams.get('invite')!, email: link.searchParams.get('email')! };
  };
  const companiesOf = (user: { companies: CompanyMembership[] }) => user.companies.map((c) => [c.name, c.role.id]);
  const signInAdmin = async () => {
    adminAccess = (await t.login('owner@acme.test')).access;
  };

  beforeAll(async () => {
    t = await createTestApp({ database });
    const owner = await t.seed.user({ email: 'owner@acme.test', firstName: 'Olivia', lastName: 'Owner' });
    acme = await t.seed.company('Acme');
    globex = await t.seed.company('Globex');
    await t.seed.member(acme, owner, 'admin');
    await t.seed.member(globex, owner, 'admin');
    await signInAdmin();
  });
  afterAll(() => t.close());

  it('registration with the link token joins every company that invited the e-mail, with the invited roles', async () => {
    const { token, email } = await invite(acme, 'newbie@example.com', 'manager');
    await invite(globex, 'newbie@example.com');
    const res = await register(form(email, { invite: token }));
    expect(res.statusCode).toBe(201);

    const { user, access } = await t.login('newbie@example.com', PASSWORD);
    expect(companiesOf(user)).toEqual([
      ['Acme', 'manager'],
      ['Globex', 'agent'],
    ]);
    const me = await t.app.inject({ method: 'GET', url: '/account/user/', headers: t.headers(access) });
    expect(companiesOf(me.json())).toEqual([
      ['Acme', 'manager'],
      ['Globex', 'agent'],
    ]);
    const all = await t.app.inject({ method: 'GET', url: '/api/invites/?status=all&search=newbie', headers: t.headers(adminAccess, acme) });
    expect(all.json().results.map((i: Invite) => i.status)).toEqual(['accepted']);
    const members = await t.app.inject({ method: 'GET', url: '/api/members/?search=newbie', headers: t.headers(adminAccess, acme) });
    expect(members.json().results).toMatchObject([{ email: 'newbie@example.com', role_id: 'manager' }]);
  });

  it('is refused without a verified e-mail or a token, and with a token for another e-mail', async () => {
    const { token } = await invite(acme, 'claimed@example.com');
    expect((await register(form('claimed@example.com'))).json()).toEqual({ email: ['Verify this e-mail address before creating an account.'] });
    // The token proves only the address it was sent to.
    await invite(acme, 'other@example.com');
    expect((await register(form('other@example.com', { invite: token }))).json()).toEqual({ invite: ['This invitation link is invalid or has expired.'] });
    expect((await register(form('claimed@example.com', { invite: 'made-up-token' }))).json()).toEqual({ invite: ['This invitation link is invalid or has expired.'] });
  });

  it('with a verified onboarding e-mail and no token, still accepts the pending invites', async () => {
    await invite(globex, 'verified@example.com', 'manager');
    await t.seed.verifiedEmail('verified@example.com');
    expect((await register(form('verified@example.com'))).statusCode).toBe(201);
    expect(companiesOf((await t.login('verified@example.com', PASSWORD)).user)).toEqual([['Globex', 'manager']]);
  });

  it('never accepts an expired or revoked invite', async () => {
    const expired = await invite(acme, 'slow@example.com');
    const revoked = await invite(globex, 'slow@example.com');
    await t.app.inject({ method: 'DELETE', url: `/api/invites/${revoked.invite.id}/`, headers: t.headers(adminAccess, globex) });
    t.clock.advance(8 * DAY);
    await signInAdmin();
    expect((await register(form('slow@example.com', { invite: expired.token }))).json()).toEqual({ invite: ['This invitation link is invalid or has expired.'] });
    expect((await register(form('slow@example.com', { invite: revoked.token }))).statusCode).toBe(400);
    // Verified by onboarding, the account is created but joins nothing.
    await t.seed.verifiedEmail('slow@example.com');
    expect((await register(form('slow@example.com', { invite: expired.token }))).statusCode).toBe(201);
    expect((await t.login('slow@example.com', PASSWORD)).user.companies).toEqual([]);
  });

  it('login accepts the pending invites of an existing user before answering', async () => {
    await t.seed.user({ email: 'existing@example.com' });
    expect((await t.login('existing@example.com')).user.companies).toEqual([]);
    await invite(acme, 'existing@example.com', 'manager');
    const revoked = await invite(globex, 'existing@example.com');
    await t.app.inject({ method: 'DELETE', url: `/api/invites/${revoked.invite.id}/`, headers: t.headers(adminAccess, globex) });

    const { user } = await t.login('existing@example.com');
    expect(companiesOf(user)).toEqual([['Acme', 'manager']]);
    const check = await t.app.inject({ method: 'GET', url: '/api/invites/check_email/?email=existing@example.com' });
    expect(check.json()).toEqual({ email: 'existing@example.com', has_account: true, invited: false, companies: [] });
  });

  it('a signed-in user joins a company that invites them on the next account reload', async () => {
    await t.seed.user({ email: 'signed-in@example.com' });
    const { access } = await t.login('signed-in@example.com');
    await invite(globex, 'signed-in@example.com');
    const me = await t.app.inject({ method: 'GET', url: '/account/user/', headers: t.headers(access) });
    expect(companiesOf(me.json())).toEqual([['Globex', 'agent']]);
  });

  it('login does not accept an expired invite', async () => {
    await t.seed.user({ email: 'late-login@example.com' });
    await invite(acme, 'late-login@example.com');
    t.clock.advance(8 * DAY);
    await signInAdmin();
    expect((await t.login('late-login@example.com')).user.companies).toEqual([]);
  });

  it('GET /api/invites/check_email/ reports real pending invites', async () => {
    await invite(acme, 'curious@example.com');
    await invite(globex, 'curious@example.com');
    const res = await t.app.inject({ method: 'GET', url: '/api/invites/check_email/?email=Curious@Example.com' });
    expect(res.json()).toEqual({ email: 'curious@example.com', has_account: false, invited: true, companies: ['Acme', 'Globex'] });
  });
});
