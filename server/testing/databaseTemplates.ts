/**
 * The migrated templates the server project's globalSetup makes once per run (./globalSetup.ts), found by
 * the worker processes through these variables. Outside vitest (the benches) they are unset and a test
 * database is made from scratch: initdb, then every migration.
 */
import { readFileSync } from 'node:fs';

/** Path of the migrated PGlite data folder, dumped by `dumpDataDir('gzip')`. */
export const PGLITE_TEMPLATE_ENV = 'TEST_PGLITE_TEMPLATE';
/** Name of the migrated PostgreSQL database, on the server of TEST_DATABASE_URL. */
export const POSTGRES_TEMPLATE_ENV = 'TEST_POSTGRES_TEMPLATE';

let pgliteTemplateBlob: Blob | undefined;

/** The PGlite template, read once per worker; undefined when this run has none. */
export function pgliteTemplate(): Blob | undefined {
  const file = process.env[PGLITE_TEMPLATE_ENV];
  if (!file) return undefined;
  pgliteTemplateBlob ??= new Blob([readFileSync(file)]);
  return pgliteTemplateBlob;
}

/** The PostgreSQL template database's name; undefined when this run has none. */
export function postgresTemplate(): string | undefined {
  return process.env[POSTGRES_TEMPLATE_ENV] || undefined;
}
