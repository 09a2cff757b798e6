/** Applies the generated SQL migrations with drizzle's migrator for the running driver. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import type { OpenDatabase, Schema } from './client';

export const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export async function applyMigrations({ db, driver }: OpenDatabase): Promise<void> {
  const config = { migrationsFolder: MIGRATIONS_DIR };
  // The running driver's migrator only (the other driver is never loaded; bench/server).
  if (driver === 'pglite') await (await import('drizzle-orm/pglite/migrator')).migrate(db as unknown as PgliteDatabase<Schema>, config);
  else await (await import('drizzle-orm/node-postgres/migrator')).migrate(db as unknown as NodePgDatabase<Schema>, config);
}
