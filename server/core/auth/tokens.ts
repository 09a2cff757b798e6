/**
 * JWTs for the API. HS256 only: verification passes an algorithm allow-list, so tokens with
 * `alg: none` or any other algorithm are refused, as are tokens for another issuer/audience,
 * expired ones, tokens issued in the future (beyond MAX_CLOCK_SKEW_SECONDS) and tokens of the wrong
 * type (a refresh token is no access token).
 */
import { randomUUID } from 'node:crypto';
import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';
import type { Clock } from '../clock';

export const TOKEN_ISSUER = 'business-console';
export const TOKEN_AUDIENCE = 'business-console-api';
const ALGORITHM = 'HS256';
/** How far in the future a token's issued-at may lie (clocks of several servers drift a little). */
export const MAX_CLOCK_SKEW_SECONDS = 60;

export type TokenType = 'access' | 'refresh';

export interface VerifiedToken {
  userId: number;
  sessionId: string;
  typ: TokenType;
  /** Only on refresh tokens. */
  jti?: string;
  expiresAt: Date;
}

export class InvalidTokenError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'InvalidTokenError';
  }
}

export interface TokenServiceOptions {
  secret: string;
  accessTokenTtl: number;
  refreshTokenTtl: number;
}

export class TokenService {
  private readonly key: Uint8Array;

  constructor(
    private readonly options: TokenServiceOptions,
    private readonly clock: Clock,
  ) {
    this.key = new TextEncoder().encode(options.secret);
  }

  private nowSeconds(): number {
    return Math.floor(this.clock.now().getTime() / 1000);
  }

  private sign(claims: Record<string, unknown>, subject: string, ttl: number): Promise<string> {
    const iat = this.nowSeconds();
    return new SignJWT(claims)
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setSubject(subject)
      .setIssuer(TOKEN_ISSUER)
      .setAudience(TOKEN_AUDIENCE)
      .setIssuedAt(iat)
      .setExpirationTime(iat + ttl)
      .sign(this.key);
  }

  signAccess(userId: number, sessionId: string): Promise<string> {
    return this.sign({ typ: 'access', sid: sessionId }, String(userId), this.options.accessTokenTtl);
  }

  /** A refresh token carries its own jti (the key of its refresh_tokens row) and an expiry the console can read. */
  async signRefresh(userId: number, sessionId: string): Promise<{ token: string; jti: string; expiresAt: Date }> {
    const jti = randomUUID();
    const token = await this.sign({ typ: 'refresh', sid: sessionId, jti }, String(userId), this.options.refreshTokenTtl);
    return { token, jti, expiresAt: new Date((this.nowSeconds() + this.options.refreshTokenTtl) * 1000) };
  }

  async verify(token: string, expectedType: TokenType): Promise<VerifiedToken> {
    let payload;
    try {
      ({ payload } = await jwtVerify(token, this.key, {
        algorithms: [ALGORITHM],
        issuer: TOKEN_ISSUER,
        audience: TOKEN_AUDIENCE,
        currentDate: this.clock.now(),
        requiredClaims: ['exp', 'iat', 'sub'],
      }));
    } catch (err) {
      if (err instanceof joseErrors.JOSEError || err instanceof TypeError) throw new InvalidTokenError(err.message);
      throw err;
    }
    // jose checks iat's presence only: a token issued in the future was not issued by this clock.
    if (typeof payload.iat !== 'number' || payload.iat > this.nowSeconds() + MAX_CLOCK_SKEW_SECONDS) throw new InvalidTokenError('issued in the future');
    const userId = Number(payload.sub);
    const sessionId = payload.sid;
    if (payload.typ !== expectedType) throw new InvalidTokenError(`expected a ${expectedType} token`);
    if (!Number.isSafeInteger(userId) || userId <= 0) throw new InvalidTokenError('bad subject');
    if (typeof sessionId !== 'string' || sessionId === '') throw new InvalidTokenError('missing session');
    if (expectedType === 'refresh' && typeof payload.jti !== 'string') throw new InvalidTokenError('missing jti');
    return {
      userId,
      sessionId,
      typ: expectedType,
      jti: typeof payload.jti === 'string' ? payload.jti : undefined,
      expiresAt: new Date((payload.exp as number) * 1000),
    };
  }
}
