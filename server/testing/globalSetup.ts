/**
 * Vitest globalSetup of the server project: the migrations run once per run, from an empty database, on
 * each database the run uses, and every test database then starts from that migrated copy
 * (createTestApp in ./testApp.ts) instead of running initdb and the 18 migrations again:
 * - PGlite: the migrated data folder dumped to .test-data/ (`dumpDataDir`), loaded by each in-memory database;
 * - PostgreSQL (TEST_DATABASE_URL): a migrated database each test database is created from (`CREATE DATABASE … TEMPLATE`).
 * A migration that fails therefore fails the whole run here, once, on each database.
 * It also builds the server once for the tests that start it as a process (./serverProcess.ts): into
 * TEST_SERVER_DIR when that names a build already made from this checkout, else .test-data/dist-server-tests.
 * The worker processes find both through the environment, which they inherit from this process.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { openPglite, openPostgres } from '../core/db/client';
import { applyMigrations } from '../core/db/migrate';
import { buildServer, serverEntry } from '../../scripts/build-server.mjs';
import { PGLITE_TEMPLATE_ENV, POSTGRES_TEMPLATE_ENV } from './databaseTemplates';
import { SERVER_BUILD_ENV } from './serverProcess';

const TEST_DATA = path.resolve(import.meta.dirname, '../../.test-data');

async function makePgliteTemplate(): Promise<string> {
  const database = await openPglite(null);
  try {
    await applyMigrations(database);
    const client = (database.db as unknown as { $client: { dumpDataDir(compression: 'gzip'): Promise<Blob> } }).$client;
    const dump = await client.dumpDataDir('gzip');
    mkdirSync(TEST_DATA, { recursive: true });
    // One file per run: two runs in one checkout never load each other's (or a half-written) template.
    const file = path.join(TEST_DATA, `pglite-template-${process.pid}.tgz`);
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    return file;
  } finally {
    await database.close();
  }
}

async function adminQuery(serverUrl: string, sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

async function makePostgresTemplate(serverUrl: string): Promise<string> {
  const name = `test_template_${randomBytes(6).toString('hex')}`;
  await adminQuery(serverUrl, `CREATE DATABASE "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openPostgres(url.toString());
  try {
    await applyMigrations(database);
  } finally {
    // No connection may stay open: PostgreSQL copies a template only while nobody is connected to it.
    await database.close();
  }
  return name;
}

/**
 * The server built the way `npm run build` builds it, in under a second: without the PGlite template a first
 * start on an empty folder would load (the processes these tests start run on PostgreSQL or on a folder the
 * test migrated; the template above is made here anyway).
 */
async function serverBuild(): Promise<string> {
  const given = process.env[SERVER_BUILD_ENV];
  if (given && existsSync(serverEntry(path.resolve(given)))) return path.resolve(given);
  const outDir = path.join(TEST_DATA, 'dist-server-tests');
  await buildServer(outDir, { pgliteTemplate: false });
  return outDir;
}

export default async function setup(): Promise<() => Promise<void>> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  const [pgliteTemplate, postgresTemplate, build] = await Promise.all([
    makePgliteTemplate(),
    serverUrl ? makePostgresTemplate(serverUrl) : null,
    serverBuild(),
  ]);
  process.env[SERVER_BUILD_ENV] = build;
  process.env[PGLITE_TEMPLATE_ENV] = pgliteTemplate;
  if (postgresTemplate) process.env[POSTGRES_TEMPLATE_ENV] = postgresTemplate;
  return async () => {
    rmSync(pgliteTemplate, { force: true });
    if (serverUrl && postgresTemplate) await adminQuery(serverUrl, `DROP DATABASE IF EXISTS "${postgresTemplate}" WITH (FORCE)`);
  };
}
