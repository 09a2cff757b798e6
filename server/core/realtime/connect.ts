/**
 * What a socket connection must pass before it exists: an allowed Origin, the 2.0.0 serializer,
 * and the `token` (our access JWT, session still open) plus `company_id` of a company the user
 * belongs to. The result is the SocketIdentity every channel handler sees.
 * With the hub's ConnectIdentityCache, an open session and a membership looked up in the last
 * seconds are reused (only the token's signature and expiry are checked again), see identityCache.ts.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Services } from '../services';
import { users } from '../db/schema';
import { InvalidTokenError } from '../auth/tokens';
import { authStatements } from '../auth/requireUser';
import { effectivePermissions, findMembership } from '../tenancy/memberships';
import { normalizeRole, type PermissionMap } from '../../../contract/permissions';
import type { ConnectIdentityCache, MemberIdentity } from './identityCache';
import { SERIALIZER_VSN } from './serializer';
import type { SocketIdentity } from './types';

export interface ConnectRefusal {
  status: 400 | 403 | 429 | 503;
  /** With 429 (limits.ts): seconds before trying again. */
  retryAfterSeconds?: number;
  detail: string;
  code: string;
}

export interface Connected {
  identity: SocketIdentity;
  /** The login session of the access token (to drop sockets of a revoked session later). */
  sessionId: string;
  /** The identity cache's revision when the lookup began (see ConnectIdentityCache.isStale). */
  since: number;
}

function originOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}`.toLowerCase();
  } catch {
    return null;
  }
}

/**
 * A browser's Origin must be the server's own host (any scheme: TLS may end at a proxy),
 * PUBLIC_URL or one of SOCKET_ALLOWED_ORIGINS. No Origin at all (non-browser clients) passes.
 */
export function isOriginAllowed(origin: string | undefined, host: string | undefined, publicUrl: string, allowed: string[]): boolean {
  if (origin === undefined) return true;
  const normalized = originOf(origin);
  if (!normalized) return false;
  if (host && new URL(normalized).host === host.toLowerCase()) return true;
  if (normalized === originOf(publicUrl)) return true;
  return allowed.some((entry) => originOf(entry) === normalized);
}

/** Checks `vsn`: only the 2.0.0 JSON serializer is spoken. */
export function checkVsn(vsn: unknown): ConnectRefusal | null {
  if (vsn === SERIALIZER_VSN) return null;
  const given = typeof vsn === 'string' ? `"${vsn}"` : 'none';
  return {
    status: 400,
    detail: `Unsupported serializer version ${given}: this server speaks vsn=${SERIALIZER_VSN} only.`,
    code: 'unsupported_vsn',
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const refused = (detail: string, code = 'socket_refused'): ConnectRefusal => ({ status: 403, detail, code });

export async function authenticateSocket(
  services: Services,
  params: { token?: unknown; companyId?: unknown },
  cache?: ConnectIdentityCache,
): Promise<Connected | ConnectRefusal> {
  const { token, companyId } = params;
  if (typeof token !== 'string' || token === '') return refused('A token is required to connect.', 'not_authenticated');
  if (typeof companyId !== 'string' || !/^[1-9]\d{0,15}$/.test(companyId)) return refused('A company_id is required to connect.', 'company_required');

  let claims;
  try {
    const tokens = services.get('TokenService');
    claims = tokens.verifyKnown(token, 'access') ?? (await tokens.verify(token, 'access'));
  } catch (err) {
    if (err instanceof InvalidTokenError) return refused('Given token not valid for any token type', 'token_not_valid');
    throw err;
  }
  const since = cache?.begin() ?? 0;
  let member: MemberIdentity | undefined = cache?.member(claims.userId, Number(companyId));
  let sessionOpen = cache?.hasSession(claims.sessionId, claims.userId) ?? false;
  if (!sessionOpen && !member) {
    // The first connect: the open session, its user and the membership in ONE prepared statement
    // (the one of HTTP's access.company(), auth/requireUser.ts); the same answers as the three reads below.
    if (!UUID.test(claims.sessionId)) return refused('Given token not valid for any token type', 'token_not_valid');
    const [row] = await authStatements(services.get('Database')).member.execute({
      sessionId: claims.sessionId,
      userId: claims.userId,
      companyId: Number(companyId),
    });
    if (!row) return refused('Given token not valid for any token type', 'token_not_valid');
    sessionOpen = true;
    cache?.rememberSession(claims.sessionId, claims.userId, since);
    if (row.companyId === null || row.role === null) return refused('You are not a member of this company.', 'not_a_member');
    const role = normalizeRole(row.role);
    member = {
      userId: row.id,
      email: row.email,
      firstName: row.firstName,
      companyId: row.companyId,
      role,
      permissions: effectivePermissions(role, row.override as PermissionMap | null),
    };
    cache?.rememberMember(member, since);
  }
  if (!sessionOpen) {
    if (!(await services.get('SessionService').isActive(claims.sessionId, claims.userId))) {
      return refused('Given token not valid for any token type', 'token_not_valid');
    }
    cache?.rememberSession(claims.sessionId, claims.userId, since);
  }

  if (!member) {
    const db = services.get('Database');
    const [user] = await db.select({ id: users.id, email: users.email, firstName: users.firstName }).from(users).where(eq(users.id, claims.userId));
    if (!user) return refused('Given token not valid for any token type', 'token_not_valid');

    const membership = await findMembership(db, user.id, Number(companyId));
    if (!membership) return refused('You are not a member of this company.', 'not_a_member');
    member = {
      userId: user.id,
      email: user.email,
      firstName: user.firstName,
      companyId: membership.company.id,
      role: membership.role,
      permissions: membership.permissions,
    };
    cache?.rememberMember(member, since);
  }

  return {
    sessionId: claims.sessionId,
    since,
    // The permissions are frozen (effectivePermissions): shared with the cache, not copied per socket.
    identity: { socketId: randomUUID(), ...member },
  };
}

export function isRefusal(result: Connected | ConnectRefusal): result is ConnectRefusal {
  return 'status' in result;
}
