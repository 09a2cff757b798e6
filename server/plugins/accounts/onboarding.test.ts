import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/testApp';

describe('onboarding requests and e-mail checks', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('submit e-mails a verification link; verify marks the address verified', async () => {
    const submit = await t.app.inject({ method: 'POST', url: '/api/onboarding-request/submit/', payload: { email: ' New.Biz@Example.com ' } });
    expect(submit.statusCode).toBe(200);
    expect(submit.json()).toEqual({ success: true });

    const status = () => t.app.inject({ method: 'GET', url: '/api/onboarding-request/status/?email=new.biz@example.com' });
    expect((await status()).json()).toEqual({ verified: false });

    const link = await t.outbox.link('new.biz@example.com');
    expect(link).toMatch(/^http:\/\/console\.test\/auth\/signup\/verify-account-email\?token=[\w-]{40,}$/);
    const token = new URL(link).searchParams.get('token')!;

    const verify = await t.app.inject({ method: 'GET', url: `/api/onboarding-request/verify/?token=${token}` });
    expect(verify.statusCode).toBe(200);
    expect(verify.json()).toEqual({ success: true, email: 'new.biz@example.com' });
    expect((await status()).json()).toEqual({ verified: true });

    // Opening the link again (a reload, a mail scanner) is not an error.
    expect((await t.app.inject({ method: 'GET', url: `/api/onboarding-request/verify/?token=${token}` })).statusCode).toBe(200);
  });

  it('a new submit replaces the link; the old one stops working', async () => {
    const email = 'twice@example.com';
    await t.app.inject({ method: 'POST', url: '/api/onboarding-request/submit/', payload: { email, needs_whatsapp_number: false } });
    const first = new URL(await t.outbox.link(email)).searchParams.get('token');
    await t.app.inject({ method: 'POST', url: '/api/onboarding-request/submit/', payload: { email } });
    const second = new URL(await t.outbox.link(email)).searchParams.get('token');
    expect(second).not.toBe(first);
    const old = await t.app.inject({ method: 'GET', url: `/api/onboarding-request/verify/?token=${first}` });
    expect(old.statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: `/api/onboarding-request/verify/?token=${second}` })).statusCode).toBe(200);
  });

  it('verify refuses unknown and expired tokens with the error shape the console reads', async () => {
    const unknown = await t.app.inject({ method: 'GET', url: '/api/onboarding-request/verify/?token=nope' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({ error: 'This verification link is invalid or has expired.' });

    const email = 'late@example.com';
    await t.app.inject({ method: 'POST', url: '/api/onboarding-request/submit/', payload: { email } });
    const token = new URL(await t.outbox.link(email)).searchParams.get('token');
    t.clock.advance(24 * 3600 * 1000 + 1000);
    const expired = await t.app.inject({ method: 'GET', url: `/api/onboarding-request/verify/?token=${token}` });
    expect(expired.statusCode).toBe(400);
  });

  it('validates e-mails on submit and status', async () => {
    const bad = await t.app.inject({ method: 'POST', url: '/api/onboarding-request/submit/', payload: { email: 'not-an-email' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ email: ['Enter a valid email address.'] });
    const missing = await t.app.inject({ method: 'GET', url: '/api/onboarding-request/status/' });
    expect(missing.json()).toEqual({ email: ['This field is required.'] });
  });

  it('limits submits per e-mail to 5 an hour', async () => {
    const email = 'spam@example.com';
    for (let i = 0; i < 5; i++) {
      expect((await t.app.inject({ method: 'POST', url: '/api/onboarding-request/submit/', payload: { email } })).statusCode).toBe(200);
    }
    const sixth = await t.app.inject({ method: 'POST', url: '/api/onboarding-request/submit/', payload: { email } });
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json()).toEqual({ detail: 'Too many attempts. Please try again later.', code: 'throttled' });
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('submit for an address that has an account answers the same and tells the owner instead', async () => {
    await t.seed.user({ email: 'owner@example.com' });
    const submit = (email: string) => t.app.inject({ method: 'POST', url: '/api/onboarding-request/submit/', payload: { email } });
    const status = async (email: string) =>
      (await t.app.inject({ method: 'GET', url: `/api/onboarding-request/status/?email=${email}` })).json();
    const known = await submit('owner@example.com');
    const fresh = await submit('stranger@example.com');
    expect([known.statusCode, known.json()]).toEqual([fresh.statusCode, fresh.json()]);
    expect(await status('owner@example.com')).toEqual(await status('stranger@example.com'));

    const mail = await t.outbox.last('owner@example.com');
    expect(mail.subject).toBe('You already have an account');
    expect(mail.text).toContain('http://console.test/auth/login?email=owner%40example.com');
    expect(mail.text).not.toContain('verify-account-email');
  });

  it('status never says verified for an address that has an account', async () => {
    await t.seed.verifiedEmail('left-over@example.com');
    const status = async () => (await t.app.inject({ method: 'GET', url: '/api/onboarding-request/status/?email=left-over@example.com' })).json();
    expect(await status()).toEqual({ verified: true });
    await t.seed.user({ email: 'left-over@example.com' });
    expect(await status()).toEqual({ verified: false });
  });

  it('check_email without an invitation token answers the same for every address', async () => {
    const companyId = await t.seed.company('Acme');
    await t.seed.invite(companyId, 'invited@example.com');
    await t.seed.user({ email: 'member@example.com' });
    const check = async (email: string) => (await t.app.inject({ method: 'GET', url: `/api/invites/check_email/?email=${encodeURIComponent(email)}` })).json();
    for (const email of ['invited@example.com', 'member@example.com', 'nobody@example.com']) {
      expect(await check(email)).toEqual({ email, invited: false, companies: [] });
    }
    const bad = await t.app.inject({ method: 'GET', url: '/api/invites/check_email/?email=nope' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ email: ['Enter a valid email address.'] });
  });
});
