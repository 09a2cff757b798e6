/** GET /account/user/ and the login response: the user with every membership. */
import { eq } from 'drizzle-orm';
import type { User } from '../../../contract/api';
import type { Database } from '../../core/db/client';
import { users } from '../../core/db/schema';
import { listMemberships, toCompanyMembership } from '../../core/tenancy/memberships';

export async function loadUserView(db: Database, userId: number): Promise<User | null> {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) return null;
  const memberships = await listMemberships(db, userId);
  return {
    id: user.id,
    first_name: user.firstName,
    last_name: user.lastName,
    email: user.email,
    profile_avatar_url: user.profileAvatarUrl,
    companies: memberships.map(toCompanyMembership),
  };
}
