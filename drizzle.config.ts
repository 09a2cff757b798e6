import { defineConfig } from 'drizzle-kit';

// Migrations are generated from the schema (`npx drizzle-kit generate --name <name>`)
// and applied at start-up by server/core/db/migrate.ts.
export default defineConfig({
  dialect: 'postgresql',
  schema: './server/core/db/schema.ts',
  out: './server/core/db/migrations',
});
