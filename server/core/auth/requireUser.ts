/**
 * Authentication hook (routes use it as `onRequest`, before the body is even parsed): a valid `Authorization: Bearer <access token>` whose session is
 * still open. Revoking a session (logout, password change/reset, refresh reuse) therefore
 * ends its access tokens at once, not only at their expiry.
 *
 * The session and the user are read in one round trip (and, for company routes, the membership too:
 * access/companyRequest.ts), through a prepared statement built once per database: the checks are the
 * ones of SessionService.isActive and of the user lookup, nothing is remembered between requests.
 */
import type { FastifyRequest } from 'fastify';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { unauthorized } from '../errors';
import { companies, companyRolePermissions, memberships, sessions, users } from '../db/schema';
import type { Database } from '../db/client';
import { prepared } from '../db/prepared';
import type { AuthUser } from '../fastifyTypes';
import { InvalidTokenError, type VerifiedToken } from './tokens';

export const TOKEN_NOT_VALID = { detail: 'Given token not valid for any token type', code: 'token_not_valid' } as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : null;
}

function tokenNotValid() {
  return unauthorized(TOKEN_NOT_VALID.detail, TOKEN_NOT_VALID.code);
}

/** An access token's claims, or null when it is not a valid access token of a possible session. */
async function verifiedAccess(request: FastifyRequest, token: string): Promise<VerifiedToken | null> {
  try {
    const tokens = request.server.services.get('TokenService');
    const claims = tokens.verifyKnown(token, 'access') ?? (await tokens.verify(token, 'access'));
    // SessionService.isActive's own check: a session id that is no UUID names no session.
    return UUID.test(claims.sessionId) ? claims : null;
  } catch (err) {
    if (err instanceof InvalidTokenError) return null;
    throw err;
  }
}

/** The access token's claims (401 without a bearer token, 401 token_not_valid for a bad one). */
export async function accessClaims(request: FastifyRequest): Promise<VerifiedToken> {
  const token = bearerToken(request);
  if (!token) throw unauthorized();
  const claims = await verifiedAccess(request, token);
  if (!claims) throw tokenNotValid();
  return claims;
}

const userColumns = { id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName, profileAvatarUrl: users.profileAvatarUrl };
/** Of an open session (not revoked) of this user. */
const openSession = and(eq(sessions.id, sql.placeholder('sessionId')), eq(sessions.userId, sql.placeholder('userId')), isNull(sessions.revokedAt));

function buildStatements(db: Database) {
  return {
    /** The user of an open session. */
    user: db.select(userColumns).from(sessions).innerJoin(users, eq(users.id, sessions.userId)).where(openSession).prepare('auth_session_user'),
    /** The same and the user's membership of one company, with its role's permission override (the columns of tenancy/memberships.ts). */
    member: db
      .select({
        ...userColumns,
        companyId: companies.id,
        companyName: companies.name,
        companyLogo: companies.logo,
        companyTranslatorDomain: companies.translatorDomain,
        companyPlanName: companies.planName,
        companyAgentFeature: companies.agentFeature,
        companyCreatedAt: companies.createdAt,
        role: memberships.role,
        override: companyRolePermissions.permissions,
      })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .leftJoin(memberships, and(eq(memberships.userId, sessions.userId), eq(memberships.companyId, sql.placeholder('companyId'))))
      .leftJoin(companies, eq(companies.id, memberships.companyId))
      .leftJoin(companyRolePermissions, and(eq(companyRolePermissions.companyId, memberships.companyId), eq(companyRolePermissions.role, memberships.role)))
      .where(openSession)
      .prepare('auth_session_member'),
  };
}

/** The prepared authentication statements of this database (built on first use, db/prepared.ts). */
export function authStatements(db: Database): ReturnType<typeof buildStatements> {
  return prepared(db, 'auth_statements', buildStatements);
}

export async function requireUser(request: FastifyRequest): Promise<void> {
  const claims = await accessClaims(request);
  const [row] = await authStatements(request.server.services.get('Database')).user.execute({ sessionId: claims.sessionId, userId: claims.userId });
  if (!row) throw tokenNotValid();
  request.user = { ...row, sessionId: claims.sessionId } satisfies AuthUser;
}

/**
 * The member of `companyId` an access token names, or null (no token, not valid, session revoked, not a member).
 * For routes authorised otherwise (the bot-service key) that may also say which person acted.
 */
export async function memberOfToken(request: FastifyRequest, token: string, companyId: number): Promise<{ id: number; name: string; email: string } | null> {
  const claims = await verifiedAccess(request, token);
  if (!claims) return null;
  const [row] = await authStatements(request.server.services.get('Database')).member.execute({ sessionId: claims.sessionId, userId: claims.userId, companyId });
  if (!row?.role) return null;
  return { id: row.id, name: `${row.firstName ?? ''} ${row.lastName ?? ''}`.trim() || row.email, email: row.email };
}

/** For handlers behind requireUser: the user, typed as present. */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw unauthorized();
  return request.user;
}
