/**
 * bench/fuzz: 100,000 generated and mutated cases over the API and the socket (server/testing/fuzz):
 * request bodies and querystrings from each route's zod schema, broken in 1–2 places (wrong types,
 * NUL, huge strings, deep nesting, extra and prototype keys…), sent with valid auth to every route of
 * the route table; pushes on the inbox's socket topics. Prints the 5xx and crash counts (target: 0).
 *
 *   npm run bench:fuzz -- [--cases 100000] [--socket-share 0.1] [--seed 1] [--concurrency 4]
 *
 * Runs on an in-memory database (PGlite) in this process, the app on a local port for the socket.
 */
import 'reflect-metadata';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    cases: { type: 'string', default: '100000' },
    'socket-share': { type: 'string', default: '0.1' },
    seed: { type: 'string', default: '1' },
    concurrency: { type: 'string', default: '4' },
  },
});

const crashes: string[] = [];
process.on('uncaughtException', (err) => crashes.push(`uncaughtException: ${err.stack ?? err}`));
process.on('unhandledRejection', (err) => crashes.push(`unhandledRejection: ${(err as Error)?.stack ?? err}`));

async function main(): Promise<void> {
  const { createTestApp } = await import('../../server/testing/testApp');
  const { DEFAULT_REALTIME_CONFIG } = await import('../../server/core/config');
  const { InMemoryGraph } = await import('../../server/plugins/channels/testing');
  const { SocialTokenError } = await import('../../server/providers/meta/types');
  const { seedWorld } = await import('../../server/testing/isolation/world');
  const { emptyStats, fuzzableRoutes, fuzzRoute, fuzzSocket } = await import('../../server/testing/fuzz/runner');
  const { connect, disconnect, join, phoenixSocket } = await import('../../server/core/realtime/testSupport');

  const total = Number(args.cases);
  const socketCases = Math.round(total * Number(args['socket-share']));
  const seed = Number(args.seed);
  const concurrency = Math.max(1, Number(args.concurrency));

  const t = await createTestApp({
    config: { logLevel: 'fatal', realtime: { ...DEFAULT_REALTIME_CONFIG, rateLimitPerSecond: 1e9, rateLimitBurst: 1e9, rateLimitCloseAfter: 1e9 } },
    overrides: {
      MetaGraph: new InMemoryGraph(),
      GoogleIdentity: {
        async verifyAccessToken() {
          throw new SocialTokenError();
        },
      },
    },
  });
  const world = await seedWorld(t);
  const baseUrl = await t.listen();
  const routes = fuzzableRoutes(t.app.routeAccess);
  const apiCases = total - socketCases;
  const perRoute = Math.floor(apiCases / routes.length);
  const extra = apiCases - perRoute * routes.length;

  console.log(`fuzz: ${total} cases (${apiCases} API over ${routes.length} routes, ${socketCases} socket pushes), seed ${seed}, concurrency ${concurrency}`);
  // The socket first: the API cases may end A's sessions, channels and memberships the socket needs.
  await world.refreshTokens();
  const socketStart = performance.now();
  const open = async () => {
    const socket = phoenixSocket(`${baseUrl.replace('http', 'ws')}/socket`, 'websocket', { token: world.A.admin.access, company_id: String(world.A.id) });
    await connect(socket);
    const page = socket.channel(`page:${world.A.sandboxChannelId}`, {});
    const room = socket.channel(`room:${world.A.roomId}`, { viewing: false });
    await join(page);
    await join(room);
    return { socket, channels: { page, room } };
  };
  const socket = socketCases > 0 ? await fuzzSocket(open, disconnect, socketCases, seed) : null;
  const socketSeconds = (performance.now() - socketStart) / 1000;
  const started = performance.now();
  const stats = emptyStats();
  // Each route's cases in slices run side by side (same seed, different offsets): deterministic per slice.
  for (const [i, entry] of routes.entries()) {
    await world.refreshTokens();
    const count = perRoute + (i < extra ? 1 : 0);
    const slices = Array.from({ length: concurrency }, (_, s) => Math.floor(count / concurrency) + (s < count % concurrency ? 1 : 0));
    const routeStart = performance.now();
    const before = stats.serverErrors.length;
    await Promise.all(slices.map((n, s) => (n > 0 ? fuzzRoute(t.app, world, entry, n, seed * 1_000_003 + i * 101 + s, stats) : Promise.resolve())));
    const ms = performance.now() - routeStart;
    console.log(`  ${entry.method.padEnd(6)} ${entry.url.padEnd(58)} ${String(count).padStart(6)} cases  ${(ms / 1000).toFixed(1).padStart(6)} s  5xx ${stats.serverErrors.length - before}`);
  }
  const apiSeconds = (performance.now() - started) / 1000;


  const health = await t.app.inject({ method: 'GET', url: '/api/health/' });
  const serverErrors = stats.serverErrors.length + (socket?.serverErrors.length ?? 0);
  const crashCount = crashes.length + (socket?.channelCrashes.length ?? 0);

  console.log('');
  console.log(`API     ${stats.cases} cases in ${apiSeconds.toFixed(0)} s (${(stats.cases / apiSeconds).toFixed(0)}/s); statuses ${JSON.stringify(stats.byStatus)}`);
  if (socket) console.log(`socket  ${socket.cases} pushes in ${socketSeconds.toFixed(0)} s (${(socket.cases / socketSeconds).toFixed(0)}/s), ${socket.skipped} over the frame limit not sent; replies ${JSON.stringify(socket.byStatus)}`);
  for (const e of [...stats.serverErrors, ...(socket?.serverErrors ?? [])].slice(0, 20)) console.log(`  5xx ${e.status} ${e.where}: ${e.body} <- ${e.input}`);
  for (const c of [...crashes, ...(socket?.channelCrashes.map((x) => `${x.event} after ${x.input}`) ?? [])].slice(0, 20)) console.log(`  crash ${c}`);
  console.log(`5xx: ${serverErrors} (target 0)   crashes: ${crashCount} (target 0)   process alive, health ${health.statusCode}`);

  const server = t.app.server;
  const closing = t.close();
  server.closeAllConnections();
  await closing;
  process.exit(serverErrors === 0 && crashCount === 0 && health.statusCode === 200 ? 0 : 1);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
