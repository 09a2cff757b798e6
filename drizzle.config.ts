import { defineConfig } from 'drizzle-kit';

// Migrations are generated from the schemas (`npx drizzle-kit generate --name <name>`)
// and applied at start-up by server/core/db/migrate.ts.
export default defineConfig({
  dialect: 'postgresql',
  // Core tables, then each feature plugin's own (server/plugins/<area>/schema.ts).
  schema: ['./server/core/db/schema.ts', './server/plugins/*/schema.ts'],
  out: './server/core/db/migrations',
});
