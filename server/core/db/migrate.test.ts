/**
 * The migrations from an empty database, on each database: every test app starts from a copy of a
 * template migrated once per run (server/testing/globalSetup.ts), so this is where applying them is tested.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyMigrations, lastMigrationMillis, migrationsApplied, MIGRATIONS_DIR } from './migrate';
import { openPostgres, type OpenDatabase } from './client';
import { describeEachDatabase, openEmptyTestDatabase } from '../../testing/testApp';
import { serverProcessArgs, serverProcessEnv } from '../../testing/serverProcess';

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
    expect(await migrationsApplied(db)).toBe(false);
    await applyMigrations(opened);
    expect(await applied()).toBe(journal.entries.length);
    expect(await migrationsApplied(db)).toBe(true);
    // A newer build (a migration this database lacks) does not count as migrated (GET /api/ready/).
    expect(await migrationsApplied(db, lastMigrationMillis() + 1)).toBe(false);
    await applyMigrations(opened);
    expect(await applied()).toBe(journal.entries.length);
    // The last migration's index exists: every file ran, not only the bookkeeping.
    const indexes = await rows<{ indexname: string }>(sql`select indexname from pg_indexes where indexname = 'broadcast_recipients_company_created_idx'`);
    expect(indexes).toHaveLength(1);
  });
});

/**
 * Several processes starting at once on an empty PostgreSQL database (a cluster's first start, a rolling
 * deploy): without the advisory lock two of three died on `pg_type_typname_nsp_index` (issue #21). A fresh
 * database `test_migrate_<random>` of TEST_DATABASE_URL's server, dropped afterwards.
 */
const serverUrl = process.env.TEST_DATABASE_URL;
describe.skipIf(!serverUrl)('migrations started at once on an empty PostgreSQL database [postgres]', () => {
  let name = '';
  const admin = async (query: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(query);
    } finally {
      await client.end();
    }
  };
  const urlOf = (database: string) => Object.assign(new URL(serverUrl!), { pathname: `/${database}` }).toString();
  const appliedIn = async (database: string) => {
    const client = new pg.Client({ connectionString: urlOf(database) });
    await client.connect();
    try {
      return (await client.query<{ n: number }>('select count(*)::int as n from drizzle.__drizzle_migrations')).rows[0].n;
    } finally {
      await client.end();
    }
  };
  beforeEach(async () => {
    name = `test_migrate_${randomBytes(6).toString('hex')}`;
    await admin(`CREATE DATABASE "${name}"`);
  });
  afterEach(async () => {
    await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  });

  it('three migrators on separate connection pools all succeed, and the migrations are applied once', async () => {
    const opened = await Promise.all([1, 2, 3].map(() => openPostgres(urlOf(name))));
    try {
      const waited: string[] = [];
      const results = await Promise.allSettled(opened.map((database) => applyMigrations(database, { log: { info: (msg) => waited.push(msg) } })));
      expect(results.map((r) => (r.status === 'rejected' ? String(r.reason) : 'ok'))).toEqual(['ok', 'ok', 'ok']);
      expect(await appliedIn(name)).toBe(journal.entries.length);
      expect(await migrationsApplied(opened[0].db)).toBe(true);
    } finally {
      await Promise.all(opened.map((database) => database.close()));
    }
  });

  it('three compiled `server/migrate.ts` processes (npm run migrate) started at once all exit 0', async () => {
    const run = () =>
      new Promise<{ code: number | null; output: string }>((resolve) => {
        const child = spawn(process.execPath, serverProcessArgs('migrate'), {
          cwd: process.cwd(),
          env: { ...process.env, ...serverProcessEnv(), DATABASE_URL: urlOf(name) },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let output = '';
        child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
        child.on('exit', (code) => resolve({ code, output }));
      });
    const exits = await Promise.all([run(), run(), run()]);
    for (const exit of exits) expect(exit.code, exit.output).toBe(0);
    expect(await appliedIn(name)).toBe(journal.entries.length);
  }, 60_000);
});
