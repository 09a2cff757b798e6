/**
 * JWTs for the API. HS256 only: verification passes an algorithm allow-list, so tokens with
 * `alg: none` or any other algorithm are refused, as are tokens for another issuer/audience,
 * expired ones, tokens issued in the future (beyond MAX_CLOCK_SKEW_SECONDS) and tokens of the wrong
 * type (a refresh token is no access token).
 */
import { randomUUID } from 'node:crypto';
import { SignJWT, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import type { Clock } from '../clock';

export const TOKEN_ISSUER = 'business-console';
export const TOKEN_AUDIENCE = 'business-console-api';
const ALGORITHM = 'HS256';
/** How far in the future a token's issued-at may lie (clocks of several servers drift a little). */
export const MAX_CLOCK_SKEW_SECONDS = 60;

export type TokenType = 'access' | 'refresh';

/**
 * Signature checks remembered per token string (each API call and socket presents the same access token
 * again and again; the HMAC through WebCrypto is the costliest step of authenticating a request). Only a
 * token that passed jose is kept, and a remembered one passes again only through the same time checks
 * (`exp`, `nbf`, then our `iat`/type/subject checks below), so the answer is the one jose would give.
 * A token is a different key byte for byte: a changed signature or claim is verified afresh.
 */
export const VERIFIED_TOKEN_CACHE_MAX = 5_000;

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
  /** token → its verified payload, oldest first (see VERIFIED_TOKEN_CACHE_MAX). */
  private readonly verified = new Map<string, JWTPayload>();

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

  /**
   * The claims of a token jose verified before, its time checks passed again, without an await (most requests and
   * connects present a token seen before; each async step of the check was an allocation of its own, bench/realtime);
   * undefined for a token to verify through `verify`. Throws InvalidTokenError as `verify` would.
   */
  verifyKnown(token: string, expectedType: TokenType): VerifiedToken | undefined {
    const known = this.verified.get(token);
    if (!known) return undefined;
    // jose's time checks, as it makes them (clock tolerance 0): nbf in the future, exp reached.
    const now = this.nowSeconds();
    if (typeof known.nbf === 'number' && known.nbf > now) throw new InvalidTokenError('"nbf" claim timestamp check failed');
    if ((known.exp as number) <= now) {
      this.verified.delete(token);
      throw new InvalidTokenError('"exp" claim timestamp check failed');
    }
    return this.claims(known, expectedType, now);
  }

  async verify(token: string, expectedType: TokenType): Promise<VerifiedToken> {
    return this.verifyKnown(token, expectedType) ?? this.claims(await this.josePayload(token), expectedType, this.nowSeconds());
  }

  /** jose's verification; the payload is remembered for `verifyKnown`. */
  private async josePayload(token: string): Promise<JWTPayload> {
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
    this.verified.set(token, Object.freeze(payload));
    if (this.verified.size > VERIFIED_TOKEN_CACHE_MAX) this.verified.delete(this.verified.keys().next().value!);
    return payload;
  }

  /** Our checks of a payload whose signature and time passed. */
  private claims(payload: JWTPayload, expectedType: TokenType, now: number): VerifiedToken {
    // jose checks iat's presence only: a token issued in the future was not issued by this clock.
    if (typeof payload.iat !== 'number' || payload.iat > now + MAX_CLOCK_SKEW_SECONDS) throw new InvalidTokenError('issued in the future');
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
