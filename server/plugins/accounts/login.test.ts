import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { createTestApp, TEST_PASSWORD, type TestApp } from '../../testing/testApp';

const BAD_CREDENTIALS = { non_field_errors: ['Unable to log in with provided credentials.'] };
const THROTTLED = { detail: 'Too many attempts. Please try again later.', code: 'throttled' };

describe('login', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const login = (email: string, password: string, ip = '10.0.0.1') =>
    t.app.inject({ method: 'POST', url: '/account/login/', payload: { email, password }, remoteAddress: ip });

  it('returns tokens and the user with memberships and effective permissions', async () => {
    const userId = await t.seed.user({ email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace' });
    const company = await t.seed.company('Acme', { planName: 'Growth' });
    await t.seed.member(company, userId, 'agent');
    await t.seed.rolePermissions(company, 'agent', { can_view_billing: true });

    const res = await login('ADA@example.com', TEST_PASSWORD);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(decodeJwt(body.access)).toMatchObject({ sub: String(userId), typ: 'access', iss: 'business-console', aud: 'business-console-api' });
    expect(decodeJwt(body.refresh)).toMatchObject({ sub: String(userId), typ: 'refresh', jti: expect.any(String) });
    expect(body.user).toMatchObject({ id: userId, first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' });
    const [membership] = body.user.companies;
    expect(membership).toMatchObject({ id: company, name: 'Acme', logo: null, translator_domain: null, subscription_plan_name: 'Growth', role: { id: 'agent', name: 'Agent' } });
    expect(membership.created_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(membership.permissions).toMatchObject({ can_view_chats: true, can_manage_chats: true, can_manage_members: false, can_view_billing: true });
  });

  it('answers the same for a wrong password and an unknown e-mail', async () => {
    await t.seed.user({ email: 'known@example.com' });
    const wrong = await login('known@example.com', 'Wrong-Password-1');
    const unknown = await login('nobody@example.com', 'Wrong-Password-1');
    expect(wrong.statusCode).toBe(400);
    expect(unknown.statusCode).toBe(400);
    expect(wrong.json()).toEqual(BAD_CREDENTIALS);
    expect(unknown.json()).toEqual(BAD_CREDENTIALS);
  });

  it('validates the form', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/account/login/', payload: { email: 'bad', password: '' } });
    expect(res.json()).toEqual({ email: ['Enter a valid email address.'], password: ['This field may not be blank.'] });
  });

  it('blocks an e-mail from one address after 5 failed attempts, existing or not, even with the right password; not the other addresses', async () => {
    await t.seed.user({ email: 'target@example.com' });
    for (const email of ['target@example.com', 'ghost@example.com']) {
      for (let i = 0; i < 5; i++) expect((await login(email, 'Wrong-Password-1', '10.1.0.1')).statusCode).toBe(400);
      const blocked = await login(email, email === 'target@example.com' ? TEST_PASSWORD : 'x', '10.1.0.1');
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json()).toEqual(THROTTLED);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    }
    // Someone else's wrong passwords do not refuse the owner (see throttling.test.ts).
    expect((await login('target@example.com', TEST_PASSWORD, '10.1.1.1')).statusCode).toBe(200);
    // The block lasts at most until its 15-minute window ends.
    t.clock.advance(15 * 60 * 1000);
    expect((await login('target@example.com', TEST_PASSWORD, '10.1.0.1')).statusCode).toBe(200);
  });

  it('a successful login clears the failures of that e-mail', async () => {
    await t.seed.user({ email: 'forgetful@example.com' });
    for (let i = 0; i < 4; i++) await login('forgetful@example.com', 'Wrong-Password-1', '10.2.0.1');
    expect((await login('forgetful@example.com', TEST_PASSWORD, '10.2.0.1')).statusCode).toBe(200);
    for (let i = 0; i < 4; i++) expect((await login('forgetful@example.com', 'Wrong-Password-1', '10.2.0.1')).statusCode).toBe(400);
  });

  it('past 30 failed attempts across e-mails, an address gets no second guess on an account it failed on; a first try on another is checked', async () => {
    for (let i = 0; i < 30; i++) expect((await login(`spray${i}@example.com`, 'Wrong-Password-1', '10.3.0.1')).statusCode).toBe(400);
    const blocked = await login('spray0@example.com', 'Wrong-Password-1', '10.3.0.1');
    expect(blocked.statusCode).toBe(429);
    expect((await login('spray-last@example.com', 'Wrong-Password-1', '10.3.0.1')).statusCode).toBe(400);
    expect((await login('spray0@example.com', 'Wrong-Password-1', '10.3.0.2')).statusCode).toBe(400);
  });

  it('upgrades a hash made with another cost on login', async () => {
    const cheap = await createTestApp({ config: { passwordHashCost: 2 ** 11 } });
    try {
      await cheap.seed.user({ email: 'old@example.com' });
      // Same database, new cost: an app configured with 2^12 reads the 2^11 hash and re-hashes it.
      const { buildApp } = await import('../../core/app');
      const { serverPlugins } = await import('../../plugins.config');
      const app = await buildApp({ plugins: serverPlugins, config: { ...cheap.config, passwordHashCost: 2 ** 12 }, db: cheap.db, overrides: { Clock: cheap.clock } });
      const res = await app.inject({ method: 'POST', url: '/account/login/', payload: { email: 'old@example.com', password: TEST_PASSWORD } });
      expect(res.statusCode).toBe(200);
      await app.close();
      const { users } = await import('../../core/db/schema');
      const [row] = await cheap.db.select({ hash: users.passwordHash }).from(users);
      expect(row.hash.startsWith('scrypt$4096$')).toBe(true);
    } finally {
      await cheap.close();
    }
  });
});
