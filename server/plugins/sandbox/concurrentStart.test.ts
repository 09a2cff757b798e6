import { afterAll, beforeAll, expect, it } from 'vitest';
import { count, eq, inArray } from 'drizzle-orm';
import { channels, companies } from '../../core/db/schema';
import { openPostgres, type OpenDatabase } from '../../core/db/client';
import { createTestApp, describeEachDatabase, type TestApp } from '../../testing/testApp';
import { backfillSandboxChannels, ensureSandboxChannel } from './service';

/**
 * Several server processes started at once on one PostgreSQL each run the start-up backfill: both found a company
 * without its sandbox channel, both inserted one, and the second process's start died on the unique index
 * (channels_platform_external_uq), as the broadcast engine's two-process test once showed.
 */
describeEachDatabase('sandbox channels at two processes’ start', (database) => {
  let t: TestApp;
  let other: OpenDatabase | null = null;

  beforeAll(async () => {
    t = await createTestApp({ database });
    // A second pool on the same database, as a second process has (PGlite has one connection: the same handle).
    if (t.databaseUrl) other = await openPostgres(t.databaseUrl);
  });
  afterAll(async () => {
    await other?.close();
    await t.close();
  });

  it('both backfills finish, and each company gets one sandbox channel', async () => {
    const second = other?.db ?? t.db;
    for (let round = 0; round < 5; round++) {
      // Companies as a release before the sandbox plugin left them: rows without the creation hook's channel.
      const created = await t.db
        .insert(companies)
        .values(Array.from({ length: 20 }, (_, i) => ({ name: `Older Co ${round}-${i}` })))
        .returning({ id: companies.id });
      const ids = created.map((c) => c.id);
      await Promise.all([backfillSandboxChannels(t.db), backfillSandboxChannels(second), ensureSandboxChannel(second, ids[0])]);
      const perCompany = await t.db
        .select({ companyId: channels.companyId, n: count() })
        .from(channels)
        .where(inArray(channels.companyId, ids))
        .groupBy(channels.companyId);
      expect(perCompany.length).toBe(ids.length);
      expect(perCompany.every((row) => row.n === 1)).toBe(true);
    }
  });

  it('the one found is the one made: the same channel whoever asked first', async () => {
    const [{ id }] = await t.db.insert(companies).values({ name: 'Asked twice' }).returning({ id: companies.id });
    const [a, b] = await Promise.all([ensureSandboxChannel(t.db, id), ensureSandboxChannel(other?.db ?? t.db, id)]);
    expect(a.id).toBe(b.id);
    expect(await t.db.select({ id: channels.id }).from(channels).where(eq(channels.companyId, id))).toEqual([{ id: a.id }]);
  });
});
