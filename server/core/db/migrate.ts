/** Applies the generated SQL migrations with drizzle's migrator for the running driver. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import type { OpenDatabase, Schema } from './client';

export const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export async function applyMigrations({ db, driver }: OpenDatabase): Promise<void> {
  const config = { migrationsFolder: MIGRATIONS_DIR };
  if (driver === 'pglite') await migratePglite(db as unknown as PgliteDatabase<Schema>, config);
  else await migratePg(db as unknown as NodePgDatabase<Schema>, config);
}
