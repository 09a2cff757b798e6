import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/testApp';

const register = (t: TestApp, body: Record<string, unknown>) => t.app.inject({ method: 'POST', url: '/account/registration/', payload: body });

function form(email: string, overrides: Record<string, unknown> = {}) {
  return { first_name: 'Grace', last_name: 'Hopper', email, password1: 'Sturdy-Passphrase-42', password2: 'Sturdy-Passphrase-42', ...overrides };
}

describe('registration', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
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

  it('answers for a registered e-mail exactly as for a new one', async () => {
    await t.seed.user({ email: 'taken@example.com' });
    const shape = (res: { statusCode: number; json(): unknown; headers: Record<string, unknown> }) => ({
      status: res.statusCode,
      body: res.json(),
      type: res.headers['content-type'],
    });
    // Without a proof of the address: the same refusal, whether or not an account exists.
    expect(shape(await register(t, form('taken@example.com')))).toEqual(shape(await register(t, form('free@example.com'))));
    expect(shape(await register(t, form('taken@example.com', { password2: 'Other-Passphrase-1' })))).toEqual(
      shape(await register(t, form('free@example.com', { password2: 'Other-Passphrase-1' }))),
    );

    // With the invitation link of each address: "created" for both.
    const company = await t.seed.company('Known Or Not');
    const takenToken = await t.seed.invite(company, 'taken@example.com');
    const freeToken = await t.seed.invite(company, 'free@example.com');
    const known = await register(t, form('taken@example.com', { invite: takenToken, first_name: 'Mallory' }));
    const fresh = await register(t, form('free@example.com', { invite: freeToken }));
    expect(shape(known)).toEqual(shape(fresh));
    expect(known.json()).toEqual({ detail: 'Account created.' });

    // The owner hears about it by e-mail, with links to sign in and to reset the password; the account is unchanged.
    await vi.waitFor(async () => expect((await t.outbox.last('taken@example.com')).subject).toBe('You already have an account'));
    const mail = await t.outbox.last('taken@example.com');
    expect(mail.text).toContain('Someone tried to sign up for the console with your e-mail address');
    expect(mail.text).toContain('http://console.test/auth/login?email=taken%40example.com');
    expect(mail.text).toContain('http://console.test/auth/reset-password');
    await expect(t.login('taken@example.com', 'Sturdy-Passphrase-42')).rejects.toThrow();
    expect((await t.login('taken@example.com')).user).toMatchObject({ first_name: 'Test', companies: [] });
    // The new address got no such e-mail.
    expect((await t.outbox.all('free@example.com')).map((m) => m.subject)).not.toContain('You already have an account');
  });

  it('uses up the verification: a second registration is refused like any unverified address', async () => {
    await t.seed.verifiedEmail('once@example.com');
    expect((await register(t, form('once@example.com'))).statusCode).toBe(201);
    const again = await register(t, form('once@example.com'));
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ email: ['Verify this e-mail address before creating an account.'] });
    const status = await t.app.inject({ method: 'GET', url: '/api/onboarding-request/status/?email=once@example.com' });
    expect(status.json()).toEqual({ verified: false });
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
    // The token of the invitation link does, and accepts that invite (the other one waits for an answer).
    expect((await register(t, form('invitee@example.com', { invite: token }))).statusCode).toBe(201);
    const { user } = await t.login('invitee@example.com', 'Sturdy-Passphrase-42');
    expect(user.companies.map((c) => [c.name, c.role, c.subscription_plan_name])).toEqual([['Acme', { id: 'manager', name: 'Manager' }, 'Growth']]);

    // The invite is used up.
    const check = await t.app.inject({ method: 'GET', url: `/api/invites/check_email/?email=invitee@example.com&token=${token}` });
    expect(check.json()).toEqual({ email: 'invitee@example.com', invited: false, companies: [] });
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
