/**
 * Team members of a company (memberships joined with their users): list, role change, removal.
 * Every change that could leave a company without an admin runs in a transaction that first
 * locks the company's row, so two concurrent demotions or removals cannot both pass the
 * "at least one admin" check. Once a role change or a removal is committed, the member's sockets
 * for the company are closed (RealtimeHub.disconnect): they reconnect with their new rights, if any.
 */
import { and, asc, count, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Paged } from '../../../contract/api';
import { ROLE_NAMES, canManage, normalizeRole, type PermissionMap, type RoleId } from '../../../contract/permissions';
import type { MemberOrdering, TeamMember } from '../../../contract/team';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Database, Tx } from '../../core/db/client';
import { prepared, preparedMapped, shapeOf, type FieldIndex } from '../../core/db/prepared';
import { timestamptzToIso } from '../../core/db/timestamps';
import type { RealtimeHub } from '../../core/realtime/types';
import { companies, memberships, users } from '../../core/db/schema';
import { ApiError, fieldError, forbidden, notFound } from '../../core/errors';
import { TEAM_MESSAGES } from './messages';
import { containsPattern, offsetOf, paged, type PageRequest } from '../../core/paging';


/** Who acts: the calling user and their membership of the request's company. */
export interface Actor {
  userId: number;
  role: RoleId;
  permissions: PermissionMap;
}

export interface MemberListOptions extends PageRequest {
  ordering?: MemberOrdering;
  search?: string;
}

const columns = {
  id: memberships.id,
  userId: users.id,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
  role: memberships.role,
  profileAvatar: users.profileAvatar,
  profileAvatarUrl: users.profileAvatarUrl,
  createdAt: memberships.createdAt,
};

interface MemberRow {
  id: number;
  userId: number;
  firstName: string;
  lastName: string;
  email: string;
  role: string;
  profileAvatar: string | null;
  profileAvatarUrl: string | null;
  createdAt: Date;
}

/** Admins first, then managers, then agents. */
const roleRank = sql`CASE ${memberships.role} WHEN 'admin' THEN 0 WHEN 'manager' THEN 1 ELSE 2 END`;

const SORT_KEYS: Record<string, SQL | AnyPgColumn> = {
  first_name: sql`lower(${users.firstName})`,
  email: users.email,
  role_id: roleRank,
  created_at: memberships.createdAt,
};

/** A member from the list statement's row as the driver gives it (preparedMapped), as toMember makes it from drizzle's. */
function memberFromRow(at: FieldIndex): (row: unknown[]) => TeamMember {
  const [id, userId, firstName, lastName, email, role, profileAvatar, profileAvatarUrl, createdAt] = (
    ['id', 'userId', 'firstName', 'lastName', 'email', 'role', 'profileAvatar', 'profileAvatarUrl', 'createdAt'] satisfies (keyof typeof columns)[]
  ).map(at);
  return (row) => {
    const roleId = normalizeRole(row[role] as string);
    return {
      id: row[id] as number,
      user_id: row[userId] as number,
      first_name: row[firstName] as string,
      last_name: row[lastName] as string,
      email: row[email] as string,
      role_id: roleId,
      role: { id: roleId, name: ROLE_NAMES[roleId] },
      profile_avatar: row[profileAvatar] as string | null,
      profile_avatar_url: row[profileAvatarUrl] as string | null,
      created_at: timestamptzToIso(row[createdAt] as string),
      is_current_user: false,
    };
  };
}

export function lastAdminError(): ApiError {
  return new ApiError(400, { detail: TEAM_MESSAGES.lastAdmin, code: 'last_admin' });
}

export class MemberService {
  constructor(
    private readonly db: Database,
    private readonly realtime: Pick<RealtimeHub, 'disconnect'> | null = null,
  ) {}

  private toMember(row: MemberRow, callerId: number): TeamMember {
    const role = normalizeRole(row.role);
    return {
      id: row.id,
      user_id: row.userId,
      first_name: row.firstName,
      last_name: row.lastName,
      email: row.email,
      role_id: role,
      role: { id: role, name: ROLE_NAMES[role] },
      profile_avatar: row.profileAvatar,
      profile_avatar_url: row.profileAvatarUrl,
      created_at: row.createdAt.toISOString(),
      is_current_user: row.userId === callerId,
    };
  }

  async list(requestUrl: string, companyId: number, callerId: number, options: MemberListOptions): Promise<Paged<TeamMember>> {
    // Built once per shape (a search or not, the ordering: SORT_KEYS' keys, either way), bench/data.
    const search = Boolean(options.search);
    const where = () => {
      const conditions: SQL[] = [eq(memberships.companyId, sql.placeholder('companyId'))];
      const pattern = sql.placeholder('pattern');
      if (search) conditions.push(or(ilike(users.firstName, pattern), ilike(users.lastName, pattern), ilike(users.email, pattern))!);
      return and(...conditions);
    };
    const ordering = options.ordering ?? 'created_at';
    const descending = ordering.startsWith('-');
    const key = SORT_KEYS[ordering.replace(/^-/, '')];
    const shape = shapeOf({ search });
    const params = { companyId, pattern: search ? containsPattern(options.search!) : null };

    const countStatement = prepared(this.db, `team_member_count${shape}`, (db, name) =>
      db.select({ total: count() }).from(memberships).innerJoin(users, eq(users.id, memberships.userId)).where(where()).prepare(name),
    );
    // Planned on each call: its LIMIT and OFFSET are values (see prepared.ts). Its rows become members in one pass.
    const listStatement = preparedMapped(
      this.db,
      `team_member_list${shape}:${ordering}`,
      (db, name) =>
        db
          .select(columns)
          .from(memberships)
          .innerJoin(users, eq(users.id, memberships.userId))
          .where(where())
          .orderBy(...(descending ? [desc(key), desc(memberships.id)] : [asc(key), asc(memberships.id)]))
          .limit(sql.placeholder('limit'))
          .offset(sql.placeholder('offset'))
          .prepare(name),
      memberFromRow,
      { planEachCall: true },
    );
    const [[{ total }], members] = await Promise.all([countStatement.execute(params), listStatement.execute({ ...params, limit: options.pageSize, offset: offsetOf(options) })]);
    for (const member of members) member.is_current_user = member.user_id === callerId;
    return paged(requestUrl, options, total, members);
  }

  async get(companyId: number, membershipId: number, callerId: number, db: Database | Tx = this.db): Promise<TeamMember | null> {
    const [row] = await db
      .select(columns)
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(and(eq(memberships.companyId, companyId), eq(memberships.id, membershipId)));
    return row ? this.toMember(row, callerId) : null;
  }

  /** Serialises membership changes of one company (see the file comment). */
  private async lockCompany(tx: Tx, companyId: number): Promise<void> {
    await tx.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId)).for('update');
  }

  private async adminCount(tx: Tx, companyId: number): Promise<number> {
    const [{ admins }] = await tx
      .select({ admins: count() })
      .from(memberships)
      .where(and(eq(memberships.companyId, companyId), eq(memberships.role, 'admin')));
    return admins;
  }

  /** PATCH /api/members/{id}/ (the route already checked can_manage_members). */
  async changeRole(actor: Actor, companyId: number, membershipId: number, roleId: RoleId): Promise<TeamMember> {
    let changedUserId: number | null = null;
    await this.db.transaction(async (tx) => {
      await this.lockCompany(tx, companyId);
      const target = await this.get(companyId, membershipId, actor.userId, tx);
      if (!target) throw notFound();
      if (target.role_id === roleId) return;
      const touchesAdmin = target.role_id === 'admin' || roleId === 'admin';
      if (touchesAdmin && actor.role !== 'admin') throw forbidden(TEAM_MESSAGES.adminRoleOnlyByAdmin, 'admin_role_forbidden');
      if (target.role_id === 'admin' && (await this.adminCount(tx, companyId)) <= 1) throw fieldError('role_id', TEAM_MESSAGES.lastAdmin);
      await tx.update(memberships).set({ role: roleId }).where(and(eq(memberships.id, membershipId), eq(memberships.companyId, companyId)));
      changedUserId = target.user_id;
    });
    if (changedUserId !== null) await this.realtime?.disconnect({ userId: changedUserId, companyId });
    return (await this.get(companyId, membershipId, actor.userId))!;
  }

  /**
   * DELETE /api/members/{id}/: with can_manage_members, or one's own membership (leaving).
   * Only the membership ends; the user, their sessions and other memberships stay.
   */
  async remove(actor: Actor, companyId: number, membershipId: number): Promise<void> {
    const manager = canManage(actor.permissions, 'members');
    let removedUserId: number | null = null;
    await this.db.transaction(async (tx) => {
      await this.lockCompany(tx, companyId);
      const target = await this.get(companyId, membershipId, actor.userId, tx);
      const self = target?.user_id === actor.userId;
      if (!self && !manager) throw forbidden();
      if (!target) throw notFound();
      if (target.role_id === 'admin') {
        if (!self && actor.role !== 'admin') throw forbidden(TEAM_MESSAGES.adminRoleOnlyByAdmin, 'admin_role_forbidden');
        if ((await this.adminCount(tx, companyId)) <= 1) throw lastAdminError();
      }
      await tx.delete(memberships).where(and(eq(memberships.id, membershipId), eq(memberships.companyId, companyId)));
      removedUserId = target.user_id;
    });
    if (removedUserId !== null) await this.realtime?.disconnect({ userId: removedUserId, companyId });
  }

  /** E-mails (lower-case) among `emails` that already belong to members of the company. */
  async memberEmails(companyId: number, emails: string[]): Promise<Set<string>> {
    if (emails.length === 0) return new Set();
    const rows = await this.db
      .select({ email: users.email })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(and(eq(memberships.companyId, companyId), inArray(users.email, emails)));
    return new Set(rows.map((r) => r.email));
  }
}
