/**
 * Opens the database: PostgreSQL (node-postgres pool) when DATABASE_URL is set,
 * otherwise embedded PGlite (on disk in DATA_DIR, or in memory for tests).
 * Both drivers are typed as the common PgDatabase so services do not care which runs.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
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

/**
 * PGlite on disk: 16 MB of shared buffers instead of PostgreSQL's 128 MB (`PGLITE_SHARED_BUFFERS` to change),
 * the pages beyond that are read through the OS cache (bench/server/README.md).
 */
function pgliteStartParams(defaults: readonly string[]): string[] {
  return [...defaults, '-c', `shared_buffers=${process.env.PGLITE_SHARED_BUFFERS || '16MB'}`];
}

/**
 * A new data folder is created (initdb) in a short-lived child process: initdb's WebAssembly module and
 * its memory (~450 MB) would otherwise stay in this process for its whole life.
 */
async function initPgliteDir(dataDir: string): Promise<void> {
  const moduleUrl = import.meta.resolve('@electric-sql/pglite');
  const script = `const { PGlite } = await import(${JSON.stringify(moduleUrl)}); const db = new PGlite(${JSON.stringify(dataDir)}); await db.waitReady; await db.close();`;
  await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { maxBuffer: 16 * 1024 * 1024 });
}

// Each driver is loaded only when it is the one used (PostgreSQL never loads PGlite, and the reverse; bench/server).
export async function openPglite(dataDir: string | null): Promise<OpenDatabase> {
  const [{ PGlite }, { drizzle: drizzlePglite }] = await Promise.all([import('@electric-sql/pglite'), import('drizzle-orm/pglite')]);
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  if (dataDir && !existsSync(path.join(dataDir, 'PG_VERSION'))) await initPgliteDir(dataDir);
  const client = dataDir ? new PGlite(dataDir, { startParams: pgliteStartParams(PGlite.defaultStartParams) }) : new PGlite();
  await client.waitReady;
  const db = drizzlePglite({ client, schema });
  return { db: db as unknown as Database, driver: 'pglite', close: () => client.close() };
}

export async function openPostgres(connectionString: string): Promise<OpenDatabase> {
  const [{ default: pg }, { drizzle: drizzlePg }] = await Promise.all([import('pg'), import('drizzle-orm/node-postgres')]);
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
