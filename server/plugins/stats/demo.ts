/**
 * The offline demo's figures (issue #14): the demo inbox (../sandbox/demo.ts) writes its agent
 * replies as "Alex" without a member behind them; the stats count first response times per
 * member, so those replies are attributed to the demo agent (Alex Agent, agent@demo.test), who
 * then has figures of their own. Only the seeded demo messages (external id `demo-…`) of the
 * company are touched, and only while they have no sender: running it again changes nothing.
 */
import { and, eq, isNull, like } from 'drizzle-orm';
import type { Database } from '../../core/db/client';
import { companies, messages, users } from '../../core/db/schema';

/** Returns how many messages were attributed. */
export async function seedDemoStats(db: Database, companyName: string, agentEmail: string): Promise<number> {
  const [company] = await db.select({ id: companies.id }).from(companies).where(eq(companies.name, companyName)).limit(1);
  const [agent] = await db.select({ id: users.id }).from(users).where(eq(users.email, agentEmail.toLowerCase())).limit(1);
  if (!company || !agent) return 0;
  const updated = await db
    .update(messages)
    .set({ senderUserId: agent.id })
    .where(and(eq(messages.companyId, company.id), eq(messages.origin, 'agent'), isNull(messages.senderUserId), like(messages.externalId, 'demo-%')))
    .returning({ id: messages.id });
  return updated.length;
}
