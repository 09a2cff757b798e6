/**
 * access.company()'s hook: requireUser then requireCompany (tenancy/requireCompany.ts) in ONE database
 * round trip — the open session, its user and the user's membership of the `Company` header's company
 * (role and the company's permission override for it) are read by one prepared statement.
 * The answers are those of the two hooks run one after the other, in the same order: 401 (no token, bad
 * token, closed session, no user), then 400 (no Company header), 403 (not a company id, not a member).
 */
import type { FastifyRequest } from 'fastify';
import type { PermissionMap } from '../../../contract/permissions';
import { normalizeRole } from '../../../contract/permissions';
import { accessClaims, authStatements, TOKEN_NOT_VALID } from '../auth/requireUser';
import { ApiError, unauthorized } from '../errors';
import type { AuthUser } from '../fastifyTypes';
import { COMPANY_REQUIRED, companyForbidden, companyHeader } from '../tenancy/requireCompany';
import { effectivePermissions } from '../tenancy/memberships';

export async function requireUserInCompany(request: FastifyRequest): Promise<void> {
  const claims = await accessClaims(request);
  const companyId = companyHeader(request);
  const statements = authStatements(request.server.services.get('Database'));
  const params = { sessionId: claims.sessionId, userId: claims.userId };
  // Without a usable Company header only the user is read (the answer is then 400 or 403 anyway).
  const [row] = typeof companyId === 'number' ? await statements.member.execute({ ...params, companyId }) : await statements.user.execute(params);
  if (!row) throw unauthorized(TOKEN_NOT_VALID.detail, TOKEN_NOT_VALID.code);
  const { id, email, firstName, lastName, profileAvatarUrl } = row;
  request.user = { id, email, firstName, lastName, profileAvatarUrl, sessionId: claims.sessionId } satisfies AuthUser;

  if (companyId === undefined) throw new ApiError(400, { ...COMPANY_REQUIRED });
  if (companyId === null) throw companyForbidden();
  const member = row as typeof row & Partial<Awaited<ReturnType<typeof statements.member.execute>>[number]>;
  if (member.companyId === null || member.companyId === undefined || member.role === null || member.role === undefined) throw companyForbidden();
  const role = normalizeRole(member.role);
  request.company = {
    id: member.companyId,
    name: member.companyName!,
    logo: member.companyLogo ?? null,
    translatorDomain: member.companyTranslatorDomain ?? null,
    planName: member.companyPlanName ?? null,
    agentFeature: member.companyAgentFeature!,
    createdAt: member.companyCreatedAt!,
  };
  request.membership = { role, permissions: effectivePermissions(role, member.override as PermissionMap | null) };
}
