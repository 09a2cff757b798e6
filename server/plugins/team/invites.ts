/**
 * Company invites: list, bulk create (or refresh), revoke. The raw token travels only in the
 * e-mailed link; the table keeps its SHA-256. An invite is only a question: the invitee answers
 * it in the accounts plugin (registration through the link, or Join/Decline after signing in,
 * /api/invitations/). Until then the company sees the invited e-mail and nothing of any account.
 */
import { and, asc, count, desc, eq, gt, ilike, inArray, isNotNull, isNull, lte, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Paged } from '../../../contract/api';
import { ROLE_NAMES, normalizeRole, type RoleId } from '../../../contract/permissions';
import { INVITE_TTL_DAYS, type Invite, type InviteOrdering, type InviteStatus, type InviteStatusFilter } from '../../../contract/team';
import type { AppConfig } from '../../core/config';
import type { Clock } from '../../core/clock';
import type { Database } from '../../core/db/client';
import { invites, users } from '../../core/db/schema';
import type { EmailSender } from '../../providers/email/types';
import { ApiError, forbidden, notFound, validationError } from '../../core/errors';
import { randomToken, sha256 } from '../../core/auth/secrets';
import type { CompanyRow } from '../../core/fastifyTypes';
import { inviteEmail } from './emails';
import type { Actor, MemberService } from './members';
import { TEAM_MESSAGES } from './messages';
import { containsPattern, offsetOf, paged, type PageRequest } from '../../core/paging';
import type { PlanLimits } from '../../core/planLimits';

const DAY_MS = 24 * 3600 * 1000;

export interface InviteDeps {
  db: Database;
  config: AppConfig;
  clock: Clock;
  email: EmailSender;
  members: MemberService;
  planLimits: PlanLimits;
}

export interface InviteListOptions extends PageRequest {
  status: InviteStatusFilter;
  ordering?: InviteOrdering;
  search?: string;
}

const SORT_KEYS: Record<string, SQL | AnyPgColumn> = {
  id: invites.id,
  email: invites.email,
  role_id: sql`CASE ${invites.role} WHEN 'admin' THEN 0 WHEN 'manager' THEN 1 ELSE 2 END`,
  invited_by: sql`lower(trim(coalesce(${users.firstName}, '') || ' ' || coalesce(${users.lastName}, '')))`,
  created_at: invites.createdAt,
  expires_at: invites.expiresAt,
};

export interface InviteEntry {
  email: string;
  role_id: RoleId;
}

/** The inviting user as the e-mail and the list name them. */
export interface Inviter extends Actor {
  name: string;
}

const columns = {
  id: invites.id,
  email: invites.email,
  role: invites.role,
  createdAt: invites.createdAt,
  expiresAt: invites.expiresAt,
  acceptedAt: invites.acceptedAt,
  revokedAt: invites.revokedAt,
  declinedAt: invites.declinedAt,
  inviterFirstName: users.firstName,
  inviterLastName: users.lastName,
  inviterEmail: users.email,
};

interface InviteRow {
  id: number;
  email: string;
  role: string;
  createdAt: Date;
  expiresAt: Date;
  acceptedAt: Date | null;
  revokedAt: Date | null;
  declinedAt: Date | null;
  inviterFirstName: string | null;
  inviterLastName: string | null;
  inviterEmail: string | null;
}

export function displayName(firstName: string | null, lastName: string | null, email: string | null): string | null {
  const name = `${firstName ?? ''} ${lastName ?? ''}`.trim();
  return name || email;
}

export function inviteStatus(row: Pick<InviteRow, 'acceptedAt' | 'revokedAt' | 'declinedAt' | 'expiresAt'>, now: Date): InviteStatus {
  if (row.acceptedAt) return 'accepted';
  if (row.declinedAt) return 'declined';
  if (row.revokedAt) return 'revoked';
  return row.expiresAt.getTime() <= now.getTime() ? 'expired' : 'pending';
}

function statusCondition(status: InviteStatusFilter, now: Date): SQL | undefined {
  const open = and(isNull(invites.acceptedAt), isNull(invites.revokedAt), isNull(invites.declinedAt));
  switch (status) {
    case 'pending':
      return and(open, gt(invites.expiresAt, now));
    case 'expired':
      return and(open, lte(invites.expiresAt, now));
    case 'accepted':
      return isNotNull(invites.acceptedAt);
    case 'declined':
      return and(isNull(invites.acceptedAt), isNotNull(invites.declinedAt));
    case 'revoked':
      return and(isNull(invites.acceptedAt), isNull(invites.declinedAt), isNotNull(invites.revokedAt));
    case 'all':
      return undefined;
  }
}

export class InviteService {
  constructor(private readonly deps: InviteDeps) {}

  private get db() {
    return this.deps.db;
  }

  private toInvite(row: InviteRow, now: Date): Invite {
    return {
      id: row.id,
      email: row.email,
      role_id: normalizeRole(row.role),
      status: inviteStatus(row, now),
      invited_by: displayName(row.inviterFirstName, row.inviterLastName, row.inviterEmail),
      created_at: row.createdAt.toISOString(),
      expires_at: row.expiresAt.toISOString(),
    };
  }

  private rows(where: SQL | undefined) {
    return this.db.select(columns).from(invites).leftJoin(users, eq(users.id, invites.invitedBy)).where(where);
  }

  async list(requestUrl: string, companyId: number, options: InviteListOptions): Promise<Paged<Invite>> {
    const now = this.deps.clock.now();
    const where = and(
      eq(invites.companyId, companyId),
      statusCondition(options.status, now),
      options.search ? ilike(invites.email, containsPattern(options.search)) : undefined,
    );
    const ordering = options.ordering ?? '-created_at';
    const key = SORT_KEYS[ordering.replace(/^-/, '')];
    const order = ordering.startsWith('-') ? [desc(key), desc(invites.id)] : [asc(key), asc(invites.id)];
    const [{ total }] = await this.db.select({ total: count() }).from(invites).where(where);
    const rows = await this.rows(where)
      .orderBy(...order)
      .limit(options.pageSize)
      .offset(offsetOf(options));
    return paged(
      requestUrl,
      options,
      total,
      rows.map((row) => this.toInvite(row, now)),
    );
  }

  /**
   * POST /api/invites/bulk/: validates every entry first (no admin invites from non-admins,
   * no duplicates, no existing members), then creates or refreshes all invites in one
   * transaction and e-mails each invitee once it is committed.
   */
  async bulk(inviter: Inviter, company: CompanyRow, entries: InviteEntry[]): Promise<Invite[]> {
    if (inviter.role !== 'admin' && entries.some((entry) => entry.role_id === 'admin')) {
      throw forbidden(TEAM_MESSAGES.inviteAdminOnlyByAdmin, 'admin_role_forbidden');
    }
    const problems: string[] = [];
    const seen = new Set<string>();
    for (const { email } of entries) {
      if (seen.has(email)) problems.push(TEAM_MESSAGES.listedTwice(email));
      seen.add(email);
    }
    const members = await this.deps.members.memberEmails(company.id, [...seen]);
    for (const { email } of entries) if (members.has(email)) problems.push(TEAM_MESSAGES.alreadyMember(email));
    if (problems.length > 0) throw validationError({ invites: [...new Set(problems)] });
    // The plan's member limit counts members and open invites (issue #14).
    await this.deps.planLimits.check(company.id, 'members', entries.length);

    const now = this.deps.clock.now();
    const expiresAt = new Date(now.getTime() + INVITE_TTL_DAYS * DAY_MS);
    const created = await this.db.transaction(async (tx) => {
      const out: { id: number; email: string; role: RoleId; token: string }[] = [];
      for (const entry of entries) {
        const token = randomToken();
        const fields = { tokenHash: sha256(token), role: entry.role_id, invitedBy: inviter.userId, expiresAt };
        const [row] = await tx
          .insert(invites)
          .values({ companyId: company.id, email: entry.email, createdAt: now, ...fields })
          // An open invite for the same e-mail (even an expired one) is refreshed, not duplicated.
          .onConflictDoUpdate({
            target: [invites.companyId, invites.email],
            targetWhere: sql`${invites.acceptedAt} IS NULL AND ${invites.revokedAt} IS NULL AND ${invites.declinedAt} IS NULL`,
            set: fields,
          })
          .returning({ id: invites.id });
        out.push({ id: row.id, email: entry.email, role: entry.role_id, token });
      }
      return out;
    });

    for (const invite of created) {
      const link =
        `${this.deps.config.publicUrl}/auth/signup/create-account` +
        `?invite=${encodeURIComponent(invite.token)}&email=${encodeURIComponent(invite.email)}`;
      await this.deps.email.send(
        inviteEmail({ to: invite.email, companyName: company.name, inviterName: inviter.name, roleName: ROLE_NAMES[invite.role], link, ttlDays: INVITE_TTL_DAYS }),
      );
    }

    const byId = new Map<number, InviteRow>();
    for (const row of await this.rows(and(eq(invites.companyId, company.id), inArray(invites.id, created.map((c) => c.id))))) byId.set(row.id, row);
    return created.map((invite) => this.toInvite(byId.get(invite.id)!, now));
  }

  /** DELETE /api/invites/{id}/: an open invite is revoked (kept for the record); revoking twice, or a declined one, is harmless. */
  async revoke(companyId: number, inviteId: number): Promise<void> {
    const [row] = await this.db
      .select({ acceptedAt: invites.acceptedAt, revokedAt: invites.revokedAt, declinedAt: invites.declinedAt })
      .from(invites)
      .where(and(eq(invites.companyId, companyId), eq(invites.id, inviteId)));
    if (!row) throw notFound();
    if (row.acceptedAt) throw new ApiError(400, { detail: TEAM_MESSAGES.inviteAccepted, code: 'invite_accepted' });
    if (row.revokedAt || row.declinedAt) return;
    await this.db
      .update(invites)
      .set({ revokedAt: this.deps.clock.now() })
      .where(
        and(eq(invites.companyId, companyId), eq(invites.id, inviteId), isNull(invites.acceptedAt), isNull(invites.revokedAt), isNull(invites.declinedAt)),
      );
  }
}
