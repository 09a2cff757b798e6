import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT, decodeJwt } from 'jose';
import { createTestApp, type TestApp } from '../../testing/testApp';

const NOT_VALID = { detail: 'Given token not valid for any token type', code: 'token_not_valid' };
const REFRESH_INVALID = { detail: 'Token is invalid or expired', code: 'token_not_valid' };

describe('tokens, refresh rotation and logout', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  let n = 0;
  async function signedIn() {
    const email = `session${++n}@example.com`;
    await t.seed.user({ email });
    return t.login(email);
  }
  const me = (access: string) => t.app.inject({ method: 'GET', url: '/account/user/', headers: { authorization: `Bearer ${access}` } });
  const refresh = (token: string) => t.app.inject({ method: 'POST', url: '/account/token/refresh/', payload: { refresh: token } });

  it('GET /account/user/ needs a bearer token', async () => {
    const none = await t.app.inject({ method: 'GET', url: '/account/user/' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual({ detail: 'Authentication credentials were not provided.', code: 'not_authenticated' });
    expect(none.headers['www-authenticate']).toMatch(/^Bearer/);
    const garbage = await me('garbage');
    expect(garbage.statusCode).toBe(401);
    expect(garbage.json()).toEqual(NOT_VALID);
  });

  it('refuses access tokens that are expired, forged, of another audience, or refresh tokens', async () => {
    const { access, refresh: refreshToken } = await signedIn();
    expect((await me(access)).statusCode).toBe(200);
    expect((await me(refreshToken)).json()).toEqual(NOT_VALID);

    const claims = decodeJwt(access);
    const sign = (secret: string, overrides: { aud?: string; iss?: string; alg?: string } = {}) =>
      new SignJWT({ typ: 'access', sid: claims.sid })
        .setProtectedHeader({ alg: overrides.alg ?? 'HS256' })
        .setSubject(claims.sub!)
        .setIssuer(overrides.iss ?? 'business-console')
        .setAudience(overrides.aud ?? 'business-console-api')
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(new TextEncoder().encode(secret));
    const none = [btoa(JSON.stringify({ alg: 'none', typ: 'JWT' })), btoa(JSON.stringify({ ...claims })), ''].join('.').replace(/=/g, '');
    const candidates = [
      none,
      await sign('a-completely-different-secret-of-sufficient-length'),
      await sign(t.config.jwtSecret, { aud: 'someone-else' }),
      await sign(t.config.jwtSecret, { iss: 'someone-else' }),
      await sign(t.config.jwtSecret, { alg: 'HS384' }),
    ];
    for (const token of candidates) {
      const res = await me(token);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(NOT_VALID);
    }
    // The same claims signed correctly pass: the refusals above come from the checks, not the claims.
    expect((await me(await sign(t.config.jwtSecret))).statusCode).toBe(200);

    t.clock.advance((t.config.accessTokenTtl + 1) * 1000);
    expect((await me(access)).json()).toEqual(NOT_VALID);
  });

  it('refresh rotates: a new pair in the same session, the old refresh token used up', async () => {
    const first = await signedIn();
    const res = await refresh(first.refresh);
    expect(res.statusCode).toBe(200);
    const second = res.json();
    expect(Object.keys(second).sort()).toEqual(['access', 'refresh']);
    expect(second.refresh).not.toBe(first.refresh);
    expect(decodeJwt(second.access).sid).toBe(decodeJwt(first.access).sid);
    expect((await me(second.access)).statusCode).toBe(200);
    expect((await refresh(second.refresh)).statusCode).toBe(200);
  });

  it('reusing a refresh token revokes the whole session', async () => {
    const first = await signedIn();
    const second = (await refresh(first.refresh)).json();

    const reuse = await refresh(first.refresh);
    expect(reuse.statusCode).toBe(401);
    expect(reuse.json()).toEqual(REFRESH_INVALID);

    // Everything of that session is dead now, including the legitimate newer tokens.
    expect((await refresh(second.refresh)).statusCode).toBe(401);
    expect((await me(second.access)).statusCode).toBe(401);
    expect((await me(first.access)).statusCode).toBe(401);
  });

  it('refuses invalid and expired refresh tokens', async () => {
    const { access, refresh: refreshToken } = await signedIn();
    expect((await refresh('nonsense')).json()).toEqual(REFRESH_INVALID);
    expect((await refresh(access)).statusCode).toBe(401);
    const missing = await t.app.inject({ method: 'POST', url: '/account/token/refresh/', payload: {} });
    expect(missing.json()).toEqual({ refresh: ['This field is required.'] });

    t.clock.advance((t.config.refreshTokenTtl + 1) * 1000);
    expect((await refresh(refreshToken)).json()).toEqual(REFRESH_INVALID);
  });

  it("logout ends this session only: its tokens stop working, the user's other devices stay signed in", async () => {
    await t.seed.user({ email: 'multi@example.com' });
    const laptop = await t.login('multi@example.com');
    const phone = await t.login('multi@example.com');
    const res = await t.app.inject({ method: 'POST', url: '/account/logout/', headers: { authorization: `Bearer ${laptop.access}` }, payload: { refresh: laptop.refresh } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ detail: 'Successfully logged out.' });
    expect((await me(laptop.access)).statusCode).toBe(401);
    expect((await refresh(laptop.refresh)).statusCode).toBe(401);
    expect((await me(phone.access)).statusCode).toBe(200);
    expect((await refresh(phone.refresh)).statusCode).toBe(200);
    // Logging in again works.
    expect((await me((await t.login('multi@example.com')).access)).statusCode).toBe(200);
  });

  it('logout needs authentication', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/account/logout/', payload: {} });
    expect(res.statusCode).toBe(401);
  });
});
