/**
 * Open invites (not accepted, revoked or declined, not expired) and their acceptance.
 * An invite takes effect only when its invitee consents: by registering through the invitation
 * link (its token), or, signed in, by accepting it (POST /api/invitations/{id}/accept/). Nothing
 * here runs at login or on account reload.
 */
import { and, eq, gt, isNull } from 'drizzle-orm';
import { normalizeRole } from '../../../contract/permissions';
import type { Database } from '../../core/db/client';
import { companies, invites, memberships } from '../../core/db/schema';
import { sha256 } from '../../core/auth/secrets';

type Reader = Pick<Database, 'select'>;
type Writer = Pick<Database, 'select' | 'insert' | 'update'>;

/** An invite still waiting for its invitee's answer. */
export function openInvite(now: Date) {
  return and(isNull(invites.acceptedAt), isNull(invites.revokedAt), isNull(invites.declinedAt), gt(invites.expiresAt, now));
}

export interface InviteByToken {
  id: number;
  companyId: number;
  companyName: string;
  role: string;
}

/** The open invite whose link carries `token`, if it was sent to exactly this e-mail. */
export async function openInviteByToken(db: Reader, token: string, email: string, now: Date): Promise<InviteByToken | null> {
  const [row] = await db
    .select({ id: invites.id, companyId: invites.companyId, companyName: companies.name, role: invites.role })
    .from(invites)
    .innerJoin(companies, eq(companies.id, invites.companyId))
    .where(and(eq(invites.tokenHash, sha256(token)), eq(invites.email, email), openInvite(now)));
  return row ?? null;
}

/**
 * Accepts one open invite of `email` for the user: accepted_at set, then a membership with the
 * invite's role (an existing membership is kept as it is). Returns the company joined, or null
 * when the invite is not (or no longer) open for this e-mail.
 */
export async function acceptInvite(tx: Writer, inviteId: number, userId: number, email: string, now: Date): Promise<{ companyId: number } | null> {
  // Claim the invite first, so a concurrent acceptance (or revocation, or decline) cannot apply it twice.
  const [claimed] = await tx
    .update(invites)
    .set({ acceptedAt: now })
    .where(and(eq(invites.id, inviteId), eq(invites.email, email), openInvite(now)))
    .returning({ companyId: invites.companyId, role: invites.role });
  if (!claimed) return null;
  await tx
    .insert(memberships)
    .values({ companyId: claimed.companyId, userId, role: normalizeRole(claimed.role), createdAt: now })
    .onConflictDoNothing();
  return { companyId: claimed.companyId };
}

/** Declines one open invite of `email`; false when it is not (or no longer) open for this e-mail. */
export async function declineInvite(db: Writer, inviteId: number, email: string, now: Date): Promise<boolean> {
  const declined = await db
    .update(invites)
    .set({ declinedAt: now })
    .where(and(eq(invites.id, inviteId), eq(invites.email, email), openInvite(now)))
    .returning({ id: invites.id });
  return declined.length > 0;
}
