/**
 * The signed-in user's own invitations: the open invites sent to the account's e-mail (every
 * account's e-mail was proven when it was created: onboarding link, invitation link or a
 * provider's verified address), and the user's answer to each. A company's invite changes
 * nothing for the invitee until they accept it here (or register through its link).
 *
 *   GET  /api/invitations/               open invitations, oldest first
 *   POST /api/invitations/{id}/accept/   join the company with the invited role
 *   POST /api/invitations/{id}/decline/  say no; the company sees the invite as declined
 *
 * No Company header: the user may have no company yet. An id that is not an open invite to
 * the caller's e-mail (another user's, expired, revoked, answered) is a 404, the same answer
 * as a missing one.
 */
import { and, asc, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ROLE_NAMES, normalizeRole } from '../../../contract/permissions';
import type { InvitationAccepted, PendingInvitation } from '../../../contract/team';
import type { Clock } from '../../core/clock';
import type { Database } from '../../core/db/client';
import { companies, invites, users } from '../../core/db/schema';
import { notFound } from '../../core/errors';
import { currentUser } from '../../core/auth/requireUser';
import { access } from '../../core/access';
import type { AuthUser } from '../../core/fastifyTypes';
import { acceptInvite, declineInvite, openInvite } from './invitesLookup';

export const INVITATION_MESSAGES = {
  accepted: 'Invitation accepted.',
  declined: 'Invitation declined.',
} as const;

function inviterName(first: string | null, last: string | null, email: string | null): string | null {
  return `${first ?? ''} ${last ?? ''}`.trim() || email;
}

export class InvitationService {
  constructor(private readonly deps: { db: Database; clock: Clock }) {}

  async list(user: AuthUser): Promise<PendingInvitation[]> {
    const rows = await this.deps.db
      .select({
        id: invites.id,
        role: invites.role,
        createdAt: invites.createdAt,
        expiresAt: invites.expiresAt,
        companyId: companies.id,
        companyName: companies.name,
        companyLogo: companies.logo,
        inviterFirstName: users.firstName,
        inviterLastName: users.lastName,
        inviterEmail: users.email,
      })
      .from(invites)
      .innerJoin(companies, eq(companies.id, invites.companyId))
      .leftJoin(users, eq(users.id, invites.invitedBy))
      .where(and(eq(invites.email, user.email), openInvite(this.deps.clock.now())))
      .orderBy(asc(invites.createdAt), asc(invites.id));
    return rows.map((row) => {
      const role = normalizeRole(row.role);
      return {
        id: row.id,
        company: { id: row.companyId, name: row.companyName, logo: row.companyLogo },
        role: { id: role, name: ROLE_NAMES[role] },
        invited_by: inviterName(row.inviterFirstName, row.inviterLastName, row.inviterEmail),
        created_at: row.createdAt.toISOString(),
        expires_at: row.expiresAt.toISOString(),
      };
    });
  }

  async accept(user: AuthUser, inviteId: number): Promise<InvitationAccepted> {
    const now = this.deps.clock.now();
    const joined = await this.deps.db.transaction((tx) => acceptInvite(tx, inviteId, user.id, user.email, now));
    if (!joined) throw notFound();
    return { detail: INVITATION_MESSAGES.accepted, company_id: joined.companyId };
  }

  async decline(user: AuthUser, inviteId: number): Promise<{ detail: string }> {
    if (!(await declineInvite(this.deps.db, inviteId, user.email, this.deps.clock.now()))) throw notFound();
    return { detail: INVITATION_MESSAGES.declined };
  }
}

type IdParams = { Params: { id: string } };

function inviteId(request: FastifyRequest<IdParams>): number {
  const { id } = request.params;
  if (!/^\d{1,9}$/.test(id)) throw notFound();
  return Number(id);
}

/** Access: a signed-in user, acting only on invites sent to their own e-mail; no company needed. */
export function invitationRoutes(app: FastifyInstance, invitations: InvitationService): void {
  app.get('/api/invitations/', { config: { access: access.user() } }, async (request) => {
    const results = await invitations.list(currentUser(request));
    return { count: results.length, results };
  });

  app.post<IdParams>('/api/invitations/:id/accept/', { config: { access: access.user() } }, async (request) =>
    invitations.accept(currentUser(request), inviteId(request)),
  );

  app.post<IdParams>('/api/invitations/:id/decline/', { config: { access: access.user() } }, async (request) =>
    invitations.decline(currentUser(request), inviteId(request)),
  );
}
