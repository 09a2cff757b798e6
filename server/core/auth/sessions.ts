/**
 * Login sessions and refresh-token rotation.
 *
 * Each login opens a session; each refresh token belongs to one session and may be used once.
 * Refreshing marks the presented token used and issues a new pair in the same session.
 * Presenting a token that was already used means it was copied (someone else holds the
 * chain), so the whole session is revoked: both the thief's and the owner's tokens die.
 * Revoking also closes the sockets opened with the session, on every server process (RealtimeHub).
 */
import { and, eq, isNull, ne } from 'drizzle-orm';
import type { TokenPair } from '../../../contract/api';
import type { Clock } from '../clock';
import type { Database } from '../db/client';
import type { RealtimeHub } from '../realtime/types';
import { refreshTokens, sessions } from '../db/schema';
import { sha256 } from './secrets';
import { InvalidTokenError, type TokenService } from './tokens';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export class SessionService {
  constructor(
    private readonly db: Database,
    private readonly tokens: TokenService,
    private readonly clock: Clock,
    /** The socket hub, resolved when needed (it is created after this service); absent in some tests. */
    private readonly realtime: () => Pick<RealtimeHub, 'disconnect'> | null = () => null,
  ) {}

  private async closeSockets(sessionIds: string[]): Promise<void> {
    if (sessionIds.length > 0) await this.realtime()?.disconnect({ sessionIds });
  }

  /** Opens a session for a successful login and returns its first token pair. */
  async start(userId: number): Promise<TokenPair & { sessionId: string }> {
    const [session] = await this.db.insert(sessions).values({ userId, createdAt: this.clock.now() }).returning({ id: sessions.id });
    return { sessionId: session.id, ...(await this.issuePair(userId, session.id)) };
  }

  private async issuePair(userId: number, sessionId: string): Promise<TokenPair> {
    const refresh = await this.tokens.signRefresh(userId, sessionId);
    await this.db.insert(refreshTokens).values({
      jti: refresh.jti,
      sessionId,
      tokenHash: sha256(refresh.token),
      expiresAt: refresh.expiresAt,
      createdAt: this.clock.now(),
    });
    return { access: await this.tokens.signAccess(userId, sessionId), refresh: refresh.token };
  }

  /** Exchanges a refresh token for a new pair; throws InvalidTokenError for anything not valid. */
  async rotate(refreshToken: string): Promise<TokenPair> {
    const claims = await this.tokens.verify(refreshToken, 'refresh');
    if (!UUID.test(claims.jti!) || !UUID.test(claims.sessionId)) throw new InvalidTokenError('malformed ids');

    const [row] = await this.db
      .select({ tokenHash: refreshTokens.tokenHash, usedAt: refreshTokens.usedAt, sessionId: refreshTokens.sessionId, revokedAt: sessions.revokedAt, userId: sessions.userId })
      .from(refreshTokens)
      .innerJoin(sessions, eq(sessions.id, refreshTokens.sessionId))
      .where(eq(refreshTokens.jti, claims.jti!));
    if (!row || row.tokenHash !== sha256(refreshToken) || row.sessionId !== claims.sessionId || row.userId !== claims.userId) {
      throw new InvalidTokenError('unknown refresh token');
    }
    if (row.revokedAt) throw new InvalidTokenError('session revoked');
    if (row.usedAt) {
      await this.revokeSession(row.sessionId);
      throw new InvalidTokenError('refresh token reused');
    }

    // Conditional update: of two concurrent refreshes with the same token only one wins;
    // the loser is treated as reuse.
    const claimed = await this.db
      .update(refreshTokens)
      .set({ usedAt: this.clock.now() })
      .where(and(eq(refreshTokens.jti, claims.jti!), isNull(refreshTokens.usedAt)))
      .returning({ jti: refreshTokens.jti });
    if (claimed.length === 0) {
      await this.revokeSession(row.sessionId);
      throw new InvalidTokenError('refresh token reused');
    }
    return this.issuePair(claims.userId, row.sessionId);
  }

  /** True when the session exists, belongs to the user and has not been revoked. */
  async isActive(sessionId: string, userId: number): Promise<boolean> {
    if (!UUID.test(sessionId)) return false;
    const [row] = await this.db
      .select({ id: sessions.id })
      .from(sessions)
      .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId), isNull(sessions.revokedAt)));
    return row !== undefined;
  }

  async revokeSession(sessionId: string): Promise<void> {
    await this.db.update(sessions).set({ revokedAt: this.clock.now() }).where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
    await this.closeSockets([sessionId]);
  }

  /** Revokes every session of the user, or every one except `keepSessionId`. */
  async revokeAllForUser(userId: number, keepSessionId?: string): Promise<void> {
    const conditions = [eq(sessions.userId, userId), isNull(sessions.revokedAt)];
    if (keepSessionId) conditions.push(ne(sessions.id, keepSessionId));
    const revoked = await this.db.update(sessions).set({ revokedAt: this.clock.now() }).where(and(...conditions)).returning({ id: sessions.id });
    await this.closeSockets(revoked.map((row) => row.id));
  }
}
