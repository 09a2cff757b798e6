/**
 * `npm run migrate`: applies the migrations to the database the server would use (DATABASE_URL, else the
 * embedded PGlite under DATA_DIR) and exits, without starting the server. For deploy pipelines that migrate
 * once before rolling the processes; the servers still migrate at start (a no-op then), under the same
 * advisory lock (core/db/migrate.ts), so running both, or several at once, is safe.
 * Built with the server (scripts/build-server.mjs) into dist-server/migrate.js: `node dist-server/migrate.js`
 * needs no devDependency.
 */
import { databaseSettings } from './core/config';
import { openDatabase } from './core/db/client';
import { applyMigrations } from './core/db/migrate';

async function main(): Promise<void> {
  const settings = databaseSettings(process.env);
  const started = performance.now();
  const database = await openDatabase(settings);
  try {
    await applyMigrations(database, { log: { info: (msg) => console.log(msg) } });
  } finally {
    await database.close();
  }
  const where = settings.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite at ${settings.pgliteDir}`;
  console.log(`migrations applied to ${where} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

main().catch((err) => {
  console.error('Migrations failed:', err);
  process.exit(1);
});
