import { describe, expect, it } from 'vitest';
import { SignJWT, UnsecuredJWT, decodeJwt } from 'jose';
import { ManualClock } from '../clock';
import { InvalidTokenError, MAX_CLOCK_SKEW_SECONDS, TOKEN_AUDIENCE, TOKEN_ISSUER, TokenService } from './tokens';

const SECRET = 'unit-test-secret-that-is-long-enough-0123456789';
const SESSION = '0b6f3c8e-6a0e-4c52-9d8f-4d1c2b3a4e5f';

function service(clock = new ManualClock()) {
  return new TokenService({ secret: SECRET, accessTokenTtl: 900, refreshTokenTtl: 3600 }, clock);
}

function forge(claims: Record<string, unknown>, options: { secret?: string; iss?: string; aud?: string; exp?: number; alg?: string } = {}) {
  const now = Math.floor(Date.now() / 1000);
  const { sub = '1', ...rest } = claims;
  return new SignJWT({ typ: 'access', sid: SESSION, ...rest })
    .setProtectedHeader({ alg: options.alg ?? 'HS256' })
    .setSubject(String(sub))
    .setIssuer(options.iss ?? TOKEN_ISSUER)
    .setAudience(options.aud ?? TOKEN_AUDIENCE)
    .setIssuedAt(now)
    .setExpirationTime(options.exp ?? now + 600)
    .sign(new TextEncoder().encode(options.secret ?? SECRET));
}

describe('TokenService', () => {
  it('signs access tokens with sub, sid, typ, iss, aud, iat and exp', async () => {
    const tokens = service();
    const access = await tokens.signAccess(7, SESSION);
    const claims = decodeJwt(access);
    expect(claims).toMatchObject({ sub: '7', sid: SESSION, typ: 'access', iss: TOKEN_ISSUER, aud: TOKEN_AUDIENCE });
    expect(claims.exp! - claims.iat!).toBe(900);
    await expect(tokens.verify(access, 'access')).resolves.toMatchObject({ userId: 7, sessionId: SESSION, typ: 'access' });
  });

  it('signs refresh tokens with a jti and a readable expiry', async () => {
    const tokens = service();
    const { token, jti, expiresAt } = await tokens.signRefresh(7, SESSION);
    const claims = decodeJwt(token);
    expect(claims).toMatchObject({ typ: 'refresh', sid: SESSION, jti });
    expect(claims.exp).toBe(Math.floor(expiresAt.getTime() / 1000));
    await expect(tokens.verify(token, 'refresh')).resolves.toMatchObject({ jti });
  });

  it('does not accept a refresh token as an access token, nor the reverse', async () => {
    const tokens = service();
    await expect(tokens.verify((await tokens.signRefresh(1, SESSION)).token, 'access')).rejects.toBeInstanceOf(InvalidTokenError);
    await expect(tokens.verify(await tokens.signAccess(1, SESSION), 'refresh')).rejects.toBeInstanceOf(InvalidTokenError);
  });

  it('refuses expired tokens', async () => {
    const clock = new ManualClock();
    const tokens = service(clock);
    const access = await tokens.signAccess(1, SESSION);
    clock.advance(901 * 1000);
    await expect(tokens.verify(access, 'access')).rejects.toBeInstanceOf(InvalidTokenError);
  });

  it('refuses alg "none", other algorithms, other secrets, issuers and audiences', async () => {
    const tokens = service();
    const unsecured = new UnsecuredJWT({ typ: 'access', sid: SESSION })
      .setSubject('1')
      .setIssuer(TOKEN_ISSUER)
      .setAudience(TOKEN_AUDIENCE)
      .setIssuedAt()
      .setExpirationTime('10m')
      .encode();
    const candidates = [
      unsecured,
      await forge({}, { alg: 'HS512', secret: SECRET + SECRET }),
      await forge({}, { secret: 'another-secret-that-is-also-long-enough-987654' }),
      await forge({}, { iss: 'someone-else' }),
      await forge({}, { aud: 'another-api' }),
      await forge({ sub: 'not-a-number' }),
      await forge({ sid: undefined }),
      'not.a.jwt',
      '',
    ];
    for (const token of candidates) {
      await expect(tokens.verify(token, 'access')).rejects.toBeInstanceOf(InvalidTokenError);
    }
  });

  it('refuses a token issued in the future beyond the clock skew, accepts one within it', async () => {
    const clock = new ManualClock();
    const tokens = service(clock);
    const issuer = service(new ManualClock(new Date(clock.now().getTime() + (MAX_CLOCK_SKEW_SECONDS + 5) * 1000)));
    const fromTheFuture = await issuer.signAccess(1, SESSION);
    await expect(tokens.verify(fromTheFuture, 'access')).rejects.toThrow('issued in the future');
    await expect(tokens.verify((await issuer.signRefresh(1, SESSION)).token, 'refresh')).rejects.toBeInstanceOf(InvalidTokenError);
    // Once our clock catches up, the same token is fine.
    clock.advance(10 * 1000);
    await expect(tokens.verify(fromTheFuture, 'access')).resolves.toMatchObject({ userId: 1 });

    const slightlyAhead = await service(new ManualClock(new Date(clock.now().getTime() + 30 * 1000))).signAccess(2, SESSION);
    await expect(tokens.verify(slightlyAhead, 'access')).resolves.toMatchObject({ userId: 2 });
  });

  it('accepts a well-formed token signed with the secret (the forger above is otherwise right)', async () => {
    await expect(service().verify(await forge({}), 'access')).resolves.toMatchObject({ userId: 1 });
  });

  it('a token verified before is still refused once expired, as another type, or with a byte changed (the verified-token cache)', async () => {
    const clock = new ManualClock();
    const tokens = service(clock);
    const access = await tokens.signAccess(7, SESSION);
    await expect(tokens.verify(access, 'access')).resolves.toMatchObject({ userId: 7 });
    await expect(tokens.verify(access, 'access')).resolves.toMatchObject({ userId: 7 });
    await expect(tokens.verify(access, 'refresh')).rejects.toBeInstanceOf(InvalidTokenError);
    const [head, body, signature] = access.split('.');
    const flipped = `${head}.${body}.${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
    await expect(tokens.verify(flipped, 'access')).rejects.toBeInstanceOf(InvalidTokenError);
    clock.advance(899_000);
    await expect(tokens.verify(access, 'access')).resolves.toMatchObject({ userId: 7 });
    clock.advance(1_000);
    await expect(tokens.verify(access, 'access')).rejects.toBeInstanceOf(InvalidTokenError);
    await expect(tokens.verify(access, 'access')).rejects.toBeInstanceOf(InvalidTokenError);
  });

  it('verifyKnown answers without jose only for a token verified before, with the same claims and refusals as verify', async () => {
    const clock = new ManualClock();
    const tokens = service(clock);
    const access = await tokens.signAccess(7, SESSION);
    expect(tokens.verifyKnown(access, 'access')).toBeUndefined();
    const verified = await tokens.verify(access, 'access');
    expect(tokens.verifyKnown(access, 'access')).toEqual(verified);
    expect(() => tokens.verifyKnown(access, 'refresh')).toThrow(InvalidTokenError);
    const [head, body, signature] = access.split('.');
    expect(tokens.verifyKnown(`${head}.${body}.${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`, 'access')).toBeUndefined();
    clock.advance(900_000);
    expect(() => tokens.verifyKnown(access, 'access')).toThrow(InvalidTokenError);
    // Forgotten once expired: jose decides again (and refuses).
    expect(tokens.verifyKnown(access, 'access')).toBeUndefined();
    await expect(tokens.verify(access, 'access')).rejects.toBeInstanceOf(InvalidTokenError);
  });
});
