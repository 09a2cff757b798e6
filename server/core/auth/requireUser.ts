/**
 * Authentication hook (routes use it as `onRequest`, before the body is even parsed): a valid `Authorization: Bearer <access token>` whose session is
 * still open. Revoking a session (logout, password change/reset, refresh reuse) therefore
 * ends its access tokens at once, not only at their expiry.
 */
import type { FastifyRequest } from 'fastify';
import { eq } from 'drizzle-orm';
import { unauthorized } from '../errors';
import { users } from '../db/schema';
import type { AuthUser } from '../fastifyTypes';
import { InvalidTokenError } from './tokens';

export const TOKEN_NOT_VALID = { detail: 'Given token not valid for any token type', code: 'token_not_valid' } as const;

function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : null;
}

export async function requireUser(request: FastifyRequest): Promise<void> {
  const token = bearerToken(request);
  if (!token) throw unauthorized();
  const invalid = unauthorized(TOKEN_NOT_VALID.detail, TOKEN_NOT_VALID.code);

  const services = request.server.services;
  let claims;
  try {
    claims = await services.get('TokenService').verify(token, 'access');
  } catch (err) {
    if (err instanceof InvalidTokenError) throw invalid;
    throw err;
  }
  if (!(await services.get('SessionService').isActive(claims.sessionId, claims.userId))) throw invalid;

  const [row] = await services
    .get('Database')
    .select({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName, profileAvatarUrl: users.profileAvatarUrl })
    .from(users)
    .where(eq(users.id, claims.userId));
  if (!row) throw invalid;
  request.user = { ...row, sessionId: claims.sessionId } satisfies AuthUser;
}

/** For handlers behind requireUser: the user, typed as present. */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw unauthorized();
  return request.user;
}
