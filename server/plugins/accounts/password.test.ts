import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_PASSWORD, type TestApp } from '../../testing/testApp';

const RESET_ANSWER = { detail: 'If an account exists for this e-mail, a reset link has been sent.' };
const LINK_INVALID = { token: ['This reset link is invalid or has expired.'] };

describe('password change and reset', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  let n = 0;
  async function newUser() {
    const email = `pw${++n}@example.com`;
    await t.seed.user({ email });
    return email;
  }
  const me = (access: string) => t.app.inject({ method: 'GET', url: '/account/user/', headers: { authorization: `Bearer ${access}` } });
  const change = (access: string, body: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/account/password/change/', headers: { authorization: `Bearer ${access}` }, payload: body });
  const requestReset = (email: string, ip = '10.9.0.1') =>
    t.app.inject({ method: 'POST', url: '/account/reset-password/', payload: { email }, remoteAddress: ip });
  const confirm = (token: string, password: string) =>
    t.app.inject({ method: 'POST', url: '/account/reset-password/confirm/', payload: { token, password } });
  const tokenFrom = (link: string) => decodeURIComponent(link.split('/auth/reset-password/')[1]);

  it('change: saves the new password and ends the other sessions but not the current one', async () => {
    const email = await newUser();
    const current = await t.login(email);
    const other = await t.login(email);

    const res = await change(current.access, { old_password: TEST_PASSWORD, new_password1: 'Fresh-Secret-2027', new_password2: 'Fresh-Secret-2027' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ detail: 'New password has been saved.' });

    expect((await me(current.access)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/account/token/refresh/', payload: { refresh: current.refresh } })).statusCode).toBe(200);
    expect((await me(other.access)).statusCode).toBe(401);

    await expect(t.login(email)).rejects.toThrow();
    await expect(t.login(email, 'Fresh-Secret-2027')).resolves.toBeTruthy();
  });

  it('change: wrong old password, mismatch, short and common passwords', async () => {
    const { access } = await t.login(await newUser());
    expect((await change(access, { old_password: 'nope', new_password1: 'Fresh-Secret-2027', new_password2: 'Fresh-Secret-2027' })).json()).toEqual({
      old_password: ['Your old password was entered incorrectly. Please enter it again.'],
    });
    expect((await change(access, { old_password: TEST_PASSWORD, new_password1: 'Fresh-Secret-2027', new_password2: 'Other-Secret-2027' })).json()).toEqual({
      new_password2: ["The two password fields didn't match."],
    });
    expect((await change(access, { old_password: TEST_PASSWORD, new_password1: 'short', new_password2: 'short' })).json()).toEqual({
      new_password2: ['This password is too short. It must contain at least 8 characters.'],
    });
    expect((await change(access, { old_password: TEST_PASSWORD, new_password1: 'iloveyou', new_password2: 'iloveyou' })).json()).toEqual({
      new_password2: ['This password is too common.'],
    });
    expect((await change(access, {})).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'POST', url: '/account/password/change/', payload: {} })).statusCode).toBe(401);
  });

  it('reset: e-mails a single-use link that sets the password and ends every session', async () => {
    const email = await newUser();
    const session = await t.login(email);

    const res = await requestReset(email.toUpperCase());
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(RESET_ANSWER);

    const link = await t.outbox.link(email);
    expect(link).toMatch(/^http:\/\/console\.test\/auth\/reset-password\/[\w-]{40,}$/);
    const token = tokenFrom(link);

    const ok = await confirm(token, 'Brand-New-Secret-88');
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ detail: 'Password has been reset.' });
    expect((await me(session.access)).statusCode).toBe(401);
    await expect(t.login(email, 'Brand-New-Secret-88')).resolves.toBeTruthy();

    const again = await confirm(token, 'Another-Secret-99');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual(LINK_INVALID);
  });

  it('reset: same answer and no e-mail for an unknown address', async () => {
    const res = await requestReset('nobody-here@example.com');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(RESET_ANSWER);
    expect(await t.outbox.all('nobody-here@example.com')).toEqual([]);
  });

  it('reset: invalid e-mail format', async () => {
    const res = await requestReset('not-an-email');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ email: ['Enter a valid email address.'] });
  });

  it('reset: expired links, unknown tokens and weak passwords are refused without using the link', async () => {
    const email = await newUser();
    await requestReset(email, '10.9.1.1');
    const token = tokenFrom(await t.outbox.link(email));

    expect((await confirm('unknown-token', 'Brand-New-Secret-88')).json()).toEqual(LINK_INVALID);
    expect((await confirm(token, 'password1')).json()).toEqual({ password: ['This password is too common.'] });
    expect((await confirm(token, 'short')).json()).toEqual({ password: ['This password is too short. It must contain at least 8 characters.'] });

    t.clock.advance(3600 * 1000 + 1);
    expect((await confirm(token, 'Brand-New-Secret-88')).json()).toEqual(LINK_INVALID);
  });

  it('reset: a newer link does not revive older ones after a reset', async () => {
    const email = await newUser();
    await requestReset(email, '10.9.2.1');
    const older = tokenFrom(await t.outbox.link(email));
    await requestReset(email, '10.9.2.1');
    const newer = tokenFrom(await t.outbox.link(email));
    expect((await confirm(newer, 'Brand-New-Secret-88')).statusCode).toBe(200);
    expect((await confirm(older, 'Brand-New-Secret-89')).json()).toEqual(LINK_INVALID);
  });

  it('reset: 3 requests per e-mail and 10 per IP an hour, whether or not the account exists', async () => {
    for (const email of [await newUser(), 'ghost-reset@example.com']) {
      for (let i = 0; i < 3; i++) expect((await requestReset(email, `10.9.3.${i}`)).statusCode).toBe(200);
      const blocked = await requestReset(email, '10.9.3.9');
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json()).toEqual({ detail: 'Too many attempts. Please try again later.', code: 'throttled' });
    }
    for (let i = 0; i < 10; i++) expect((await requestReset(`ip${i}@example.com`, '10.9.4.1')).statusCode).toBe(200);
    expect((await requestReset('ip-last@example.com', '10.9.4.1')).statusCode).toBe(429);
  });
});
