/**
 * Entry point (`npm run serve`): config → database + migrations → demo seed → app → listen.
 * Serves the API and the built console on one origin.
 */
import 'reflect-metadata';
import { loadConfig } from './core/config';
import { openDatabase } from './core/db/client';
import { applyMigrations } from './core/db/migrate';
import { seedDemoData, DEMO } from './core/seed';
import { buildApp } from './core/app';
import { sandboxLinkOf } from './plugins/sandbox/demo';

/** How long in-flight requests get to finish on SIGINT/SIGTERM before their connections are dropped. */
const SHUTDOWN_GRACE_MS = 5_000;

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const database = await openDatabase(config);
  await applyMigrations(database);
  if (config.seedDemo) await seedDemoData(database.db, config);

  const app = await buildApp({ config, db: database.db });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal} received, shutting down`);
    // Sockets and long-polls are ended in the app's preClose; a client that keeps a connection
    // open without a request would hold the close until its headers timeout, so cut it short.
    setTimeout(() => app.server.closeAllConnections(), SHUTDOWN_GRACE_MS).unref();
    try {
      await app.close();
      await database.close();
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });

  const base = `http://localhost:${config.port}`;
  const lines = [
    '',
    `Console ready on ${base}`,
    `  Database: ${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite at ${config.pgliteDir}`}`,
  ];
  if (config.seedDemo) {
    lines.push(
      `  Demo company: ${DEMO.companies.demo.name} (and ${DEMO.companies.northwind.name})`,
      `  Admin: ${DEMO.admin.email} / ${config.demoPassword}`,
      `  Agent: ${DEMO.agent.email} / ${config.demoPassword}`,
    );
    const simulator = await sandboxLinkOf(database.db, DEMO.companies.demo.name, config.publicUrl);
    if (simulator) lines.push(`  Customer simulator (sandbox channel): ${simulator}`);
  }
  lines.push(`  Realtime: ${base.replace('http', 'ws')}/socket (websocket, long-poll)${config.redisUrl ? ', Redis fan-out (REDIS_URL)' : ''}`);
  if (!config.smtpUrl && config.devOutbox) {
    lines.push(`  E-mail outbox: ${base}/dev/outbox (development only: set SMTP_URL in production)`);
  }
  if (config.meta.mode === 'local') {
    lines.push(`  Fake Meta (WhatsApp, Messenger, Instagram; play the customer): ${base}/dev/meta/ (set META_APP_ID for the real one)`);
  }
  lines.push('');
  // Printed plainly (not as a JSON log line) so it is readable in the terminal.
  console.log(lines.join('\n'));
}

main().catch((err) => {
  console.error('Failed to start the server:', err);
  process.exit(1);
});
