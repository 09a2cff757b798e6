import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompanyMembership } from '../../../contract/api';
import type { Invite } from '../../../contract/team';
import { createTestApp, type TestApp } from '../../testing/testApp';

const DAY = 24 * 3600 * 1000;
const PASSWORD = 'Sturdy-Passphrase-42';

function form(email: string, extra: Record<string, unknown> = {}) {
  return { first_name: 'Invited', last_name: 'Person', email, password1: PASSWORD, password2: PASSWORD, ...extra };
}

/** Registration through the invitation link, and what the link's page may learn (check_email). */
describe('invite acceptance at registration, and check_email', () => {
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
  const check = async (query: string) => (await t.app.inject({ method: 'GET', url: `/api/invites/check_email/?${query}` })).json();
  const companiesOf = (user: { companies: CompanyMembership[] }) => user.companies.map((c) => [c.name, c.role.id]);
  const invitationsOf = async (access: string) =>
    (await t.app.inject({ method: 'GET', url: '/api/invitations/', headers: t.headers(access) })).json().results.map((i: { company: { name: string } }) => i.company.name);
  const signInAdmin = async () => {
    adminAccess = (await t.login('owner@acme.test')).access;
  };

  beforeAll(async () => {
    t = await createTestApp();
    const owner = await t.seed.user({ email: 'owner@acme.test', firstName: 'Olivia', lastName: 'Owner' });
    acme = await t.seed.company('Acme');
    globex = await t.seed.company('Globex');
    await t.seed.member(acme, owner, 'admin');
    await t.seed.member(globex, owner, 'admin');
    await signInAdmin();
  });
  afterAll(() => t.close());

  it("registration with the link's token joins that company only; the other invite waits for an answer", async () => {
    const { token, email } = await invite(acme, 'newbie@example.com', 'manager');
    await invite(globex, 'newbie@example.com');
    const res = await register(form(email, { invite: token }));
    expect(res.statusCode).toBe(201);

    const { user, access } = await t.login('newbie@example.com', PASSWORD);
    expect(companiesOf(user)).toEqual([['Acme', 'manager']]);
    expect(await invitationsOf(access)).toEqual(['Globex']);
    const all = await t.app.inject({ method: 'GET', url: '/api/invites/?status=all&search=newbie', headers: t.headers(adminAccess, acme) });
    expect(all.json().results.map((i: Invite) => i.status)).toEqual(['accepted']);
    const members = await t.app.inject({ method: 'GET', url: '/api/members/?search=newbie', headers: t.headers(adminAccess, acme) });
    expect(members.json().results).toMatchObject([{ email: 'newbie@example.com', role_id: 'manager' }]);
    // Globex still sees an invited e-mail, not a member.
    const globexMembers = await t.app.inject({ method: 'GET', url: '/api/members/?search=newbie', headers: t.headers(adminAccess, globex) });
    expect(globexMembers.json().results).toEqual([]);
  });

  it('is refused without a verified e-mail or a token, and with a token for another e-mail', async () => {
    const { token } = await invite(acme, 'claimed@example.com');
    expect((await register(form('claimed@example.com'))).json()).toEqual({ email: ['Verify this e-mail address before creating an account.'] });
    // The token proves only the address it was sent to.
    await invite(acme, 'other@example.com');
    expect((await register(form('other@example.com', { invite: token }))).json()).toEqual({ invite: ['This invitation link is invalid or has expired.'] });
    expect((await register(form('claimed@example.com', { invite: 'made-up-token' }))).json()).toEqual({ invite: ['This invitation link is invalid or has expired.'] });
  });

  it('with a verified onboarding e-mail and no token, joins nothing: the invites are waiting after sign-in', async () => {
    await invite(globex, 'verified@example.com', 'manager');
    await t.seed.verifiedEmail('verified@example.com');
    expect((await register(form('verified@example.com'))).statusCode).toBe(201);
    const { user, access } = await t.login('verified@example.com', PASSWORD);
    expect(user.companies).toEqual([]);
    expect(await invitationsOf(access)).toEqual(['Globex']);
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
    const { user, access } = await t.login('slow@example.com', PASSWORD);
    expect(user.companies).toEqual([]);
    expect(await invitationsOf(access)).toEqual([]);
  });

  it('login and account reload accept nothing: an invite is not a membership', async () => {
    await t.seed.user({ email: 'existing@example.com' });
    await invite(acme, 'existing@example.com', 'manager');
    const { user, access } = await t.login('existing@example.com');
    expect(user.companies).toEqual([]);
    const me = await t.app.inject({ method: 'GET', url: '/account/user/', headers: t.headers(access) });
    expect(me.json().companies).toEqual([]);
    const members = await t.app.inject({ method: 'GET', url: '/api/members/?search=existing', headers: t.headers(adminAccess, acme) });
    expect(members.json().results).toEqual([]);
    // The company sees the invited e-mail and its own inviter; nothing of the account (its name).
    const pending = await t.app.inject({ method: 'GET', url: '/api/invites/?search=existing', headers: t.headers(adminAccess, acme) });
    expect(pending.json().results).toEqual([expect.objectContaining({ email: 'existing@example.com', status: 'pending', invited_by: 'Olivia Owner' })]);
    expect(JSON.stringify(pending.json())).not.toContain('Test User');
  });

  it('check_email answers the same for any address without the invitation token', async () => {
    await t.seed.user({ email: 'member@example.com' });
    await invite(acme, 'member@example.com');
    await invite(acme, 'curious@example.com');
    await invite(globex, 'curious@example.com');
    const nothing = (email: string) => ({ email, invited: false, companies: [] });
    // An account with an invite, an invited address without account, and a stranger look alike.
    expect(await check('email=member@example.com')).toEqual(nothing('member@example.com'));
    expect(await check('email=Curious@Example.com')).toEqual(nothing('curious@example.com'));
    expect(await check('email=nobody@example.com')).toEqual(nothing('nobody@example.com'));
    expect(await check('email=owner@acme.test')).toEqual(nothing('owner@acme.test'));
    expect(await check('email=curious@example.com&token=made-up')).toEqual(nothing('curious@example.com'));
  });

  it("check_email with the link's token names the inviting company, for that address only", async () => {
    const { token } = await invite(globex, 'holder@example.com', 'manager');
    expect(await check(`email=holder@example.com&token=${token}`)).toEqual({
      email: 'holder@example.com',
      invited: true,
      companies: ['Globex'],
      has_account: false,
    });
    // The same token for another address proves nothing.
    expect(await check(`email=someone-else@example.com&token=${token}`)).toEqual({ email: 'someone-else@example.com', invited: false, companies: [] });

    // The holder of an existing account's link is told to sign in instead of signing up.
    await t.seed.user({ email: 'has-one@example.com' });
    const existing = await invite(acme, 'has-one@example.com');
    expect(await check(`email=has-one@example.com&token=${existing.token}`)).toMatchObject({ invited: true, companies: ['Acme'], has_account: true });

    const bad = await t.app.inject({ method: 'GET', url: '/api/invites/check_email/?email=nope' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ email: ['Enter a valid email address.'] });
  });
});
