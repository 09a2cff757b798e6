/**
 * Demo data for a fresh database (SEED_DEMO=true and no users yet): two companies so the
 * company switcher and per-company permissions can be tried at once. In Northwind Shop the
 * agent role may not view or manage the company account (an override of the role defaults).
 * The plugins add their parts (./demoData.ts): the Demo Company's sandbox conversations, its bot,
 * flow, WhatsApp number, broadcasts, figures and subscription.
 */
import { count } from 'drizzle-orm';
import type { AppConfig } from './config';
import type { Database } from './db/client';
import { companies, companyRolePermissions, memberships, users } from './db/schema';
import { hashPassword } from './auth/passwords';
import type { MediaStorage } from '../providers/storage/types';
import { DEMO, type DemoSeeders } from './demoData';

export { DEMO } from './demoData';

/**
 * Seeds when the database has no users; returns whether it did. The plugins' 'withCompanies' demo
 * seeders run in the same transaction. The demo's pictures go to `storage` (the app's MediaStorage).
 */
export async function seedDemoData(
  db: Database,
  config: Pick<AppConfig, 'demoPassword' | 'passwordHashCost'>,
  storage: MediaStorage,
  seeders: Pick<DemoSeeders, 'seedWithCompanies'>,
): Promise<boolean> {
  const [{ users: existing }] = await db.select({ users: count() }).from(users);
  if (existing > 0) return false;

  const passwordHash = await hashPassword(config.demoPassword, config.passwordHashCost);
  await db.transaction(async (tx) => {
    const [admin, agent] = await tx
      .insert(users)
      .values([
        { ...DEMO.admin, passwordHash },
        { ...DEMO.agent, passwordHash },
      ])
      .returning({ id: users.id });
    const [demo, northwind] = await tx
      .insert(companies)
      .values([DEMO.companies.demo, DEMO.companies.northwind])
      .returning({ id: companies.id });
    await tx.insert(memberships).values([
      { companyId: demo.id, userId: admin.id, role: 'admin' },
      { companyId: demo.id, userId: agent.id, role: 'agent' },
      { companyId: northwind.id, userId: admin.id, role: 'admin' },
      { companyId: northwind.id, userId: agent.id, role: 'agent' },
    ]);
    await tx.insert(companyRolePermissions).values({ companyId: northwind.id, role: 'agent', permissions: { ...DEMO.northwindAgentOverride } });
    await seeders.seedWithCompanies({ tx, companyIds: { demo: demo.id, northwind: northwind.id }, storage, demo: DEMO });
  });
  return true;
}
