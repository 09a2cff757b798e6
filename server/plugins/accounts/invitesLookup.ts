/**
 * Pending invites of an e-mail address (not accepted, not revoked, not expired) and their
 * acceptance. An invite is accepted only for a user who proved the address: by registering
 * with the invite's token or a verified onboarding request, or by signing in to an account
 * that was created that way.
 */
import { and, asc, eq, gt, isNull } from 'drizzle-orm';
import { normalizeRole } from '../../../contract/permissions';
import type { Database } from '../../core/db/client';
import { companies, invites, memberships } from '../../core/db/schema';
import { sha256 } from '../../core/auth/secrets';

export interface PendingInvite {
  id: number;
  companyId: number;
  companyName: string;
  role: string;
}

type Reader = Pick<Database, 'select'>;
type Writer = Pick<Database, 'select' | 'insert' | 'update'>;

function pending(now: Date) {
  return and(isNull(invites.acceptedAt), isNull(invites.revokedAt), gt(invites.expiresAt, now));
}

export function pendingInvitesFor(db: Reader, email: string, now: Date): Promise<PendingInvite[]> {
  return db
    .select({ id: invites.id, companyId: invites.companyId, companyName: companies.name, role: invites.role })
    .from(invites)
    .innerJoin(companies, eq(companies.id, invites.companyId))
    .where(and(eq(invites.email, email), pending(now)))
    .orderBy(asc(invites.createdAt), asc(invites.id));
}

/** Whether `token` is the token of a pending invite for exactly this e-mail. */
export async function isValidInviteToken(db: Reader, token: string, email: string, now: Date): Promise<boolean> {
  const [row] = await db
    .select({ id: invites.id })
    .from(invites)
    .where(and(eq(invites.tokenHash, sha256(token)), eq(invites.email, email), pending(now)));
  return Boolean(row);
}

/**
 * Accepts every pending invite of the e-mail for the user: a membership with the invite's
 * role per company (an existing membership is kept as it is) and accepted_at set.
 * Returns how many invites were accepted.
 */
export async function acceptPendingInvites(tx: Writer, userId: number, email: string, now: Date): Promise<number> {
  let accepted = 0;
  for (const invite of await pendingInvitesFor(tx, email, now)) {
    // Claim the invite first, so a concurrent acceptance (or revocation) cannot apply it twice.
    const claimed = await tx
      .update(invites)
      .set({ acceptedAt: now })
      .where(and(eq(invites.id, invite.id), pending(now)))
      .returning({ id: invites.id });
    if (claimed.length === 0) continue;
    await tx
      .insert(memberships)
      .values({ companyId: invite.companyId, userId, role: normalizeRole(invite.role), createdAt: now })
      .onConflictDoNothing();
    accepted += 1;
  }
  return accepted;
}
