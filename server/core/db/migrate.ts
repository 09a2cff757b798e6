/**
 * Applies the generated SQL migrations with drizzle's migrator for the running driver.
 *
 * On PostgreSQL several processes may start at once on the same database (a cluster behind a load
 * balancer, a rolling deploy): each would run the migrations, and two `CREATE TABLE IF NOT EXISTS` racing
 * each other fail on `pg_type_typname_nsp_index`. So the whole migration runs under a session-level
 * advisory lock (MIGRATION_LOCK_KEY) taken on one dedicated connection, and runs on that connection: the
 * next process waits, then finds every migration applied and does nothing. A process that dies holding the
 * lock loses its connection, which releases the lock. PGlite has one connection in one process: no lock.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import type { Database, OpenDatabase, Schema } from './client';

export const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/**
 * The advisory lock's key: a fixed bigint of our own (advisory keys are one namespace per database, shared
 * with whatever else uses advisory locks there, so an arbitrary large value rather than 1).
 */
export const MIGRATION_LOCK_KEY = 4_702_517_833_091_205n;

export interface MigrateOptions {
  /** Told when another process holds the lock (this one then waits for it). */
  log?: { info(msg: string): void };
}

export async function applyMigrations({ db, driver }: OpenDatabase, { log }: MigrateOptions = {}): Promise<void> {
  const config = { migrationsFolder: MIGRATIONS_DIR };
  // The running driver's migrator only (the other driver is never loaded; bench/server).
  if (driver === 'pglite') {
    await (await import('drizzle-orm/pglite/migrator')).migrate(db as unknown as PgliteDatabase<Schema>, config);
    return;
  }
  const [{ drizzle }, { migrate }] = await Promise.all([import('drizzle-orm/node-postgres'), import('drizzle-orm/node-postgres/migrator')]);
  // openPostgres (client.ts) gives drizzle a pg Pool.
  const pool = (db as unknown as NodePgDatabase<Schema> & { $client: import('pg').Pool }).$client;
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    const key = MIGRATION_LOCK_KEY.toString();
    const { rows } = await client.query<{ locked: boolean }>('select pg_try_advisory_lock($1::bigint) as locked', [key]);
    if (!rows[0].locked) {
      log?.info('migrations: another process is applying them; waiting for it');
      await client.query('select pg_advisory_lock($1::bigint)', [key]);
    }
    try {
      // On the connection that holds the lock (drizzle over one client runs its transaction on it too).
      await migrate(drizzle({ client }), config);
    } finally {
      await client.query('select pg_advisory_unlock($1::bigint)', [key]).catch((err: Error) => {
        // A connection that cannot unlock is destroyed below, which releases the lock as well.
        broken = err;
      });
    }
  } catch (err) {
    broken = err as Error;
    throw err;
  } finally {
    client.release(broken);
  }
}

/** The `created_at` drizzle records for this build's last migration: its journal entry's `when`. */
export function lastMigrationMillis(): number {
  const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as { entries: { when: number }[] };
  return Math.max(...journal.entries.map((entry) => entry.when));
}

/**
 * Whether the database has this build's migrations (the same test drizzle's migrator makes: the newest
 * applied `created_at` against the newest migration file's). False when none were ever applied.
 */
export async function migrationsApplied(db: Database, expected = lastMigrationMillis()): Promise<boolean> {
  const result = (await db.execute(sql`select to_regclass('drizzle.__drizzle_migrations') is not null as present`)) as unknown as { rows: { present: boolean }[] };
  if (!result.rows[0]?.present) return false;
  const last = (await db.execute(sql`select max(created_at)::text as last from drizzle.__drizzle_migrations`)) as unknown as { rows: { last: string | null }[] };
  return last.rows[0]?.last !== null && Number(last.rows[0].last) >= expected;
}
