import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { companies } from '../core/db/schema';
import { pgliteTemplate } from './databaseTemplates';
import { openReusedPglite } from './reusedPglite';

const clientOf = (opened: { db: unknown }) => (opened.db as { $client: unknown }).$client;

describe('reused PGlite test databases', () => {
  const template = pgliteTemplate();
  if (!template) throw new Error('the server project makes a PGlite template (server/testing/globalSetup.ts)');

  it('hand the next app the same database, emptied to the template: no row, identities from 1, a reset session', async () => {
    const first = await openReusedPglite(template);
    const [{ id }] = await first.db.insert(companies).values({ name: 'Left behind' }).returning({ id: companies.id });
    await first.db.insert(companies).values({ name: 'Left behind too' });
    await first.db.execute(sql`set statement_timeout = 4321`);
    await first.close();

    const second = await openReusedPglite(template);
    try {
      expect(clientOf(second)).toBe(clientOf(first));
      expect(await second.db.select().from(companies)).toEqual([]);
      const [again] = await second.db.insert(companies).values({ name: 'Fresh' }).returning({ id: companies.id });
      expect(again.id).toBe(id);
      const timeout = await second.db.execute(sql`show statement_timeout`);
      expect(JSON.stringify(timeout)).not.toContain('4321');
    } finally {
      await second.close();
    }
  });

  it('a database a test closed itself is not handed out again', async () => {
    const first = await openReusedPglite(template);
    await (clientOf(first) as { close(): Promise<void> }).close();
    await first.close();
    const second = await openReusedPglite(template);
    try {
      expect(clientOf(second)).not.toBe(clientOf(first));
      expect(await second.db.select().from(companies)).toEqual([]);
    } finally {
      await second.close();
    }
  });
});
