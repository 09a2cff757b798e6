import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import type { FacebookProfile, GoogleIdentity, GoogleProfile, MetaGraph, TokenInfo } from '../../providers/meta/types';
import { SocialTokenError } from '../../providers/meta/types';
import { userIdentities, users } from '../../core/db/schema';
import { createTestApp, describeEachDatabase, TEST_PASSWORD, type TestApp } from '../../testing/testApp';

const INVALID_TOKEN = { non_field_errors: ['Invalid or expired access token.'] };
const BAD_CREDENTIALS = { non_field_errors: ['Unable to log in with provided credentials.'] };
const THROTTLED = { detail: 'Too many attempts. Please try again later.', code: 'throttled' };

/** In-memory Facebook: token → the debug_token answer and the /me profile. */
class FakeGraph {
  readonly tokens = new Map<string, { info: Partial<TokenInfo>; profile: FacebookProfile }>();
  /** Our app's id (config.meta.appId): tokens are issued for it unless a test says otherwise. */
  appId = '';

  user(token: string, profile: Partial<FacebookProfile> & { id: string }, info: Partial<TokenInfo> = {}) {
    this.tokens.set(token, {
      info: { isValid: true, appId: this.appId, userId: profile.id, scopes: ['email', 'public_profile'], ...info },
      profile: { email: null, first_name: 'Face', last_name: 'Book', ...profile },
    });
  }

  readonly graph = {
    debugToken: async (token: string): Promise<TokenInfo> => {
      const entry = this.tokens.get(token);
      return { isValid: false, appId: '', userId: '', scopes: [], ...entry?.info };
    },
    profile: async (token: string): Promise<FacebookProfile> => {
      const entry = this.tokens.get(token);
      if (!entry) throw new SocialTokenError();
      return entry.profile;
    },
  } as unknown as MetaGraph;
}

/** In-memory Google: token → profile (unknown tokens are refused like tokeninfo does). */
class FakeGoogle {
  readonly tokens = new Map<string, GoogleProfile>();
  user(token: string, profile: Partial<GoogleProfile> & { sub: string; email: string }) {
    this.tokens.set(token, { emailVerified: true, firstName: 'Goo', lastName: 'Gle', ...profile });
  }
  readonly identity: GoogleIdentity = {
    verifyAccessToken: async (token) => {
      const profile = this.tokens.get(token);
      if (!profile) throw new SocialTokenError();
      return profile;
    },
  };
}

describeEachDatabase('social sign-in', (database) => {
  let t: TestApp;
  let facebook: FakeGraph;
  let google: FakeGoogle;
  let ipCounter = 0;
  // Each test signs in from its own address so the per-IP budget of one does not leak into another.
  let ip = '10.50.0.1';

  const social = (provider: 'facebook' | 'google', accessToken: string, from = ip) =>
    t.app.inject({ method: 'POST', url: `/account/${provider}/`, payload: { access_token: accessToken }, remoteAddress: from });
  const userCount = async () => (await t.db.select({ id: users.id }).from(users)).length;
  const identitiesOf = (userId: number) =>
    t.db.select({ provider: userIdentities.provider, subject: userIdentities.subject }).from(userIdentities).where(eq(userIdentities.userId, userId));

  beforeAll(async () => {
    google = new FakeGoogle();
    facebook = new FakeGraph();
    t = await createTestApp({ database, overrides: { MetaGraph: facebook.graph, GoogleIdentity: google.identity } });
    facebook.appId = t.config.meta.appId;
  });
  afterAll(() => t.close());

  const nextIp = () => {
    ip = `10.50.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;
  };

  it('creates a user on the first Facebook sign-in and signs the same identity in again', async () => {
    nextIp();
    facebook.user('fb-new', { id: 'fb-1001', email: 'New.Person@Example.com', first_name: 'Nina', last_name: 'Newton' });
    const before = await userCount();

    const first = await social('facebook', 'fb-new');
    expect(first.statusCode).toBe(200);
    const body = first.json();
    expect(body.user).toMatchObject({ first_name: 'Nina', last_name: 'Newton', email: 'new.person@example.com', companies: [] });
    expect(decodeJwt(body.access)).toMatchObject({ sub: String(body.user.id), typ: 'access' });
    expect(decodeJwt(body.refresh)).toMatchObject({ sub: String(body.user.id), typ: 'refresh' });
    expect(await userCount()).toBe(before + 1);
    expect(await identitiesOf(body.user.id)).toEqual([{ provider: 'facebook', subject: 'fb-1001' }]);

    // Same identity, even after the e-mail changed at Facebook: the same user.
    facebook.user('fb-again', { id: 'fb-1001', email: 'changed@example.com' });
    const again = await social('facebook', 'fb-again');
    expect(again.statusCode).toBe(200);
    expect(again.json().user).toMatchObject({ id: body.user.id, email: 'new.person@example.com' });
    expect(await userCount()).toBe(before + 1);

    // The tokens work like a password login's.
    const me = await t.app.inject({ method: 'GET', url: '/account/user/', headers: t.headers(again.json().access) });
    expect(me.json()).toMatchObject({ id: body.user.id });
  });

  it('creates a user on the first Google sign-in and signs them in again', async () => {
    nextIp();
    google.user('g-new', { sub: 'g-2001', email: 'gina@example.com', firstName: 'Gina', lastName: 'Gauss' });
    const first = await social('google', 'g-new');
    expect(first.statusCode).toBe(200);
    expect(first.json().user).toMatchObject({ first_name: 'Gina', last_name: 'Gauss', email: 'gina@example.com' });
    const again = await social('google', 'g-new');
    expect(again.json().user.id).toBe(first.json().user.id);
    expect(await identitiesOf(first.json().user.id)).toEqual([{ provider: 'google', subject: 'g-2001' }]);
  });

  it('links an existing password user by e-mail (Facebook and Google) and keeps the password working', async () => {
    nextIp();
    const userId = await t.seed.user({ email: 'existing@example.com', firstName: 'Ellen', lastName: 'Exist' });
    const company = await t.seed.company('Linked Co');
    await t.seed.member(company, userId, 'admin');
    const before = await userCount();

    facebook.user('fb-existing', { id: 'fb-3001', email: 'EXISTING@example.com', first_name: 'Other', last_name: 'Name' });
    const res = await social('facebook', 'fb-existing');
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ id: userId, first_name: 'Ellen', last_name: 'Exist', companies: [{ name: 'Linked Co' }] });

    google.user('g-existing', { sub: 'g-3001', email: 'existing@example.com' });
    expect((await social('google', 'g-existing')).json().user.id).toBe(userId);

    expect(await userCount()).toBe(before);
    expect(await identitiesOf(userId)).toEqual(
      expect.arrayContaining([
        { provider: 'facebook', subject: 'fb-3001' },
        { provider: 'google', subject: 'g-3001' },
      ]),
    );
    await expect(t.login('existing@example.com', TEST_PASSWORD)).resolves.toMatchObject({ user: { id: userId } });
  });

  it('refuses an invalid token, an expired one and another app’s token with 401, creating nothing', async () => {
    nextIp();
    facebook.user('fb-expired', { id: 'fb-4001', email: 'expired@example.com' }, { isValid: false });
    facebook.user('fb-other-app', { id: 'fb-4002', email: 'other-app@example.com' }, { appId: 'someone-elses-app' });
    facebook.user('fb-wrong-user', { id: 'fb-4003', email: 'mismatch@example.com' }, { userId: 'fb-9999' });
    const before = await userCount();

    for (const token of ['fb-unknown', 'fb-expired', 'fb-other-app', 'fb-wrong-user']) {
      const res = await social('facebook', token);
      expect(res.statusCode, token).toBe(401);
      expect(res.json()).toEqual(INVALID_TOKEN);
    }
    const res = await social('google', 'g-unknown');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(INVALID_TOKEN);

    expect(await userCount()).toBe(before);
    const rows = await t.db.select().from(userIdentities).where(eq(userIdentities.subject, 'fb-4002'));
    expect(rows).toEqual([]);
  });

  it('answers 503 when the provider is down, without counting it against the address', async () => {
    nextIp();
    const { GraphApiError } = await import('../../providers/meta/types');
    const graph = facebook.graph as { debugToken: MetaGraph['debugToken'] };
    const debugToken = graph.debugToken;
    const verify = google.identity.verifyAccessToken;
    graph.debugToken = async () => {
      throw new GraphApiError('Meta is unreachable; try again later.', 0, null, null, true);
    };
    google.identity.verifyAccessToken = async () => {
      throw Object.assign(new Error('Google sign-in is unavailable right now (unreachable); try again later.'), { name: 'GoogleUnavailableError' });
    };
    try {
      const before = await userCount();
      for (let i = 0; i < 31; i++) {
        const res = await social(i % 2 ? 'google' : 'facebook', 'any-token');
        expect(res.statusCode).toBe(503);
        expect(res.json().code).toBe('provider_unavailable');
      }
      expect((await social('facebook', 'any-token')).json()).toEqual({
        detail: 'Facebook sign-in is unavailable right now. Please try again later.',
        code: 'provider_unavailable',
      });
      expect(await userCount()).toBe(before);
    } finally {
      graph.debugToken = debugToken;
      google.identity.verifyAccessToken = verify;
    }
  });

  it('validates the body', async () => {
    nextIp();
    const res = await t.app.inject({ method: 'POST', url: '/account/google/', payload: {} });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ access_token: ['This field is required.'] });
  });

  it('refuses a Google account whose e-mail is not verified', async () => {
    nextIp();
    google.user('g-unverified', { sub: 'g-5001', email: 'unverified@example.com', emailVerified: false });
    const before = await userCount();
    const res = await social('google', 'g-unverified');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ email: ['Your Google account’s e-mail address is not verified. Sign up with your e-mail instead.'] });
    expect(await userCount()).toBe(before);
  });

  it('answers 400 when Facebook gives no e-mail', async () => {
    nextIp();
    facebook.user('fb-no-email', { id: 'fb-6001', email: null });
    const before = await userCount();
    const res = await social('facebook', 'fb-no-email');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ email: ['Your Facebook account has no e-mail address. Sign up with your e-mail instead.'] });
    expect(await userCount()).toBe(before);
  });

  it('does not accept company invites at social sign-in: they wait for the user to answer them', async () => {
    nextIp();
    const acme = await t.seed.company('Invite Acme');
    const globex = await t.seed.company('Invite Globex');
    await t.seed.invite(acme, 'invited@example.com', { role: 'manager' });
    await t.seed.invite(globex, 'invited@example.com');

    google.user('g-invited', { sub: 'g-7001', email: 'Invited@Example.com' });
    const res = await social('google', 'g-invited');
    expect(res.statusCode).toBe(200);
    expect(res.json().user.companies).toEqual([]);
    const invitations = await t.app.inject({ method: 'GET', url: '/api/invitations/', headers: t.headers(res.json().access) });
    expect(invitations.json().results.map((i: { company: { name: string }; role: { id: string } }) => [i.company.name, i.role.id])).toEqual([
      ['Invite Acme', 'manager'],
      ['Invite Globex', 'agent'],
    ]);
  });

  it('a social-only user cannot log in with a password until they set one through a password reset', async () => {
    nextIp();
    facebook.user('fb-only', { id: 'fb-8001', email: 'social-only@example.com' });
    const created = await social('facebook', 'fb-only');
    expect(created.statusCode).toBe(200);
    const [row] = await t.db.select({ hash: users.passwordHash }).from(users).where(eq(users.email, 'social-only@example.com'));
    expect(row.hash.startsWith('scrypt$')).toBe(false);

    for (const password of [row.hash, TEST_PASSWORD, '!unusable']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/account/login/',
        payload: { email: 'social-only@example.com', password },
        remoteAddress: ip,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual(BAD_CREDENTIALS);
    }

    // Password reset lets them choose one; then both ways work.
    const reset = await t.app.inject({ method: 'POST', url: '/account/reset-password/', payload: { email: 'social-only@example.com' }, remoteAddress: ip });
    expect(reset.statusCode).toBe(200);
    const link = await t.outbox.link('social-only@example.com');
    const token = decodeURIComponent(link.split('/auth/reset-password/')[1]);
    const confirm = await t.app.inject({ method: 'POST', url: '/account/reset-password/confirm/', payload: { token, password: 'Brand-New-Secret-77' } });
    expect(confirm.statusCode).toBe(200);
    await expect(t.login('social-only@example.com', 'Brand-New-Secret-77')).resolves.toMatchObject({ user: { id: created.json().user.id } });
    expect((await social('facebook', 'fb-only')).json().user.id).toBe(created.json().user.id);
  });

  it('shares the login per-IP limit: 30 refused tokens block the address’s social sign-ins, not a right password (issue #25)', async () => {
    nextIp();
    const address = ip;
    google.user('g-limited', { sub: 'g-9001', email: 'limited@example.com' });
    await t.seed.user({ email: 'limited-password@example.com' });
    for (let i = 0; i < 30; i++) expect((await social(i % 2 ? 'google' : 'facebook', `bad-${i}`, address)).statusCode).toBe(401);

    for (const res of [await social('google', 'g-limited', address), await social('facebook', 'bad-again', address)]) {
      expect(res.statusCode).toBe(429);
      expect(res.json()).toEqual(THROTTLED);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
    // A password sign-in names its account: one this address has not failed on is checked, and the right password gets in.
    const password = await t.app.inject({ method: 'POST', url: '/account/login/', payload: { email: 'limited-password@example.com', password: TEST_PASSWORD }, remoteAddress: address });
    expect(password.statusCode).toBe(200);
    // Another address is not affected, and the window ends after 15 minutes.
    expect((await social('google', 'g-limited', '10.99.0.1')).statusCode).toBe(200);
    t.clock.advance(15 * 60 * 1000);
    expect((await social('google', 'g-limited', address)).statusCode).toBe(200);
  });

  it('concurrent first sign-ins of one identity end on one user', async () => {
    nextIp();
    google.user('g-race', { sub: 'g-10001', email: 'race@example.com' });
    const before = await userCount();
    const results = await Promise.all([social('google', 'g-race'), social('google', 'g-race'), social('google', 'g-race')]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(new Set(results.map((r) => r.json().user.id)).size).toBe(1);
    expect(await userCount()).toBe(before + 1);
  });
});
