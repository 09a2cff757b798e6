/**
 * The company's members as the inbox needs them (GET /api/chats/members/, contract/conversations.ts
 * ChatMember): names, e-mails and avatars for the assignee picker and `@` in a note. Readable with chats
 * view, unlike the team's /api/members/ (members view), which agents do not have by default.
 */
import { and, asc, count, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { ChatMember } from '../../../contract/conversations';
import type { Database } from '../../core/db/client';
import { memberships, users } from '../../core/db/schema';
import { containsPattern, offsetOf, type PageRequest } from '../../core/paging';

export class ChatMembers {
  constructor(private readonly db: Database) {}

  /** One page of the company's members, by first name then e-mail; `search` in the name or the e-mail. */
  async list(companyId: number, search: string | undefined, page: PageRequest): Promise<{ count: number; results: ChatMember[] }> {
    const where = and(eq(memberships.companyId, companyId), this.matching(search));
    const [[total], rows] = await Promise.all([
      this.db.select({ n: count() }).from(memberships).innerJoin(users, eq(users.id, memberships.userId)).where(where),
      this.db
        .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email, avatarUrl: users.profileAvatarUrl })
        .from(memberships)
        .innerJoin(users, eq(users.id, memberships.userId))
        .where(where)
        .orderBy(asc(sql`lower(${users.firstName})`), asc(sql`lower(${users.email})`), asc(users.id))
        .limit(page.pageSize)
        .offset(offsetOf(page)),
    ]);
    return {
      count: Number(total?.n ?? 0),
      results: rows.map((r) => ({ user_id: r.id, first_name: r.firstName, last_name: r.lastName, email: r.email, profile_avatar_url: r.avatarUrl })),
    };
  }

  private matching(search: string | undefined): SQL | undefined {
    if (!search) return undefined;
    const pattern = containsPattern(search);
    return or(ilike(users.firstName, pattern), ilike(users.lastName, pattern), ilike(users.email, pattern), ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, pattern));
  }
}
