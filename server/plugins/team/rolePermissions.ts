/**
 * The Permissions page: each role's effective flags (defaults overlaid with the company's
 * override) and their update. Permissions are read per request (requireCompany), so a change
 * applies at once to every member with the role; their open sockets are closed as after a role
 * change (4403), so an open console reloads its permissions at once (issue #22: a read-only inbox
 * without a reload). The admin role is not editable, so no company can lock every admin out.
 */
import { and, eq } from 'drizzle-orm';
import type { Paged } from '../../../contract/api';
import { PERMISSION_AREAS, ROLE_IDS, ROLE_NAMES, defaultPermissions, type PermissionMap, type RoleId } from '../../../contract/permissions';
import type { RolePermissions } from '../../../contract/team';
import type { Database } from '../../core/db/client';
import { companyRolePermissions, memberships } from '../../core/db/schema';
import type { RealtimeHub } from '../../core/realtime/types';
import { ApiError, notFound, validationError } from '../../core/errors';
import { effectivePermissions } from '../../core/tenancy/memberships';
import { TEAM_MESSAGES } from './messages';

const KNOWN_KEYS = new Set(PERMISSION_AREAS.flatMap((area) => [`can_view_${area}`, `can_manage_${area}`]));

export function isRoleId(value: string): value is RoleId {
  return (ROLE_IDS as readonly string[]).includes(value);
}

export class RolePermissionService {
  constructor(
    private readonly db: Database,
    private readonly realtime: Pick<RealtimeHub, 'disconnect'> | null = null,
  ) {}

  private async overrides(companyId: number): Promise<Map<string, PermissionMap>> {
    const rows = await this.db
      .select({ role: companyRolePermissions.role, permissions: companyRolePermissions.permissions })
      .from(companyRolePermissions)
      .where(eq(companyRolePermissions.companyId, companyId));
    return new Map(rows.map((row) => [row.role, row.permissions]));
  }

  private view(role: RoleId, override: PermissionMap | undefined): RolePermissions {
    return {
      role_id: role,
      name: ROLE_NAMES[role],
      permissions: role === 'admin' ? defaultPermissions('admin') : effectivePermissions(role, override),
      editable: role !== 'admin',
    };
  }

  async list(companyId: number): Promise<Paged<RolePermissions>> {
    const overrides = await this.overrides(companyId);
    const results = ROLE_IDS.map((role) => this.view(role, overrides.get(role)));
    return { count: results.length, next: null, previous: null, results };
  }

  /** Merges the given flags into the role's override; keys not given keep their value. */
  async update(companyId: number, roleParam: string, changes: PermissionMap): Promise<RolePermissions> {
    if (!isRoleId(roleParam)) throw notFound();
    const role = roleParam;
    if (role === 'admin') throw new ApiError(400, { detail: TEAM_MESSAGES.adminLocked, code: 'admin_locked' });
    const unknown = Object.keys(changes).filter((key) => !KNOWN_KEYS.has(key));
    if (unknown.length > 0) throw validationError({ permissions: unknown.map(TEAM_MESSAGES.unknownPermission) });

    await this.db.transaction(async (tx) => {
      const [current] = await tx
        .select({ permissions: companyRolePermissions.permissions })
        .from(companyRolePermissions)
        .where(and(eq(companyRolePermissions.companyId, companyId), eq(companyRolePermissions.role, role)))
        .for('update');
      const permissions = { ...(current?.permissions ?? {}), ...changes };
      await tx
        .insert(companyRolePermissions)
        .values({ companyId, role, permissions })
        .onConflictDoUpdate({ target: [companyRolePermissions.companyId, companyRolePermissions.role], set: { permissions } });
    });
    if (this.realtime) {
      const members = await this.db
        .select({ userId: memberships.userId })
        .from(memberships)
        .where(and(eq(memberships.companyId, companyId), eq(memberships.role, role)));
      for (const { userId } of members) await this.realtime.disconnect({ userId, companyId });
    }
    return this.view(role, (await this.overrides(companyId)).get(role));
  }
}
