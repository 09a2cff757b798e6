/**
 * Opens the database: PostgreSQL (node-postgres pool) when DATABASE_URL is set,
 * otherwise embedded PGlite (on disk in DATA_DIR, or in memory for tests).
 * Both drivers are typed as the common PgDatabase so services do not care which runs.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema';
import type { AppConfig } from '../config';

export type Schema = typeof schema;
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction of the database, as `db.transaction(async (tx) => …)` hands it over. */
export type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];

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
 * A data folder made at build time (scripts/build-server.mjs, `npm run build`): initdb and every migration
 * of that build already applied, dumped by PGlite's `dumpDataDir('gzip')`. Beside the compiled module
 * (`dist-server/server/core/db/`); absent when the source runs through tsx (tests, `dev:server`).
 */
export const PGLITE_TEMPLATE = fileURLToPath(new URL('./pglite-template.tgz', import.meta.url));

/**
 * A new data folder is created in a short-lived child process: initdb's WebAssembly module and its memory
 * (~450 MB) would otherwise stay in this process for its whole life, and so would a loaded template's
 * (~180 MB). From the build's template when there is one (≈ 0.8 s instead of initdb's ≈ 2 s plus the
 * migrations' ≈ 2 s on a first start: bench/server), else by initdb; a template that fails to load (another
 * PGlite version, a damaged file) falls back to initdb on an emptied folder.
 */
export async function initPgliteDir(dataDir: string, template: string | null = existsSync(PGLITE_TEMPLATE) ? PGLITE_TEMPLATE : null): Promise<void> {
  const moduleUrl = import.meta.resolve('@electric-sql/pglite');
  const run = (script: string) => promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { maxBuffer: 16 * 1024 * 1024 });
  if (template) {
    try {
      await run(
        `const { PGlite } = await import(${JSON.stringify(moduleUrl)}); const { readFileSync } = await import('node:fs'); ` +
          `const db = new PGlite(${JSON.stringify(dataDir)}, { loadDataDir: new Blob([readFileSync(${JSON.stringify(template)})]) }); await db.waitReady; await db.query('select 1'); await db.close();`,
      );
      return;
    } catch (err) {
      process.stderr.write(`database: the build's PGlite template could not be loaded (${String((err as { stderr?: string }).stderr ?? '').trim().split('\n').pop() || (err as Error).message.slice(0, 200)}); creating the folder with initdb\n`);
      for (const entry of readdirSync(dataDir)) rmSync(path.join(dataDir, entry), { recursive: true, force: true });
    }
  }
  await run(`const { PGlite } = await import(${JSON.stringify(moduleUrl)}); const db = new PGlite(${JSON.stringify(dataDir)}); await db.waitReady; await db.close();`);
}

// Each driver is loaded only when it is the one used (PostgreSQL never loads PGlite, and the reverse; bench/server).
/**
 * `template`, for an in-memory database only: a data folder dumped by `dumpDataDir` (the tests' migrated
 * template, server/testing/globalSetup.ts) that the database starts from instead of running initdb.
 * `client`: a PGlite already open (the tests reuse theirs: server/testing/reusedPglite.ts).
 */
export async function openPglite(dataDir: string | null, { template, client: opened }: { template?: Blob; client?: PGlite } = {}): Promise<OpenDatabase> {
  const [{ PGlite }, { drizzle: drizzlePglite }] = await Promise.all([import('@electric-sql/pglite'), import('drizzle-orm/pglite')]);
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  if (dataDir && !existsSync(path.join(dataDir, 'PG_VERSION'))) await initPgliteDir(dataDir);
  const client = opened ?? (dataDir ? new PGlite(dataDir, { startParams: pgliteStartParams(PGlite.defaultStartParams) }) : new PGlite({ loadDataDir: template }));
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
