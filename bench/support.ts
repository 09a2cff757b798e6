/** Pieces every bench uses: a free loopback port, a process's RSS, a seeded PRNG, a percentile, the bench server's environment. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import pg from 'pg';

/** A TCP port free on loopback now (the OS picks it; closed again before it is returned). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** Resident memory of a process in MiB, from /proc/<pid>/status (NaN when it is gone). */
export function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /VmRSS:\s+(\d+) kB/.exec(status);
  return match ? Number(match[1]) / 1024 : NaN;
}

/** mulberry32: a small seeded PRNG, so a run is the same every time. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The p-th percentile (nearest rank) of samples sorted in ascending order. */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/**
 * The environment of a bench's server child: loopback, demo off, the bench's own secrets (the bench signs
 * tokens and seals the bot key itself), long tokens, the per-socket rate limit out of the way, quiet logs.
 */
export function benchServerEnv(opts: { port: number; dataDir: string; jwtSecret: string; channelSecretKey: string; databaseUrl?: string }, extraEnv: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/tmp',
    PORT: String(opts.port),
    HOST: '127.0.0.1',
    DEMO_MODE: 'false',
    SEED_DEMO: 'false',
    DATA_DIR: opts.dataDir,
    JWT_SECRET: opts.jwtSecret,
    CHANNEL_SECRET_KEY: opts.channelSecretKey,
    ACCESS_TOKEN_TTL: '7200',
    LOG_LEVEL: 'warn',
    MEDIA_SWEEP_INTERVAL_MS: '0',
    REALTIME_RATE_LIMIT: '100000',
    REALTIME_RATE_BURST: '100000',
    ...(opts.databaseUrl ? { DATABASE_URL: opts.databaseUrl } : {}),
    ...extraEnv,
  };
}

export interface ServerChild {
  child: ChildProcess;
  port: number;
  base: string;
  /** From spawn to the first answered /api/health/. */
  startMs: number;
  rssMb(): number;
  stop(): Promise<void>;
}

/** Spawns `node <args>` as a bench's server child and waits (180 s at most) until it answers /api/health/. */
export async function spawnBenchServer(args: string[], opts: { cwd: string; env: Record<string, string>; port: number }): Promise<ServerChild> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const base = `http://127.0.0.1:${opts.port}`;
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${output.slice(-2000)}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the server did not answer within 180 s:\n${output.slice(-2000)}`);
    }
    const ok = await fetch(`${base}/api/health/`).then((r) => r.ok, () => false);
    if (ok) break;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  const startMs = performance.now() - started;
  return {
    child,
    port: opts.port,
    base,
    startMs,
    rssMb: () => rssOf(child.pid!),
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * A RateLimiter that never limits, for benches of what the limits exist to stop (thousands of sockets as a few
 * users, server/core/realtime/limits.ts): with them on, bench/realtime died at socket 59 with HTTP 429.
 */
export const UNLIMITED_RATE_LIMITER = {
  check: async () => ({ limited: false, retryAfterSeconds: 0, count: 0 }),
  hit: async () => ({ limited: false, retryAfterSeconds: 0, count: 0 }),
  reset: async () => undefined,
};

/**
 * A database of its own on the PostgreSQL server `url` names (`<name>_<pid>_<n>`, created empty), dropped by `drop()`:
 * a bench whose engine works on every row of its database (the broadcast engine sends every `sending` broadcast) never
 * meets what an earlier or interrupted run left behind.
 */
let scratchCount = 0;
export async function scratchPostgres(url: string): Promise<{ url: string; drop(): Promise<void> }> {
  const target = new URL(url);
  const name = `${target.pathname.slice(1) || 'bench'}_${process.pid}_${++scratchCount}`.replace(/[^a-z0-9_]/gi, '_').toLowerCase();
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const run = async (statement: string) => {
    const client = new pg.Client({ connectionString: admin.toString() });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await run(`CREATE DATABASE "${name}"`);
  target.pathname = `/${name}`;
  return { url: target.toString(), drop: () => run(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}
