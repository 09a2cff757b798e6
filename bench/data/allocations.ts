/**
 * What one API request allocates, garbage included, by function (issue #26: a larger process's collections were
 * part of its CPU beside the floor's). The app is built in this process on the bench's PostgreSQL data (run
 * `bench/data/run.ts --db postgres` once first), the request is sent through `inject` 2,000 times to warm up, then
 * N times under V8's sampling heap profiler with collected objects kept (every 1 KB allocated is a sample).
 *
 *   npx tsx bench/data/allocations.ts                                  # GET /api/tags/, 4,000 requests
 *   URL_PATH=/api/members/ N=3000 TOP=60 npx tsx bench/data/allocations.ts
 *   CPU_ONLY=1 npx tsx bench/data/allocations.ts                       # no profiler: CPU per request, 5 rounds
 *   FLOOR=1 URL_PATH=/api/members/ npx tsx bench/data/allocations.ts   # the floor's handler, on the statements the
 *                                                                      # last `run.ts --floor` captured for that path
 *
 * In-process figures leave out the HTTP parse and write (light-my-request's part shows instead); compare two
 * checkouts by running each one's copy in turn (the README's "before" and "after").
 */
import { Session } from 'node:inspector/promises';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from '../../server/core/db/schema';
import type { Database } from '../../server/core/db/client';
import { floorApp, readFloorPlan } from './floor';
import { BENCH_CHANNEL_SECRET_KEY, BENCH_JWT_SECRET, FLOOR_PLAN_FILE, PG_URL, loadGenerated, tokens } from './run';

const URL_PATH = process.env.URL_PATH ?? '/api/tags/';
const N = Number(process.env.N ?? 4000);

const { buildApp } = await import('../../server/core/app');
const { serverPlugins } = await import('../../server/plugins.config');
const { testConfig } = await import('../../server/core/config');
const g = loadGenerated('postgres')!;
const pool = new pg.Pool({ connectionString: PG_URL, max: 10 });
const db = drizzlePg({ client: pool, schema }) as unknown as Database;
// FLOOR=1: the floor's handler instead (floor.ts, the statements the last `--floor` run captured for URL_PATH).
const app = process.env.FLOOR
  ? floorApp(readFloorPlan(FLOOR_PLAN_FILE), pool)
  : await buildApp({ config: testConfig({ jwtSecret: BENCH_JWT_SECRET, channelSecretKey: BENCH_CHANNEL_SECRET_KEY, accessTokenTtl: 7200, demo: { enabled: false, setting: 'false', servesOtherMachines: false }, devOutbox: false, logLevel: 'warn' }), db, plugins: serverPlugins });
await app.ready();
const access = await tokens().signAccess(g.adminUserId, g.sessions.find((s) => s.userId === g.adminUserId)!.sessionId);
const headers = { authorization: `Bearer ${access}`, company: String(g.companyId) };
const once = async () => {
  const res = await app.inject({ method: 'GET', url: URL_PATH, headers });
  if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`);
};
for (let i = 0; i < 2000; i++) await once();

// Forked by pairs.ts: one round of `n` requests per message, answered with the round's CPU in microseconds.
if (process.send) {
  process.on('message', async ({ n }: { n: number }) => {
    const c0 = process.cpuUsage();
    for (let i = 0; i < n; i++) await once();
    const c = process.cpuUsage(c0);
    process.send!({ user: c.user, system: c.system });
  });
  process.send({ ready: true });
} else if (process.env.CPU_ONLY) {
  const rounds: { total: number; user: number; system: number }[] = [];
  for (let r = 0; r < 5; r++) {
    const c0 = process.cpuUsage();
    for (let i = 0; i < N; i++) await once();
    const c = process.cpuUsage(c0);
    rounds.push({ total: (c.user + c.system) / 1000 / N, user: c.user / 1000 / N, system: c.system / 1000 / N });
  }
  rounds.sort((a, b) => a.total - b.total);
  const median = rounds[2];
  // User and system time apart: the system's part is mostly the socket writes to PostgreSQL (README, session 40).
  console.log(
    `${URL_PATH}: CPU ms a request in-process, 5 rounds of ${N}: median ${median.total.toFixed(3)} (user ${median.user.toFixed(3)}, system ${median.system.toFixed(3)}; ${rounds.map((x) => x.total.toFixed(3)).join(' ')})`,
  );
  process.exit(0);
} else {
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.enable');
  await session.post('HeapProfiler.startSampling', { samplingInterval: 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true } as never);
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < N; i++) await once();
  const cpu = process.cpuUsage(cpu0);
  const { profile } = (await session.post('HeapProfiler.stopSampling')) as { profile: { head: Node } };
  interface Node { callFrame: { functionName: string; url: string; lineNumber: number }; selfSize: number; children: Node[] }
  const pkg = (url: string) => url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/)?.[1] ?? (url.startsWith('node:') ? url : url.includes('/server/') ? 'ours ' + url.split('/server/')[1] : url || '(native)');
  const byFn = new Map<string, number>();
  const byPkg = new Map<string, number>();
  let total = 0;
  const walk = (n: Node) => {
    total += n.selfSize;
    const p = pkg(n.callFrame.url).replace(/ .*/, '');
    byPkg.set(p, (byPkg.get(p) ?? 0) + n.selfSize);
    const k = `${n.callFrame.functionName || '(anon)'} ${pkg(n.callFrame.url)}:${n.callFrame.lineNumber}`;
    byFn.set(k, (byFn.get(k) ?? 0) + n.selfSize);
    n.children.forEach(walk);
  };
  walk(profile.head);
  console.log(`${URL_PATH}: ${(total / N / 1024).toFixed(1)} KB allocated a request (sampled), CPU ${((cpu.user + cpu.system) / 1000 / N).toFixed(3)} ms a request in-process`);
  for (const [k, v] of [...byPkg].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`${(v / N).toFixed(0).padStart(7)} B  ${k}`);
  console.log('--');
  for (const [k, v] of [...byFn].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.TOP ?? 40))) console.log(`${(v / N).toFixed(0).padStart(7)} B  ${k}`);
  await app.close();
  await pool.end();
  process.exit(0);
}
