/**
 * The migrations from an empty database, on each database: every test app starts from a copy of a
 * template migrated once per run (server/testing/globalSetup.ts), so this is where applying them is tested.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, expect, it } from 'vitest';
import { applyMigrations, MIGRATIONS_DIR } from './migrate';
import type { OpenDatabase } from './client';
import { describeEachDatabase, openEmptyTestDatabase } from '../../testing/testApp';

const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as { entries: { tag: string }[] };

describeEachDatabase('migrations', (database) => {
  let opened: OpenDatabase | undefined;
  afterEach(async () => {
    await opened?.close();
    opened = undefined;
  });

  it('apply on an empty database, each once, and applying them again changes nothing', async () => {
    opened = await openEmptyTestDatabase(database);
    const db = opened.db;
    const rows = async <T>(query: ReturnType<typeof sql>) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;
    const applied = async () => (await rows<{ n: number }>(sql`select count(*)::int as n from drizzle.__drizzle_migrations`))[0].n;
    await applyMigrations(opened);
    expect(await applied()).toBe(journal.entries.length);
    await applyMigrations(opened);
    expect(await applied()).toBe(journal.entries.length);
    // The last migration's index exists: every file ran, not only the bookkeeping.
    const indexes = await rows<{ indexname: string }>(sql`select indexname from pg_indexes where indexname = 'broadcast_recipients_company_created_idx'`);
    expect(indexes).toHaveLength(1);
  });
});
