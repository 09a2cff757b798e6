/**
 * Tenancy hooks (routes run them `onRequest`, after requireUser). Every company-scoped request names its company in the `Company`
 * header; a company that does not exist and one the user does not belong to get the same
 * 403, so ids of other tenants cannot be probed.
 */
import type { FastifyRequest } from 'fastify';
import { canManage, canView, type PermissionArea } from '../../../contract/permissions';
import { ApiError, forbidden } from '../errors';
import { currentUser } from '../auth/requireUser';
import { findMembership } from './memberships';

export const COMPANY_REQUIRED = { detail: 'The Company header is required.', code: 'company_required' } as const;
export const COMPANY_FORBIDDEN = { detail: 'You do not have access to this company.', code: 'company_forbidden' } as const;

export function companyForbidden(): ApiError {
  return forbidden(COMPANY_FORBIDDEN.detail, COMPANY_FORBIDDEN.code);
}

/** The Company header as a company id: undefined when absent, null when not a valid id. */
export function companyHeader(request: FastifyRequest): number | null | undefined {
  const raw = request.headers['company'];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined || value.trim() === '') return undefined;
  return /^\d{1,9}$/.test(value.trim()) ? Number(value.trim()) : null;
}

/** Runs after requireUser. */
export async function requireCompany(request: FastifyRequest): Promise<void> {
  const user = currentUser(request);
  const companyId = companyHeader(request);
  if (companyId === undefined) throw new ApiError(400, { ...COMPANY_REQUIRED });
  if (companyId === null) throw companyForbidden();
  const membership = await findMembership(request.server.services.get('Database'), user.id, companyId);
  if (!membership) throw companyForbidden();
  request.company = membership.company;
  request.membership = { role: membership.role, permissions: membership.permissions };
}

/** Runs after requireCompany: the membership's view or manage access to an area (throws 403). */
export function requirePermission(area: PermissionArea, access: 'view' | 'manage') {
  return function checkPermission(request: FastifyRequest): void {
    const permissions = request.membership?.permissions;
    const allowed = access === 'view' ? canView(permissions, area) : canManage(permissions, area);
    if (!permissions || !allowed) throw forbidden();
  };
}
