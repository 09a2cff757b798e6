import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, describeEachDatabase, type TestApp } from '../../testing/testApp';

describeEachDatabase('onboarding requests and e-mail checks', (database) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ database });
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

  it('check_email reports account and pending invites', async () => {
    const companyId = await t.seed.company('Acme');
    const otherId = await t.seed.company('Globex');
    await t.seed.invite(companyId, 'invited@example.com');
    await t.seed.invite(otherId, 'invited@example.com', { role: 'manager' });
    await t.seed.invite(otherId, 'revoked@example.com', { revokedAt: new Date() });
    await t.seed.invite(otherId, 'expired@example.com', { expiresAt: new Date(t.clock.now().getTime() - 1000) });
    await t.seed.user({ email: 'member@example.com' });

    const check = async (email: string) => (await t.app.inject({ method: 'GET', url: `/api/invites/check_email/?email=${encodeURIComponent(email)}` })).json();
    expect(await check('Invited@Example.com')).toEqual({ email: 'invited@example.com', has_account: false, invited: true, companies: ['Acme', 'Globex'] });
    expect(await check('member@example.com')).toEqual({ email: 'member@example.com', has_account: true, invited: false, companies: [] });
    expect(await check('revoked@example.com')).toMatchObject({ invited: false, companies: [] });
    expect(await check('expired@example.com')).toMatchObject({ invited: false });

    const bad = await t.app.inject({ method: 'GET', url: '/api/invites/check_email/?email=nope' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ email: ['Enter a valid email address.'] });
  });
});
