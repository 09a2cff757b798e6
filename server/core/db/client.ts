/**
 * Opens the database: PostgreSQL (node-postgres pool) when DATABASE_URL is set,
 * otherwise embedded PGlite (on disk in DATA_DIR, or in memory for tests).
 * Both drivers are typed as the common PgDatabase so services do not care which runs.
 */
import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from './schema';
import type { AppConfig } from '../config';

export type Schema = typeof schema;
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

export interface OpenDatabase {
  db: Database;
  /** Which driver runs (the migrator differs per driver). */
  driver: 'pglite' | 'postgres';
  close(): Promise<void>;
}

export async function openPglite(dataDir: string | null): Promise<OpenDatabase> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const client = dataDir ? new PGlite(dataDir) : new PGlite();
  await client.waitReady;
  const db = drizzlePglite({ client, schema });
  return { db: db as unknown as Database, driver: 'pglite', close: () => client.close() };
}

export async function openPostgres(connectionString: string): Promise<OpenDatabase> {
  const pool = new pg.Pool({ connectionString, max: 10 });
  // An idle client whose connection the server ends (restart, failover, admin command) emits 'error' on
  // the pool; without a listener that would crash the process. The pool replaces the client on next use.
  pool.on('error', (err) => {
    process.stderr.write(`database: idle connection lost (${(err as { code?: string }).code ?? err.message}); it will be replaced\n`);
  });
  // Fail fast on a wrong URL instead of at the first request.
  const probe = await pool.connect();
  probe.release();
  const db = drizzlePg({ client: pool, schema });
  return { db: db as unknown as Database, driver: 'postgres', close: () => pool.end() };
}

export function openDatabase(config: Pick<AppConfig, 'databaseUrl' | 'pgliteDir'>): Promise<OpenDatabase> {
  return config.databaseUrl ? openPostgres(config.databaseUrl) : openPglite(config.pgliteDir);
}
