/** Pending invites of an e-mail address: not accepted, not revoked, not expired. */
import { and, asc, eq, gt, isNull } from 'drizzle-orm';
import type { Database } from '../../core/db/client';
import { companies, invites } from '../../core/db/schema';

export interface PendingInvite {
  id: number;
  companyId: number;
  companyName: string;
  role: string;
}

export function pendingInvitesFor(db: Pick<Database, 'select'>, email: string, now: Date): Promise<PendingInvite[]> {
  return db
    .select({ id: invites.id, companyId: invites.companyId, companyName: companies.name, role: invites.role })
    .from(invites)
    .innerJoin(companies, eq(companies.id, invites.companyId))
    .where(and(eq(invites.email, email), isNull(invites.acceptedAt), isNull(invites.revokedAt), gt(invites.expiresAt, now)))
    .orderBy(asc(invites.createdAt), asc(invites.id));
}
