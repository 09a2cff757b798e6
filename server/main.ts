/**
 * Entry point: config → database + migrations → demo seed → app → listen.
 * Serves the API and the built console on one origin. `npm run build` compiles it (scripts/build-server.mjs)
 * into dist-server/main.js, which `npm start` / `npm run serve` run; `npm run dev:server` runs it through tsx.
 */
import 'reflect-metadata';
import { isLoopbackHost, loadConfig } from './core/config';
import { openDatabase } from './core/db/client';
import { applyMigrations } from './core/db/migrate';
import { seedDemoData, DEMO } from './core/seed';
import { demoSeedersRef, type DemoAppContext } from './core/demoData';
import { buildApp } from './core/app';
import { drainApp } from './core/shutdown';
import { mediaClusterProblem } from './providers/storage/cluster';
import { serverPlugins } from './plugins.config';
import { sandboxLinkOf } from './plugins/sandbox';
import { exposedDemoWarning, mediaLines, modeLines } from './core/startupBanner';
import { stripeBannerLine, stripeConfigOf } from './providers/stripe/config';

/**
 * After the grace (SHUTDOWN_GRACE_MS) the connections are cut; the background jobs then get this long to
 * stop before the process exits anyway (a supervisor's stop timeout must exceed the two: docs/deploy.md).
 */
const SHUTDOWN_JOBS_MS = 5_000;

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const database = await openDatabase(config);
  // Under an advisory lock on PostgreSQL: processes started at once wait for each other (core/db/migrate.ts).
  await applyMigrations(database, { log: { info: (msg) => console.log(msg) } });
  const app = await buildApp({ config, db: database.db, plugins: serverPlugins });
  // The plugins' parts of the demo (core/demoData.ts), run phase by phase below.
  const demoSeeders = app.services.get(demoSeedersRef);
  const demoContext: DemoAppContext = { app, config, db: database.db, demo: DEMO };
  // After the app: the demo's pictures are stored through its MediaStorage (local disk or bucket).
  if (config.seedDemo) await seedDemoData(database.db, config, app.services.get('MediaStorage'), demoSeeders);
  // The demo bot, flow and the stats' history (never stop the start).
  if (config.seedDemo) await demoSeeders.seedApp('beforeListen', demoContext, app.log);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ graceMs: config.shutdownGraceMs }, `${signal} received, draining (readiness 503, sockets closed with a reconnect hint, requests finishing)`);
    setTimeout(() => {
      app.log.error(`shutdown: background jobs still stopping ${SHUTDOWN_JOBS_MS} ms after the grace; exiting`);
      process.exit(1);
    }, config.shutdownGraceMs + SHUTDOWN_JOBS_MS).unref();
    try {
      await drainApp(app, { graceMs: config.shutdownGraceMs });
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
  // The seeders that reach the local fakes over HTTP: the demo's WhatsApp number and templates, its broadcasts, the Demo Company on Growth through the fake Stripe's checkout.
  if (config.seedDemo) await demoSeeders.seedApp('afterListen', demoContext, app.log);

  const base = `http://localhost:${config.port}`;
  const warning = exposedDemoWarning(config);
  if (warning) app.log.warn(warning.map((line) => line.replace(/^!+ ?/, '')).filter(Boolean).join(' '));
  // A cluster (REDIS_URL) with media on this process's own folder: GET /api/ready/ fails with the same reason.
  const mediaProblem = mediaClusterProblem(config);
  if (mediaProblem) app.log.warn({ check: 'media' }, `${mediaProblem}; GET /api/ready/ answers 503 until then`);
  const lines = [
    '',
    ...(warning ?? []),
    `Console ready on ${base}${isLoopbackHost(config.host) ? '' : ` (listening on ${config.host}:${config.port})`}`,
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
  lines.push(...mediaLines(config));
  lines.push(...modeLines(config, base));
  lines.push(stripeBannerLine(stripeConfigOf(config), base));
  if (warning) lines.push(...warning);
  lines.push('');
  // Printed plainly (not as a JSON log line) so it is readable in the terminal.
  console.log(lines.join('\n'));
}

main().catch((err) => {
  console.error('Failed to start the server:', err);
  process.exit(1);
});
