/**
 * A light server (bench/server/README.md): start time, idle RSS on a fresh data folder / database, and
 * RSS after the data bench's load, for PGlite and PostgreSQL. Each server runs in a child process the way
 * `npm start` runs it (the compiled server: `node <the serve script's flags> dist-server/main.js`, built
 * first), demo off, measured from outside (/proc/<pid>/status VmRSS).
 *
 *   npx tsx bench/server/run.ts                      # both databases
 *   npx tsx bench/server/run.ts --db pglite          # one (pglite | postgres)
 *   npx tsx bench/server/run.ts --quick              # 10 s of load instead of 30 s
 *   npx tsx bench/server/run.ts --fresh-only         # the fresh start only (no data bench database)
 *   npx tsx bench/server/run.ts --server tsx         # the TypeScript source through tsx (`node --import tsx server/main.ts`, the "before")
 *   npx tsx bench/server/run.ts --node-options "--max-semi-space-size=2"   # node flags instead of the serve script's ("" for none)
 *
 * The loaded server runs on the data bench's database (bench/data: PostgreSQL `bench_data`, PGlite under
 * /tmp/bench-data/pglite), generated first when missing. Prints figures only; a watchdog stops it after 20 min.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import {
  BENCH_CHANNEL_SECRET_KEY,
  BENCH_JWT_SECRET,
  PG_URL,
  PGLITE_DATA_DIR,
  load,
  loadGenerated,
  prepare,
  scenariosFor,
  type Kind,
  type ServerChild,
} from '../data/run';
import { buildServer, serveEnv, serveNodeFlags, serverEntry } from '../../scripts/build-server.mjs';
import { benchServerEnv, freePort, spawnBenchServer } from '../support';

const argv = process.argv.slice(2);
const arg = (name: string) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const QUICK = argv.includes('--quick');
const LOAD_S = QUICK ? 10 : 30;
const SETTLE_MS = 5_000;
const FRESH_ONLY = argv.includes('--fresh-only');
const SERVER: 'compiled' | 'tsx' = arg('--server') === 'tsx' ? 'tsx' : 'compiled';
const ROOT = path.resolve(import.meta.dirname, '../..');
/** The node flags of the server child: the serve script's for the compiled server, none through tsx, unless given. */
const NODE_FLAGS: string[] = (() => {
  const given = arg('--node-options');
  if (given !== undefined) return given.split(/\s+/).filter(Boolean);
  return SERVER === 'compiled' ? serveNodeFlags() : [];
})();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));


/**
 * The server child on the database, demo off, listening on loopback (the data bench's environment):
 * `node <flags> dist-server/main.js` (what `npm start` runs) or `node <flags> --import tsx server/main.ts`.
 */
async function startServer(kind: Kind, dataDir: string, extraEnv: Record<string, string> = {}): Promise<ServerChild> {
  const port = await freePort();
  const env = benchServerEnv(
    { port, dataDir, jwtSecret: BENCH_JWT_SECRET, channelSecretKey: BENCH_CHANNEL_SECRET_KEY, databaseUrl: kind === 'postgres' ? PG_URL : undefined },
    // the compiled server as `npm start` runs it: with the serve script's environment (MALLOC_ARENA_MAX)
    SERVER === 'compiled' ? { ...serveEnv(), ...extraEnv } : extraEnv,
  );
  const args = SERVER === 'compiled' ? [...NODE_FLAGS, serverEntry()] : [...NODE_FLAGS, '--import', 'tsx', 'server/main.ts'];
  return spawnBenchServer(args, { cwd: ROOT, env, port });
}

async function withAdmin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const admin = new URL(PG_URL);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

interface Row {
  kind: Kind;
  freshStartS: number;
  freshIdleMb: number;
  /** The second start on the same fresh folder / database (nothing to create or migrate). */
  restartS: number;
  dataStartS: number | null;
  dataIdleMb: number | null;
  afterLoadMb: number | null;
  peakMb: number | null;
}

async function measure(kind: Kind): Promise<Row> {
  const extra: Record<string, string> = {};
  // 1. A fresh data folder (PGlite: initdb + migrations) or a fresh database (PostgreSQL: migrations).
  const freshDir = mkdtempSync(path.join(tmpdir(), 'bench-server-'));
  const freshUrl = new URL(PG_URL);
  freshUrl.pathname = '/bench_server_fresh';
  if (kind === 'postgres') {
    await withAdmin(async (c) => {
      await c.query('DROP DATABASE IF EXISTS bench_server_fresh WITH (FORCE)');
      await c.query('CREATE DATABASE bench_server_fresh');
    });
  }
  let server: ServerChild | null = null;
  let fresh: { startS: number; idleMb: number; restartS: number };
  try {
    const env = kind === 'postgres' ? { ...extra, DATABASE_URL: freshUrl.toString() } : extra;
    server = await startServer(kind, freshDir, env);
    await sleep(SETTLE_MS);
    const first = { startS: server.startMs / 1000, idleMb: server.rssMb() };
    await server.stop();
    server = await startServer(kind, freshDir, env);
    fresh = { ...first, restartS: server.startMs / 1000 };
    console.log(`  [${kind}] fresh: ready in ${fresh.startS.toFixed(1)} s, idle RSS ${fresh.idleMb.toFixed(0)} MB; restarted on it in ${fresh.restartS.toFixed(1)} s`);
  } finally {
    await server?.stop();
    rmSync(freshDir, { recursive: true, force: true });
    if (kind === 'postgres') await withAdmin((c) => c.query('DROP DATABASE IF EXISTS bench_server_fresh WITH (FORCE)'));
  }

  if (FRESH_ONLY) return { kind, freshStartS: fresh.startS, freshIdleMb: fresh.idleMb, restartS: fresh.restartS, dataStartS: null, dataIdleMb: null, afterLoadMb: null, peakMb: null };

  // 2. The data bench's million messages: idle, then under the request mix.
  const g = loadGenerated(kind) ?? (await prepare(kind));
  const scenarios = await scenariosFor(kind, g);
  server = await startServer(kind, kind === 'postgres' ? path.join('/tmp/bench-data', 'pg-data-dir') : PGLITE_DATA_DIR, extra);
  try {
    await sleep(SETTLE_MS);
    const dataIdleMb = server.rssMb();
    console.log(`  [${kind}] with the data: ready in ${(server.startMs / 1000).toFixed(1)} s, idle RSS ${dataIdleMb.toFixed(0)} MB; ${LOAD_S} s of load…`);
    let peakMb = dataIdleMb;
    const sampler = setInterval(() => (peakMb = Math.max(peakMb, server!.rssMb())), 500);
    const figures = await load(server, g, scenarios, LOAD_S);
    clearInterval(sampler);
    const errors = figures.reduce((n, f) => n + f.errors, 0);
    const p99 = Math.max(...figures.map((f) => f.p99));
    await sleep(SETTLE_MS);
    const afterLoadMb = server.rssMb();
    console.log(`  [${kind}] after the load (worst p99 ${p99.toFixed(1)} ms, ${errors} errors): RSS ${afterLoadMb.toFixed(0)} MB (peak ${peakMb.toFixed(0)} MB)`);
    return { kind, freshStartS: fresh.startS, freshIdleMb: fresh.idleMb, restartS: fresh.restartS, dataStartS: server.startMs / 1000, dataIdleMb, afterLoadMb, peakMb };
  } finally {
    await server.stop();
  }
}

async function main(): Promise<void> {
  const which = arg('--db');
  const kinds: Kind[] = which === 'postgres' || which === 'pglite' ? [which] : ['pglite', 'postgres'];
  const watchdog = setTimeout(() => {
    console.error('bench/server: watchdog (20 min) — stopping');
    process.exit(2);
  }, 20 * 60_000);
  watchdog.unref();
  const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  if (SERVER === 'compiled') await buildServer();
  const command = SERVER === 'compiled' ? `node ${[...NODE_FLAGS, path.relative(ROOT, serverEntry())].join(' ')}` : `node ${[...NODE_FLAGS, '--import tsx server/main.ts'].join(' ')}`;
  console.log(`server bench: ${kinds.join(' + ')}, ${command}, node ${process.version}, load average ${loadavg()}`);
  const rows: Row[] = [];
  for (const kind of kinds) rows.push(await measure(kind));
  const target = (kind: Kind) => (kind === 'pglite' ? 300 : 150);
  console.log(`\n  ${'database'.padEnd(10)} ${'fresh start'.padStart(11)} ${'fresh idle'.padStart(10)} ${'restart'.padStart(7)} ${'data start'.padStart(10)} ${'data idle'.padStart(9)} ${'after load'.padStart(10)} ${'peak'.padStart(6)}  idle target`);
  for (const r of rows) {
    console.log(
      `  ${r.kind.padEnd(10)} ${`${r.freshStartS.toFixed(1)} s`.padStart(11)} ${`${r.freshIdleMb.toFixed(0)} MB`.padStart(10)} ${`${r.restartS.toFixed(1)} s`.padStart(7)} ${(r.dataStartS === null ? '—' : `${r.dataStartS.toFixed(1)} s`).padStart(10)} ${(r.dataIdleMb === null ? '—' : `${r.dataIdleMb.toFixed(0)} MB`).padStart(9)} ${(r.afterLoadMb === null ? '—' : `${r.afterLoadMb.toFixed(0)} MB`).padStart(10)} ${(r.peakMb === null ? '—' : r.peakMb.toFixed(0)).padStart(6)}  < ${target(r.kind)} MB${r.freshIdleMb < target(r.kind) ? '' : '  (missed)'}`,
    );
  }
  console.log(`  load average at the end: ${loadavg()}`);
  clearTimeout(watchdog);
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
