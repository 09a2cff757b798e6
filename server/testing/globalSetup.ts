/**
 * Vitest globalSetup of the server project: the migrations run once per run, from an empty database, on
 * each database the run uses, and every test database then starts from that migrated copy
 * (createTestApp in ./testApp.ts) instead of running initdb and the 18 migrations again:
 * - PGlite: the migrated data folder dumped to .test-data/ (`dumpDataDir`), loaded by each in-memory database;
 * - PostgreSQL (TEST_DATABASE_URL): a migrated database each test database is created from (`CREATE DATABASE … TEMPLATE`).
 * A migration that fails therefore fails the whole run here, once, on each database.
 * The worker processes find both through the environment, which they inherit from this process.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { openPglite, openPostgres } from '../core/db/client';
import { applyMigrations } from '../core/db/migrate';
import { PGLITE_TEMPLATE_ENV, POSTGRES_TEMPLATE_ENV } from './databaseTemplates';

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

export default async function setup(): Promise<() => Promise<void>> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  const [pgliteTemplate, postgresTemplate] = await Promise.all([makePgliteTemplate(), serverUrl ? makePostgresTemplate(serverUrl) : null]);
  process.env[PGLITE_TEMPLATE_ENV] = pgliteTemplate;
  if (postgresTemplate) process.env[POSTGRES_TEMPLATE_ENV] = postgresTemplate;
  return async () => {
    rmSync(pgliteTemplate, { force: true });
    if (serverUrl && postgresTemplate) await adminQuery(serverUrl, `DROP DATABASE IF EXISTS "${postgresTemplate}" WITH (FORCE)`);
  };
}
