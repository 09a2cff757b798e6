import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, describeEachDatabase, type TestApp } from '../../testing/testApp';

const register = (t: TestApp, body: Record<string, unknown>) => t.app.inject({ method: 'POST', url: '/account/registration/', payload: body });

function form(email: string, overrides: Record<string, unknown> = {}) {
  return { first_name: 'Grace', last_name: 'Hopper', email, password1: 'Sturdy-Passphrase-42', password2: 'Sturdy-Passphrase-42', ...overrides };
}

describeEachDatabase('registration', (database) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ database });
  });
  afterAll(() => t.close());

  it('is refused for an e-mail that is neither verified nor invited', async () => {
    const res = await register(t, form('stranger@example.com'));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ email: ['Verify this e-mail address before creating an account.'] });
  });

  it('is refused while the onboarding request is not verified yet', async () => {
    await t.app.inject({ method: 'POST', url: '/api/onboarding-request/submit/', payload: { email: 'pending@example.com' } });
    expect((await register(t, form('pending@example.com'))).statusCode).toBe(400);
  });

  it('creates the account after the e-mail was verified, and the user can log in (no companies yet)', async () => {
    await t.seed.verifiedEmail('grace@example.com');
    const res = await register(t, form('Grace@Example.com'));
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ detail: 'Account created.' });

    const login = await t.login('grace@example.com', 'Sturdy-Passphrase-42');
    expect(login.user).toEqual({
      id: expect.any(Number),
      first_name: 'Grace',
      last_name: 'Hopper',
      email: 'grace@example.com',
      profile_avatar_url: null,
      companies: [],
    });
  });

  it('refuses an existing e-mail', async () => {
    await t.seed.user({ email: 'taken@example.com' });
    const res = await register(t, form('taken@example.com'));
    expect(res.json()).toEqual({ email: ['A user with this e-mail address already exists.'] });
  });

  it('reports mismatching, common and short passwords on the right fields', async () => {
    await t.seed.verifiedEmail('rules@example.com');
    expect((await register(t, form('rules@example.com', { password2: 'Something-Else-1' }))).json()).toEqual({
      password2: ["The two password fields didn't match."],
    });
    expect((await register(t, form('rules@example.com', { password1: 'Password123', password2: 'Password123' }))).json()).toEqual({
      password1: ['This password is too common.'],
    });
    expect((await register(t, form('rules@example.com', { password1: 'short', password2: 'short' }))).json()).toEqual({
      password1: ['This password is too short. It must contain at least 8 characters.'],
    });
    expect((await register(t, { email: 'rules@example.com' })).json()).toEqual({
      first_name: ['This field is required.'],
      password1: ['This field is required.'],
      password2: ['This field is required.'],
    });
  });

  it('accepts an invited e-mail with the invite token and makes the user a member with the invited role', async () => {
    const acme = await t.seed.company('Acme', { planName: 'Growth' });
    const globex = await t.seed.company('Globex');
    const token = await t.seed.invite(acme, 'invitee@example.com', { role: 'manager' });
    await t.seed.invite(globex, 'invitee@example.com');

    // A pending invite alone does not prove the address.
    expect((await register(t, form('invitee@example.com'))).json()).toEqual({ email: ['Verify this e-mail address before creating an account.'] });
    // The token of the invitation link does; every pending invite of the e-mail is accepted.
    expect((await register(t, form('invitee@example.com', { invite: token }))).statusCode).toBe(201);
    const { user } = await t.login('invitee@example.com', 'Sturdy-Passphrase-42');
    expect(user.companies.map((c) => [c.name, c.role, c.subscription_plan_name])).toEqual([
      ['Acme', { id: 'manager', name: 'Manager' }, 'Growth'],
      ['Globex', { id: 'agent', name: 'Agent' }, null],
    ]);

    // The invites are used up.
    const check = await t.app.inject({ method: 'GET', url: '/api/invites/check_email/?email=invitee@example.com' });
    expect(check.json()).toMatchObject({ has_account: true, invited: false, companies: [] });
  });

  it('does not accept an expired or revoked invite', async () => {
    const acme = await t.seed.company('Initech');
    const late = await t.seed.invite(acme, 'late@example.com', { expiresAt: new Date(t.clock.now().getTime() - 1) });
    const revoked = await t.seed.invite(acme, 'revoked@example.com', { revokedAt: t.clock.now() });
    const invalid = { invite: ['This invitation link is invalid or has expired.'] };
    expect((await register(t, form('late@example.com', { invite: late }))).json()).toEqual(invalid);
    expect((await register(t, form('revoked@example.com', { invite: revoked }))).json()).toEqual(invalid);
  });
});
