/**
 * A cluster as docs/deploy.md describes it, on this machine: N built server processes (`npm run build`'s
 * dist-server/main.js, run with the `serve` script's flags) started at the same moment on a fresh PostgreSQL
 * database and one Redis (a key prefix of their own), with the same JWT_SECRET and CHANNEL_SECRET_KEY, media
 * in one shared folder (MEDIA_SHARED=true), and HAProxy round-robin in front running docs/haproxy.cfg.
 * Meta is a fake running here (server/providers/meta/fake), outside the processes, so it outlives a killed
 * process and counts every message any of them sends. Used by tests/cluster and bench/cluster.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { Redis } from 'ioredis';
import { serveEnv, serveNodeFlags, serverEntry } from '../../../scripts/build-server.mjs';
import { clusterServiceUrls } from '../../../scripts/cluster-services.mjs';
import { startFakeMeta, type StartedFakeMeta } from '../../../server/providers/meta/fake/fakeMeta';
import { HAPROXY_CONFIG, haproxyConfig } from './haproxyConfig';
import { freePort, withDatabase } from '../../../server/testing/network';

const ROOT = path.resolve(import.meta.dirname, '../../..');
export const DEMO_PASSWORD = 'Demo-Console-2026';
export const AGENT = { email: 'agent@demo.test', password: DEMO_PASSWORD };
export const ADMIN = { email: 'admin@demo.test', password: DEMO_PASSWORD };
export const DEMO_COMPANY = 'Demo Company';

export interface ServerProcess {
  name: string;
  port: number;
  /** http://127.0.0.1:port: this process alone, past the balancer. */
  url: string;
  child: ChildProcess;
  /** The last 100 kB of its stdout and stderr. */
  output: string;
  env: Record<string, string>;
}

export interface Cluster {
  /** The balancer: http://127.0.0.1:port. */
  url: string;
  processes: ServerProcess[];
  databaseUrl: string;
  redisUrl: string;
  redisPrefix: string;
  fake: StartedFakeMeta;
  appSecret: string;
  channelSecretKey: string;
  /** One client on the cluster's database, for setting up and checking what the processes stored. */
  db: pg.Client;
  redis: Redis;
  /** Starts a process again with its environment (after a kill or a stop) and waits until it is ready. */
  restart(server: ServerProcess): Promise<void>;
  stop(): Promise<void>;
}

async function adminQuery(maintenanceUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: maintenanceUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function spawnServer(server: ServerProcess): void {
  const outDir = process.env.CLUSTER_SERVER_DIR;
  if (!outDir) throw new Error('CLUSTER_SERVER_DIR is not set: run through the cluster project (tests/cluster/globalSetup.ts)');
  // What `npm run serve` runs: node with the serve script's flags and environment defaults, on the built server.
  const child = spawn(process.execPath, [...serveNodeFlags(), serverEntry(outDir)], {
    cwd: ROOT,
    env: { ...process.env, ...serveEnv(), ...server.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.child = child;
  server.output = '';
  const keep = (chunk: Buffer) => {
    server.output = (server.output + chunk.toString()).slice(-100_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
}

/** Until GET /api/ready/ answers 200 on this process (a budget against a hang, not a measure). */
export async function waitReady(server: ServerProcess, budgetMs = 120_000): Promise<unknown> {
  const end = Date.now() + budgetMs;
  for (;;) {
    if (server.child.exitCode !== null || server.child.signalCode !== null) {
      throw new Error(`server ${server.name} exited (${server.child.exitCode ?? server.child.signalCode}):\n${server.output.slice(-4000)}`);
    }
    const res = await fetch(`${server.url}/api/ready/`).catch(() => null);
    if (res?.status === 200) return res.json();
    await res?.body?.cancel();
    if (Date.now() > end) throw new Error(`server ${server.name} not ready within ${budgetMs} ms:\n${server.output.slice(-4000)}`);
    await sleep(100);
  }
}

async function stopServer(server: ServerProcess): Promise<void> {
  const { child } = server;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  // SHUTDOWN_GRACE_MS (set short below) + the background work's 5 s, then no more waiting.
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

export interface ClusterOptions {
  processes: number;
  /** Names the database (`test_<name>_<random>`), the Redis prefix and the temp folder. */
  name: string;
  /** Extra environment for every process. */
  env?: Record<string, string>;
}

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const { databaseUrl: maintenanceUrl, redisUrl } = clusterServiceUrls();
  const run = randomBytes(5).toString('hex');
  const dbName = `test_${options.name}_${run}`;
  const databaseUrl = withDatabase(maintenanceUrl, dbName);
  const redisPrefix = `test-${options.name}-${run}`;
  const dir = mkdtempSync(path.join(tmpdir(), `${options.name}-`));
  const appSecret = randomBytes(24).toString('base64url');
  const channelSecretKey = randomBytes(32).toString('base64');
  const cleanups: (() => Promise<unknown> | unknown)[] = [() => rmSync(dir, { recursive: true, force: true })];
  const processes: ServerProcess[] = [];
  let haproxy: ChildProcess | null = null;
  let haproxyOutput = '';

  const stop = async () => {
    await Promise.allSettled(processes.map(stopServer));
    if (haproxy && haproxy.exitCode === null) {
      const exited = new Promise((resolve) => haproxy!.once('exit', resolve));
      haproxy.kill('SIGTERM');
      await exited;
    }
    for (const cleanup of cleanups.reverse()) await Promise.resolve().then(cleanup).catch(() => undefined);
  };

  try {
    await adminQuery(maintenanceUrl, `CREATE DATABASE "${dbName}"`);
    cleanups.push(() => adminQuery(maintenanceUrl, `DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`));
    const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
    cleanups.push(async () => {
      // Every key the processes wrote is under their REDIS_PREFIX (realtime, presence, limits, pacing).
      const stream = redis.scanStream({ match: `${redisPrefix}:*`, count: 500 });
      for await (const keys of stream) if ((keys as string[]).length) await redis.del(...(keys as string[]));
      await redis.quit();
    });

    const balancerPort = await freePort();
    const balancer = `http://127.0.0.1:${balancerPort}`;
    const fake = await startFakeMeta({ appId: 'local-fake-app', appSecret, autoStatuses: false, webhookUrl: () => `${balancer}/api/webhooks/meta/` });
    cleanups.push(() => fake.close());

    // One media folder for all, mounted (here: linked) as each process's DATA_DIR/media, as on a shared volume.
    const media = path.join(dir, 'shared-media');
    mkdirSync(media);
    const common: Record<string, string> = {
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      REDIS_PREFIX: redisPrefix,
      JWT_SECRET: randomBytes(36).toString('base64url'),
      CHANNEL_SECRET_KEY: channelSecretKey,
      MEDIA_SHARED: 'true',
      HOST: '127.0.0.1',
      PUBLIC_URL: balancer,
      TRUST_PROXY: '1',
      // TRUST_PROXY alone turns the demo off (docs/deploy.md); the fakes (Google, the sandbox's demo) and the
      // demo users are wanted here, and Meta is the fake running in this process (META_GRAPH_URL).
      DEMO_MODE: 'true',
      META_GRAPH_URL: fake.graphUrl,
      META_APP_SECRET: appSecret,
      DEMO_PASSWORD,
      PASSWORD_HASH_COST: String(2 ** 12),
      STATIC_DIR: path.join(dir, 'no-console'),
      LOG_LEVEL: 'warn',
      SHUTDOWN_GRACE_MS: '2000',
      ...options.env,
    };
    const ports = await Promise.all(Array.from({ length: options.processes }, () => freePort()));
    ports.forEach((port, i) => {
      const name = String.fromCharCode(97 + i);
      const dataDir = path.join(dir, name);
      mkdirSync(dataDir);
      symlinkSync(media, path.join(dataDir, 'media'));
      // The demo users and companies are seeded by one process (a deployment seeds nothing: SEED_DEMO is the demo's).
      const env = { ...common, PORT: String(port), DATA_DIR: dataDir, SEED_DEMO: i === 0 ? 'true' : 'false' };
      processes.push({ name, port, url: `http://127.0.0.1:${port}`, env, output: '', child: null as unknown as ChildProcess });
    });
    // All at the same moment, on the empty database: the migrations' advisory lock lets every one come up.
    for (const server of processes) spawnServer(server);
    await Promise.all(processes.map((server) => waitReady(server)));

    const configFile = path.join(dir, 'haproxy.cfg');
    writeFileSync(configFile, haproxyConfig(readFileSync(HAPROXY_CONFIG, 'utf8'), balancerPort, ports));
    haproxy = spawn(process.env.HAPROXY_PATH || 'haproxy', ['-db', '-f', configFile], { stdio: ['ignore', 'pipe', 'pipe'] });
    const keep = (chunk: Buffer) => {
      haproxyOutput = (haproxyOutput + chunk.toString()).slice(-20_000);
    };
    haproxy.stdout?.on('data', keep);
    haproxy.stderr?.on('data', keep);
    const end = Date.now() + 30_000;
    for (;;) {
      if (haproxy.exitCode !== null) throw new Error(`haproxy exited (${haproxy.exitCode}):\n${haproxyOutput}`);
      const res = await fetch(`${balancer}/api/ready/`).catch(() => null);
      if (res?.status === 200) break;
      await res?.body?.cancel();
      if (Date.now() > end) throw new Error(`the balancer did not answer within 30 s:\n${haproxyOutput}`);
      await sleep(100);
    }

    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    cleanups.push(() => db.end());

    return {
      url: balancer,
      processes,
      databaseUrl,
      redisUrl,
      redisPrefix,
      fake,
      appSecret,
      channelSecretKey,
      db,
      redis,
      async restart(server) {
        await stopServer(server);
        spawnServer(server);
        await waitReady(server);
      },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

export interface Auth {
  access: string;
  companyId: number;
  userId: number;
}

export async function login(baseUrl: string, user: { email: string; password: string }): Promise<Auth> {
  const res = await fetch(`${baseUrl}/account/login/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(user) });
  if (!res.ok) throw new Error(`login of ${user.email} failed: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { access: string; user: { id: number; companies: { id: number; name: string }[] } };
  const company = body.user.companies.find((c) => c.name === DEMO_COMPANY);
  if (!company) throw new Error(`${user.email} is not a member of ${DEMO_COMPANY}`);
  return { access: body.access, companyId: company.id, userId: body.user.id };
}

/** A JSON API call as the console makes it (bearer token and Company header). */
export async function api<T>(baseUrl: string, auth: Auth, method: string, url: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(`${baseUrl}${url}`, {
    method,
    headers: { Authorization: `Bearer ${auth.access}`, Company: String(auth.companyId), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
}

/** The Demo Company's sandbox: its simulator key (the customer's side of the API). */
export async function sandboxKey(baseUrl: string, auth: Auth): Promise<string> {
  const res = await api<{ simulator_url: string }>(baseUrl, auth, 'GET', '/api/sandbox/');
  if (res.status !== 200) throw new Error(`GET /api/sandbox/: ${res.status}`);
  return new URL(res.body.simulator_url).pathname.split('/').filter(Boolean).pop()!;
}

export interface SimulatorMessage {
  id: number;
  room_id: number;
  origin: string;
  text: string | null;
  client_id: string | null;
}

/** A customer of the sandbox writes (POST /api/sandbox/<key>/conversations/<customer>/messages/). */
export async function customerWrites(baseUrl: string, key: string, customer: string, text: string, clientId?: string): Promise<SimulatorMessage> {
  const res = await fetch(`${baseUrl}/api/sandbox/${key}/conversations/${encodeURIComponent(customer)}/messages/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: customer, text, client_id: clientId ?? `c-${randomBytes(6).toString('hex')}` }),
  });
  const body = await res.text();
  if (res.status !== 201 && res.status !== 200) throw new Error(`the customer's message: ${res.status} ${body}`);
  return (JSON.parse(body) as { message: SimulatorMessage }).message;
}

/** What the customer's simulator page shows of the conversation. */
export async function conversation(baseUrl: string, key: string, customer: string): Promise<SimulatorMessage[]> {
  const res = await fetch(`${baseUrl}/api/sandbox/${key}/conversations/${encodeURIComponent(customer)}/messages/`);
  if (!res.ok) throw new Error(`the customer's conversation: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { messages: SimulatorMessage[] }).messages;
}
