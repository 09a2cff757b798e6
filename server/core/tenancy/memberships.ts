/**
 * A user's memberships with their effective permissions: the role's defaults
 * (contract/permissions.ts) overlaid with the company's override for that role.
 */
import { and, asc, eq } from 'drizzle-orm';
import type { CompanyMembership } from '../../../contract/api';
import { ROLE_NAMES, defaultPermissions, normalizeRole, type PermissionMap, type RoleId } from '../../../contract/permissions';
import type { Database } from '../db/client';
import { companies, companyRolePermissions, memberships } from '../db/schema';
import type { CompanyRow } from '../fastifyTypes';

export interface MembershipRecord {
  company: CompanyRow;
  role: RoleId;
  permissions: PermissionMap;
}

/** Each role's defaults, built once: every authenticated request works out its permissions from them. */
const DEFAULTS = new Map<RoleId, Readonly<PermissionMap>>();

/**
 * The role's defaults overlaid with the company's override, frozen: read by every request and socket, written by
 * none. Without an override (most memberships) it is the role's one frozen map, not a copy per request (the copy
 * of some forty flags was about 1 % of a request's CPU, bench/data).
 */
export function effectivePermissions(role: RoleId, override: PermissionMap | null | undefined): Readonly<PermissionMap> {
  let defaults = DEFAULTS.get(role);
  if (!defaults) {
    defaults = Object.freeze(defaultPermissions(role));
    DEFAULTS.set(role, defaults);
  }
  return override ? Object.freeze({ ...defaults, ...override }) : defaults;
}

const membershipColumns = {
  company: {
    id: companies.id,
    name: companies.name,
    logo: companies.logo,
    translatorDomain: companies.translatorDomain,
    planName: companies.planName,
    agentFeature: companies.agentFeature,
    createdAt: companies.createdAt,
  },
  role: memberships.role,
  override: companyRolePermissions.permissions,
};

function query(db: Database) {
  return db
    .select(membershipColumns)
    .from(memberships)
    .innerJoin(companies, eq(companies.id, memberships.companyId))
    .leftJoin(
      companyRolePermissions,
      and(eq(companyRolePermissions.companyId, memberships.companyId), eq(companyRolePermissions.role, memberships.role)),
    );
}

function toRecord(row: { company: CompanyRow; role: string; override: PermissionMap | null }): MembershipRecord {
  const role = normalizeRole(row.role);
  return { company: row.company, role, permissions: effectivePermissions(role, row.override) };
}

export async function findMembership(db: Database, userId: number, companyId: number): Promise<MembershipRecord | null> {
  const [row] = await query(db).where(and(eq(memberships.userId, userId), eq(memberships.companyId, companyId)));
  return row ? toRecord(row) : null;
}

export async function listMemberships(db: Database, userId: number): Promise<MembershipRecord[]> {
  const rows = await query(db).where(eq(memberships.userId, userId)).orderBy(asc(companies.name), asc(companies.id));
  return rows.map(toRecord);
}

/** The contract's CompanyMembership: `id` is the company's id. */
export function toCompanyMembership({ company, role, permissions }: MembershipRecord): CompanyMembership {
  return {
    id: company.id,
    name: company.name,
    logo: company.logo,
    translator_domain: company.translatorDomain,
    created_at: company.createdAt.toISOString(),
    permissions,
    subscription_plan_name: company.planName,
    agent_feature: company.agentFeature,
    role: { id: role, name: ROLE_NAMES[role] },
  };
}
