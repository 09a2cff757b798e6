/**
 * Multi-process mode of the realtime benchmark (`run.ts --processes 2`): two hub server processes
 * on one PostgreSQL database and one Redis fan-out, and the client sockets split over two client
 * processes, so that no process holds more than about half the sockets (`ulimit -n` is per process).
 *
 *   npx tsx bench/realtime/run.ts --processes 2 [--sockets N] [--users K] [--quick] [--no-baseline]
 *
 * Environment: BENCH_REDIS_URL (default redis://127.0.0.1:6379), BENCH_DATABASE_URL (else
 * TEST_DATABASE_URL, else postgres://127.0.0.1:5432/test): a database `bench_rt_<random>` is created
 * on that server for the run and dropped at the end; Redis keys use the prefix `bench-rt-<random>`.
 *
 * Layout (all on 127.0.0.x loopback):
 * - this process: the orchestrator (no load sockets; one phoenix.js pair for the sanity check);
 * - server child 0 and 1: the app built like server/testing/testApp.ts builds it, but on the shared
 *   PostgreSQL database and with REDIS fan-out, each listening on its own port, with the same
 *   `bench:*` channel as run.ts (join ok without the database, `pub` re-broadcast as `msg`).
 *   Server 0 applies the migrations, seeds and signs the users in; server 1 accepts its tokens
 *   (same JWT secret, same sessions table);
 * - client child 0 and 1: socket i lives in client process i mod 2 and connects to server
 *   floor(i / 2) mod 2, so each room (consecutive sockets) has subscribers on both servers and in
 *   both client processes.
 * With Redis every broadcast goes through Redis, for the publisher's own process as well (the hub
 * publishes and each process delivers what it receives from its subscription): a delivery to a
 * subscriber on the other server process is one Redis publish + one subscription message away.
 *
 * Latency is timed across processes with process.hrtime (CLOCK_MONOTONIC, system-wide on Linux):
 * the publisher stamps the send, every client process records per message how many subscribers got
 * it and when the last one did; the orchestrator merges these after each phase (no IPC on the
 * delivery path).
 *
 * Then, unless --no-baseline, the same measurement with ONE server process without Redis (same
 * database, same two client processes) at min(N, 10,000) sockets, for the comparison.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpus, userInfo } from 'node:os';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { SocketConnectOption } from 'phoenix';
import WebSocket, { type RawData } from 'ws';
import { topicAccess } from '../../server/core/access/topics';
import { UNLIMITED_RATE_LIMITER } from '../support';

// ---------------------------------------------------------------- arguments

const argv = process.argv.slice(2);
function argValue(name: string): string | undefined {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
}
const QUICK = argv.includes('--quick');
const BASELINE = !argv.includes('--no-baseline');
const SOCKETS = Math.max(50, Number(argValue('--sockets') ?? (QUICK ? 500 : 2000)) || 2000);
const USERS = Math.min(SOCKETS, Math.max(1, Number(argValue('--users') ?? 1) || 1));
const SERVER_PROCESSES = 2;
const CLIENT_PROCESSES = 2;
/** A single server process holds at most this many sockets in the baseline (fd limit 20,000 per process). */
const BASELINE_MAX = 10_000;
const BIG_TOPIC_MAX = 10_000;
const ROOM_MIN = 20;
const ROOM_MAX = 50;
const RATES = QUICK ? [2_000] : [10_000, 20_000];
const LATENCY_SECONDS = QUICK ? 3 : 10;
const BIG_ROUNDS = QUICK ? 3 : 5;
const SOURCE_ADDRESSES = 20;
/** In total over both client processes, as in the single-process run. */
const CONNECT_CONCURRENCY = 200;
const JOIN_WINDOW = 1_000;
const WATCHDOG_MS = QUICK ? 240_000 : 1_200_000;
const REDIS_URL = process.env.BENCH_REDIS_URL || 'redis://127.0.0.1:6379';
const DATABASE_URL = withUser(process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || 'postgres://127.0.0.1:5432/test');
/** pg needs a user name: the OS user's when the URL has none (as psql does). */
function withUser(url: string): string {
  const u = new URL(url);
  if (!u.username) u.username = process.env.PGUSER || userInfo().username;
  return u.toString();
}
const RUN_FILE = fileURLToPath(new URL('./run.ts', import.meta.url));

/** Milliseconds on the system-wide monotonic clock: comparable between processes of this machine. */
const now = () => Number(process.hrtime.bigint()) / 1e6;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}
const fmtMs = (v: number) => (Number.isFinite(v) ? `${v.toFixed(2)} ms` : 'n/a');
const mb = (v: number) => `${(v / 1024 / 1024).toFixed(1)} MB`;

interface Mem {
  rss: number;
  heapUsed: number;
  sockets: number;
  gc: boolean;
}

async function gcAndMeasure(sockets: number): Promise<Mem> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) {
    for (let i = 0; i < 3; i++) {
      gc();
      await sleep(50);
    }
  }
  const mem = process.memoryUsage();
  return { rss: mem.rss, heapUsed: mem.heapUsed, sockets, gc: Boolean(gc) };
}

// ---------------------------------------------------------------- IPC: request / answer

type Handler = (args: Record<string, unknown>) => Promise<unknown> | unknown;

/** In a child: answers `{seq, type, args}` requests with `{seq, result}` (or `{seq, error}`). */
function serveRequests(handlers: Record<string, Handler>): void {
  process.on('message', async (m: { seq: number; type: string; args: Record<string, unknown> }) => {
    try {
      const result = await handlers[m.type](m.args ?? {});
      process.send!({ seq: m.seq, result });
    } catch (err) {
      process.send!({ seq: m.seq, error: String((err as Error)?.stack ?? err) });
    }
  });
  process.on('disconnect', () => process.exit(0));
}

class Child {
  private seq = 1;
  private waiters = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  readonly exited: Promise<number | null>;

  private constructor(
    readonly name: string,
    readonly child: ChildProcess,
  ) {
    child.on('message', (m: { seq?: number; result?: unknown; error?: string }) => {
      if (m.seq === undefined) return;
      const w = this.waiters.get(m.seq);
      if (!w) return;
      this.waiters.delete(m.seq);
      if (m.error !== undefined) w.reject(new Error(`${name}: ${m.error}`));
      else w.resolve(m.result);
    });
    this.exited = new Promise((resolve) =>
      child.once('exit', (code) => {
        for (const w of this.waiters.values()) w.reject(new Error(`${name} exited (code ${code})`));
        this.waiters.clear();
        resolve(code);
      }),
    );
  }

  static start(name: string, role: string, extra: string[] = [], env: Record<string, string> = {}): Child {
    const child = fork(RUN_FILE, ['--role', role, ...extra], {
      execArgv: [...process.execArgv, '--expose-gc', '--max-old-space-size=4096'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: { ...process.env, ...env },
    });
    return new Child(name, child);
  }

  call<T>(type: string, args: Record<string, unknown> = {}): Promise<T> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return Promise.reject(new Error(`${this.name} is not running`));
    const seq = this.seq++;
    return new Promise<T>((resolve, reject) => {
      this.waiters.set(seq, { resolve: resolve as (v: unknown) => void, reject });
      this.child.send({ seq, type, args });
    });
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.call('stop').catch(() => {});
    await Promise.race([this.exited, sleep(5_000)]);
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}

// ================================================================= server child

export async function runMultiServer(): Promise<void> {
  const seed = argv.includes('--seed');
  const withRedis = argv.includes('--redis');
  await import('reflect-metadata');
  const { testConfig, DEFAULT_REALTIME_CONFIG } = await import('../../server/core/config');
  const { openPostgres } = await import('../../server/core/db/client');
  const { applyMigrations } = await import('../../server/core/db/migrate');
  const { buildApp } = await import('../../server/core/app');
  const { serverPlugins } = await import('../../server/plugins.config');
  const { ManualClock } = await import('../../server/core/clock');
  const { OutboxEmailSender } = await import('../../server/providers/email/outboxSender');
  const { hashPassword } = await import('../../server/core/auth/passwords');
  const { companies, memberships, users } = await import('../../server/core/db/schema');
  const { TEST_PASSWORD } = await import('../../server/testing/testApp');
  type Hub = import('../../server/core/realtime/types').RealtimeHub;

  const database = await openPostgres(process.env.BENCH_RT_DB_URL!);
  if (seed) await applyMigrations(database);
  const { db } = database;
  const config = testConfig({
    redisUrl: withRedis ? REDIS_URL : null,
    realtime: {
      ...DEFAULT_REALTIME_CONFIG,
      rateLimitPerSecond: 1e9,
      rateLimitBurst: 1e9,
      rateLimitCloseAfter: 1e9,
      idleTimeoutMs: 24 * 3600_000,
      redisPrefix: process.env.BENCH_RT_REDIS_PREFIX!,
    },
  });
  const clock = new ManualClock();
  const outboxSender = new OutboxEmailSender(db, clock);
  const app = await buildApp({ config, db, plugins: serverPlugins, overrides: { Clock: clock, Outbox: outboxSender, EmailSender: outboxSender, RateLimiter: UNLIMITED_RATE_LIMITER } });
  const hub: Hub = app.realtime;
  hub.registerChannel('bench', topicAccess.member('benchmark topic: its suffix names no resource'), {
    async join() {
      return { status: 'ok', response: {} };
    },
    async handleIn(event, payload, ctx) {
      if (event === 'pub') await hub.broadcast(ctx.topic, 'msg', payload);
      return undefined;
    },
  });
  await app.ready();

  const queries: string[] = [];
  if (seed) {
    const [company] = await db.insert(companies).values({ name: 'Bench Co' }).returning({ id: companies.id });
    const passwordHash = await hashPassword(TEST_PASSWORD, config.passwordHashCost);
    for (let u = 0; u < USERS; u++) {
      const email = u === 0 ? 'bench@example.com' : `bench-${u}@example.com`;
      const [user] = await db.insert(users).values({ email, firstName: 'Bench', lastName: 'User', passwordHash }).returning({ id: users.id });
      await db.insert(memberships).values({ companyId: company.id, userId: user.id, role: 'agent' });
      const res = await app.inject({ method: 'POST', url: '/account/login/', payload: { email, password: TEST_PASSWORD } });
      if (res.statusCode !== 200) throw new Error(`login of ${email} failed: ${res.statusCode} ${res.body}`);
      const { access } = res.json() as { access: string };
      queries.push(`/socket/websocket?vsn=2.0.0&token=${encodeURIComponent(access)}&company_id=${company.id}`);
    }
  }
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  serveRequests({
    mem: () => gcAndMeasure(hub.socketCount()),
    sockets: () => hub.socketCount(),
    stop: async () => {
      const closing = app.close();
      app.server.closeAllConnections?.();
      await closing.catch(() => {});
      await database.close().catch(() => {});
      setImmediate(() => process.exit(0));
    },
  });
  process.send!({ ready: true, port, queries });
}

// ================================================================= client child

interface Layout {
  sockets: number;
  servers: number;
}

/** Rooms of 20–50 consecutive sockets (as in run.ts). */
function roomsOf(sockets: number): Array<{ topic: string; first: number; size: number }> {
  const rooms: Array<{ topic: string; first: number; size: number }> = [];
  for (let i = 0, r = 0; i < sockets; r++) {
    let size = ROOM_MIN + ((r * 7) % (ROOM_MAX - ROOM_MIN + 1));
    if (sockets - (i + size) < ROOM_MIN) size = sockets - i;
    rooms.push({ topic: `bench:room-${r}`, first: i, size });
    i += size;
  }
  return rooms;
}
const clientOf = (i: number) => i % CLIENT_PROCESSES;
const serverOf = (i: number, servers: number) => Math.floor(i / CLIENT_PROCESSES) % servers;

export async function runMultiClient(): Promise<void> {
  const me = Number(argValue('--index'));
  let layout: Layout = { sockets: 0, servers: 1 };
  let ports: number[] = [];
  let queries: string[] = [];
  /** Global socket index → socket, for this process's sockets only. */
  const sockets = new Map<number, { ws: WebSocket; roomJoinRef: string; bigJoinRef: string | null; room: string }>();
  const mine: number[] = [];
  const receipts = new Map<number, { count: number; last: number }>();
  let nextRef = 1;
  let nextId = me + 1; // ids of client c are c+1, c+1+C, … (distinct between client processes)
  const joinWaiters = new Map<string, () => void>();

  const onMessage = (data: RawData) => {
    const frame = JSON.parse(String(data)) as [string | null, string | null, string, string, Record<string, unknown>];
    const event = frame[3];
    if (event === 'msg') {
      const t = now();
      const id = frame[4].id as number;
      const r = receipts.get(id);
      if (r) {
        r.count++;
        r.last = t;
      } else receipts.set(id, { count: 1, last: t });
    } else if (event === 'phx_reply' && frame[1] !== null) {
      const waiter = joinWaiters.get(frame[1]);
      if (waiter) {
        joinWaiters.delete(frame[1]);
        if ((frame[4] as { status?: string }).status !== 'ok') console.error(`join refused on ${frame[2]}: ${JSON.stringify(frame[4])}`);
        waiter();
      }
    }
  };

  const connectOne = (i: number) =>
    new Promise<void>((resolve, reject) => {
      const ws = new WebSocket(`ws://127.0.0.1:${ports[serverOf(i, layout.servers)]}${queries[i % queries.length]}`, {
        localAddress: `127.0.0.${1 + (i % SOURCE_ADDRESSES)}`,
        perMessageDeflate: false,
      });
      ws.once('open', () => {
        ws.on('message', onMessage);
        const old = sockets.get(i);
        sockets.set(i, { ws, roomJoinRef: '', bigJoinRef: null, room: old?.room ?? '' });
        resolve();
      });
      ws.once('unexpected-response', (_req, res) => reject(new Error(`socket ${i}: HTTP ${res.statusCode}`)));
      ws.on('error', (err: NodeJS.ErrnoException) => reject(err));
    });

  const rooms = () => roomsOf(layout.sockets);
  const publish = (i: number, topic: string, joinRef: string, id: number) => {
    sockets.get(i)!.ws.send(JSON.stringify([joinRef, String(nextRef++), topic, 'pub', { id, t: now() }]));
  };

  serveRequests({
    setup(args) {
      layout = args.layout as Layout;
      ports = args.ports as number[];
      queries = args.queries as string[];
      mine.length = 0;
      for (let i = 0; i < layout.sockets; i++) if (clientOf(i) === me) mine.push(i);
      for (const room of rooms()) for (let i = room.first; i < room.first + room.size; i++) if (clientOf(i) === me) sockets.set(i, { ws: null as unknown as WebSocket, roomJoinRef: '', bigJoinRef: null, room: room.topic });
      return mine.length;
    },
    async connect(args) {
      const concurrency = args.concurrency as number;
      const start = now();
      let next = 0;
      let failed: Error | null = null;
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (!failed && next < mine.length) {
            const i = mine[next++];
            await connectOne(i).catch((err: Error) => (failed ??= err));
          }
        }),
      );
      if (failed) throw failed;
      return { start, end: now(), count: mine.length };
    },
    drop() {
      for (const s of sockets.values()) s.ws?.terminate();
      return true;
    },
    async join(args) {
      const bigSize = args.bigSize as number;
      const window = args.window as number;
      const jobs: Array<() => Promise<void>> = [];
      const sendJoin = (ws: WebSocket, ref: string, topic: string) =>
        new Promise<void>((resolve) => {
          joinWaiters.set(ref, resolve);
          ws.send(JSON.stringify([ref, ref, topic, 'phx_join', {}]));
        });
      for (const i of mine) {
        const s = sockets.get(i)!;
        jobs.push(() => sendJoin(s.ws, (s.roomJoinRef = String(nextRef++)), s.room));
      }
      for (const i of mine) {
        if (i >= bigSize) break;
        const s = sockets.get(i)!;
        jobs.push(() => sendJoin(s.ws, (s.bigJoinRef = String(nextRef++)), 'bench:big'));
      }
      const start = now();
      let next = 0;
      await Promise.all(
        Array.from({ length: window }, async () => {
          while (next < jobs.length) await jobs[next++]();
        }),
      );
      return { start, end: now(), joins: jobs.length };
    },
    /** Publishes in rooms for `seconds` at `rate` deliveries/s (this process's share), round-robin over rooms, from its own members. */
    async publishRooms(args) {
      const rate = args.rate as number;
      const seconds = args.seconds as number;
      const all = rooms();
      const mineByRoom = all.map((room) => {
        const members: number[] = [];
        for (let i = room.first; i < room.first + room.size; i++) if (clientOf(i) === me) members.push(i);
        return { topic: room.topic, size: room.size, members, next: 0 };
      });
      const sent: Array<[number, number, number]> = []; // id, t0, expected
      let deliveries = 0;
      let cursor = me; // the two processes start on different rooms
      const start = now();
      const end = start + seconds * 1000;
      while (now() < end) {
        const due = ((now() - start) / 1000) * rate;
        while (deliveries < due) {
          const room = mineByRoom[cursor++ % mineByRoom.length];
          if (room.members.length === 0) continue;
          const i = room.members[room.next++ % room.members.length];
          const id = nextId;
          nextId += CLIENT_PROCESSES;
          const t0 = now();
          sent.push([id, t0, room.size]);
          sockets.get(i)!.ws.send(JSON.stringify([sockets.get(i)!.roomJoinRef, String(nextRef++), room.topic, 'pub', { id, t: t0 }]));
          deliveries += room.size;
        }
        await sleep(5);
      }
      return { sent, start, end: now() };
    },
    publishBig(args) {
      const bigSize = args.bigSize as number;
      const round = args.round as number;
      const candidates = mine.filter((i) => i < bigSize);
      const i = candidates[round % candidates.length];
      const id = nextId;
      nextId += CLIENT_PROCESSES;
      const t0 = now();
      publish(i, 'bench:big', sockets.get(i)!.bigJoinRef!, id);
      return { id, t0 };
    },
    /** Receipts ([id, count, last]) of the given ids, or all. */
    stats(args) {
      const ids = args.ids as number[] | undefined;
      if (ids) return ids.map((id) => [id, receipts.get(id)?.count ?? 0, receipts.get(id)?.last ?? 0]);
      return [...receipts].map(([id, r]) => [id, r.count, r.last]);
    },
    resetStats() {
      receipts.clear();
      return true;
    },
    mem: () => gcAndMeasure([...sockets.values()].filter((s) => s.ws && s.ws.readyState === WebSocket.OPEN).length),
    stop() {
      for (const s of sockets.values()) s.ws?.terminate();
      setTimeout(() => process.exit(0), 100);
      return true;
    },
  });
  process.send!({ ready: true });
}

// ================================================================= orchestrator

interface PassFigures {
  label: string;
  sockets: number;
  servers: number;
  perServer: Array<{ sockets: number; before: Mem; after: Mem }>;
  perClient: Array<{ sockets: number; before: Mem; after: Mem }>;
  connectPerS: number;
  reconnectPerS: number;
  joins: number;
  joinSeconds: number;
  phases: Array<{ rate: number; rooms: number; publishes: number; deliveries: number; achieved: number; lost: number; p50: number; p99: number; max: number }>;
  bigSize: number;
  bigTimes: number[];
}

async function startServer(name: string, redis: boolean, seed: boolean, env: Record<string, string>): Promise<{ child: Child; port: number; queries: string[] }> {
  const child = Child.start(name, 'mp-server', [...(redis ? ['--redis'] : []), ...(seed ? ['--seed'] : []), '--users', String(USERS), '--sockets', String(SOCKETS)], env);
  const ready = await new Promise<{ port: number; queries: string[] }>((resolve, reject) => {
    child.child.on('message', (m: { ready?: boolean; port: number; queries: string[] }) => m.ready && resolve(m));
    void child.exited.then((code) => reject(new Error(`${name} exited early (code ${code})`)));
  });
  return { child, ...ready };
}

async function startClient(name: string, index: number): Promise<Child> {
  const child = Child.start(name, 'mp-client', ['--index', String(index)]);
  await new Promise<void>((resolve, reject) => {
    child.child.on('message', (m: { ready?: boolean }) => m.ready && resolve());
    void child.exited.then((code) => reject(new Error(`${name} exited early (code ${code})`)));
  });
  return child;
}

/** phoenix.js on server 1 joined to a topic gets a `pub` pushed by phoenix.js on server 0: the Redis path works. */
async function crossProcessSanity(ports: number[], query: string): Promise<string> {
  const { Socket } = await import('phoenix');
  const params = new URLSearchParams(query.split('?')[1]);
  const make = (port: number) =>
    new Socket(`ws://127.0.0.1:${port}/socket`, {
      transport: WebSocket as unknown as SocketConnectOption['transport'],
      params: { token: params.get('token'), company_id: params.get('company_id') },
      reconnectAfterMs: () => 1_000,
    });
  const [a, b] = [make(ports[0]), make(ports[1])];
  try {
    return await new Promise<string>((resolve) => {
      const timer = setTimeout(() => resolve('FAILED (timeout)'), 10_000);
      a.connect();
      b.connect();
      const onB = b.channel('bench:sanity', {});
      onB.on('msg', (payload: { id?: number }) => {
        clearTimeout(timer);
        resolve(payload.id === -2 ? 'ok (phoenix.js on server 0 pushed, phoenix.js on server 1 received through Redis)' : 'FAILED (wrong payload)');
      });
      onB
        .join()
        .receive('ok', () => {
          const onA = a.channel('bench:sanity', {});
          onA
            .join()
            .receive('ok', () => onA.push('pub', { id: -2 }))
            .receive('error', (r: unknown) => resolve(`FAILED (join on 0: ${JSON.stringify(r)})`));
        })
        .receive('error', (r: unknown) => resolve(`FAILED (join on 1: ${JSON.stringify(r)})`));
    });
  } finally {
    a.disconnect();
    b.disconnect();
  }
}

async function measurePass(label: string, servers: Array<{ child: Child; port: number }>, queries: string[], sockets: number): Promise<PassFigures> {
  const clients = await Promise.all(Array.from({ length: CLIENT_PROCESSES }, (_, c) => startClient(`client ${c}`, c)));
  try {
    const layout: Layout = { sockets, servers: servers.length };
    const counts = await Promise.all(clients.map((c) => c.call<number>('setup', { layout, ports: servers.map((s) => s.port), queries })));
    const serverSockets = servers.map((_, k) => Array.from({ length: sockets }, (_, i) => i).filter((i) => serverOf(i, servers.length) === k).length);
    const serverBefore = await Promise.all(servers.map((s) => s.child.call<Mem>('mem')));
    const clientBefore = await Promise.all(clients.map((c) => c.call<Mem>('mem')));
    const concurrency = Math.ceil(CONNECT_CONCURRENCY / CLIENT_PROCESSES);

    const connectAll = async () => {
      const spans = await Promise.all(clients.map((c) => c.call<{ start: number; end: number }>('connect', { concurrency })));
      return (Math.max(...spans.map((s) => s.end)) - Math.min(...spans.map((s) => s.start))) / 1000;
    };
    const connectSeconds = await connectAll();
    // reconnect storm: every socket drops at once, all connect again at once
    await Promise.all(clients.map((c) => c.call('drop')));
    const dropDeadline = now() + 15_000;
    while (now() < dropDeadline) {
      const held = await Promise.all(servers.map((s) => s.child.call<number>('sockets')));
      if (held.every((n) => n === 0)) break;
      await sleep(100);
    }
    const reconnectSeconds = await connectAll();

    const bigSize = Math.min(BIG_TOPIC_MAX, sockets);
    const joinSpans = await Promise.all(clients.map((c) => c.call<{ start: number; end: number; joins: number }>('join', { bigSize, window: Math.ceil(JOIN_WINDOW / CLIENT_PROCESSES) })));
    const joins = joinSpans.reduce((n, s) => n + s.joins, 0);
    const joinSeconds = (Math.max(...joinSpans.map((s) => s.end)) - Math.min(...joinSpans.map((s) => s.start))) / 1000;

    const serverAfter = await Promise.all(servers.map((s) => s.child.call<Mem>('mem')));
    const clientAfter = await Promise.all(clients.map((c) => c.call<Mem>('mem')));

    const phases: PassFigures['phases'] = [];
    const roomCount = roomsOf(sockets).length;
    for (const rate of RATES) {
      await Promise.all(clients.map((c) => c.call('resetStats')));
      const results = await Promise.all(clients.map((c) => c.call<{ sent: Array<[number, number, number]>; start: number; end: number }>('publishRooms', { rate: rate / CLIENT_PROCESSES, seconds: LATENCY_SECONDS })));
      const sent = results.flatMap((r) => r.sent);
      const start = Math.min(...results.map((r) => r.start));
      const merged = new Map<number, { count: number; last: number }>();
      const drainDeadline = now() + 10_000;
      for (;;) {
        merged.clear();
        const all = await Promise.all(clients.map((c) => c.call<Array<[number, number, number]>>('stats')));
        for (const rows of all)
          for (const [id, count, last] of rows) {
            const m = merged.get(id);
            if (m) {
              m.count += count;
              m.last = Math.max(m.last, last);
            } else merged.set(id, { count, last });
          }
        const complete = sent.every(([id, , expected]) => (merged.get(id)?.count ?? 0) >= expected);
        if (complete || now() > drainDeadline) break;
        await sleep(250);
      }
      const latencies: number[] = [];
      let lost = 0;
      let deliveries = 0;
      let delivered = 0;
      let lastReceipt = start;
      for (const [id, t0, expected] of sent) {
        deliveries += expected;
        const m = merged.get(id);
        delivered += Math.min(expected, m?.count ?? 0);
        if (m && m.count >= expected) {
          latencies.push(m.last - t0);
          lastReceipt = Math.max(lastReceipt, m.last);
        } else lost++;
      }
      latencies.sort((x, y) => x - y);
      const elapsed = (Math.max(lastReceipt, ...results.map((r) => r.end)) - start) / 1000;
      phases.push({
        rate,
        rooms: roomCount,
        publishes: sent.length,
        deliveries,
        achieved: delivered / elapsed,
        lost,
        p50: percentile(latencies, 50),
        p99: percentile(latencies, 99),
        max: latencies.length ? latencies[latencies.length - 1] : NaN,
      });
      await sleep(500);
    }

    // one message to the big topic, full delivery time (receipts merged over both client processes)
    const bigTimes: number[] = [];
    for (let round = 0; round < BIG_ROUNDS; round++) {
      await sleep(300);
      const publisher = clients[round % CLIENT_PROCESSES];
      const { id, t0 } = await publisher.call<{ id: number; t0: number }>('publishBig', { bigSize, round });
      const deadline = now() + 30_000;
      let elapsed = NaN;
      while (now() < deadline) {
        const rows = (await Promise.all(clients.map((c) => c.call<Array<[number, number, number]>>('stats', { ids: [id] })))).map((r) => r[0]);
        if (rows.reduce((n, r) => n + r[1], 0) >= bigSize) {
          elapsed = Math.max(...rows.map((r) => r[2])) - t0;
          break;
        }
        await sleep(20);
      }
      bigTimes.push(elapsed);
    }

    return {
      label,
      sockets,
      servers: servers.length,
      perServer: servers.map((_, k) => ({ sockets: serverSockets[k], before: serverBefore[k], after: serverAfter[k] })),
      perClient: clients.map((_, c) => ({ sockets: counts[c], before: clientBefore[c], after: clientAfter[c] })),
      connectPerS: sockets / connectSeconds,
      reconnectPerS: sockets / reconnectSeconds,
      joins,
      joinSeconds,
      phases,
      bigSize,
      bigTimes,
    };
  } finally {
    await Promise.all(clients.map((c) => c.stop()));
  }
}

function report(f: PassFigures): string {
  const big = f.bigTimes.filter(Number.isFinite).sort((a, b) => a - b);
  const perSocket = (p: { sockets: number; before: Mem; after: Mem }) => `${mb(p.before.rss)} -> ${mb(p.after.rss)} = ${((p.after.rss - p.before.rss) / p.sockets / 1024).toFixed(1)} KB/socket (heap ${((p.after.heapUsed - p.before.heapUsed) / p.sockets / 1024).toFixed(1)} KB/socket${p.after.gc ? ', after GC' : ''})`;
  const lines = [
    `  sockets held           ${f.sockets} (${f.perServer.map((p, k) => `server ${k}: ${p.after.sockets}`).join(', ')}; ${f.perClient.map((p, c) => `client ${c}: ${p.after.sockets}`).join(', ')}) (connect ${f.connectPerS.toFixed(0)}/s)`,
    `  reconnect storm        ${f.sockets} dropped at once, reconnected at ${f.reconnectPerS.toFixed(0)}/s`,
    ...f.perServer.map((p, k) => `  server ${k} RSS           ${perSocket(p)}`),
    ...f.perClient.map((p, c) => `  client ${c} RSS           ${perSocket(p)}`),
    `  joins                  ${f.joins} in ${f.joinSeconds.toFixed(2)} s = ${(f.joins / f.joinSeconds).toFixed(0)} joins/s`,
  ];
  for (const p of f.phases) {
    lines.push(
      `  rooms 20-50 subs       ${p.rooms} rooms, ${p.publishes} publishes, ${p.deliveries} deliveries (target ${p.rate}/s, got ${p.achieved.toFixed(0)}/s, ${p.lost} incomplete)`,
      `  publish->last receipt  p50 ${fmtMs(p.p50)}  p99 ${fmtMs(p.p99)}  max ${fmtMs(p.max)}   (at ${p.rate}/s)`,
    );
  }
  lines.push(`  1 msg -> ${String(f.bigSize).padEnd(6)} subs    best ${fmtMs(big[0] ?? NaN)}  median ${fmtMs(percentile(big, 50))}  (${f.bigTimes.length} rounds${big.length < f.bigTimes.length ? `, ${f.bigTimes.length - big.length} timed out` : ''})`);
  return lines.join('\n');
}

export async function runMultiOrchestrator(): Promise<void> {
  const run = randomBytes(4).toString('hex');
  const dbName = `bench_rt_${run}`;
  const dbUrl = new URL(DATABASE_URL);
  dbUrl.pathname = `/${dbName}`;
  const env = { BENCH_RT_DB_URL: dbUrl.toString(), BENCH_RT_REDIS_PREFIX: `bench-rt-${run}` };
  const started: Child[] = [];
  let dbCreated = false;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: DATABASE_URL });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  const cleanup = async () => {
    await Promise.all(started.map((c) => c.stop()));
    if (dbCreated) await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch((err) => console.error(`could not drop ${dbName}: ${err}`));
    dbCreated = false;
  };
  const watchdog = setTimeout(() => {
    console.error(`benchmark watchdog: still running after ${WATCHDOG_MS / 1000} s, stopping`);
    for (const c of started) c.child.kill('SIGKILL');
    void admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).finally(() => process.exit(2));
  }, WATCHDOG_MS);
  watchdog.unref();
  process.on('SIGINT', () => void cleanup().then(() => process.exit(130)));

  console.log(`realtime bench, multi-process: ${SOCKETS} sockets as ${USERS} user${USERS === 1 ? '' : 's'}${QUICK ? ' (--quick)' : ''}, node ${process.version}, ${cpus().length} CPUs`);
  console.log(`${SERVER_PROCESSES} server processes (PostgreSQL ${dbUrl.host}/${dbName}, Redis ${REDIS_URL}), ${CLIENT_PROCESSES} client processes`);
  console.log(`rooms of ${ROOM_MIN}-${ROOM_MAX} subscribers at ${RATES.join(' then ')} deliveries/s for ${LATENCY_SECONDS} s each; one big topic of ${Math.min(BIG_TOPIC_MAX, SOCKETS)}`);
  try {
    await admin(`CREATE DATABASE ${dbName}`);
    dbCreated = true;
    const first = await startServer('server 0', true, true, env);
    started.push(first.child);
    const second = await startServer('server 1', true, false, env);
    started.push(second.child);
    const queries = first.queries;
    console.log(`cross-process sanity check: ${await crossProcessSanity([first.port, second.port], queries[0])}`);
    const multi = await measurePass('two server processes, Redis fan-out', [first, second], queries, SOCKETS);
    console.log(`\n[${multi.label}]`);
    console.log(report(multi));
    await first.child.stop();
    await second.child.stop();

    if (BASELINE) {
      const baselineSockets = Math.min(SOCKETS, BASELINE_MAX);
      const single = await startServer('single server', false, false, env);
      started.push(single.child);
      const base = await measurePass(`one server process, no Redis (same database, same 2 client processes)`, [single], queries, baselineSockets);
      console.log(`\n[${base.label}]`);
      if (baselineSockets < SOCKETS) console.log(`  (${baselineSockets} sockets: one process cannot hold ${SOCKETS} under the fd limit; this is the per-process share of the 2-process run only if N = 2 x ${baselineSockets})`);
      console.log(report(base));
      await single.child.stop();

      const med = (v: number[]) => percentile(v.filter(Number.isFinite).sort((a, b) => a - b), 50);
      console.log(`\n[two processes / one process]${baselineSockets < SOCKETS ? ` (${SOCKETS} sockets vs ${baselineSockets})` : ''}`);
      multi.phases.forEach((p, n) => {
        const b = base.phases[n];
        console.log(`  rooms at ${p.rate}/s      p50 ${(p.p50 / b.p50).toFixed(2)}x  p99 ${(p.p99 / b.p99).toFixed(2)}x`);
      });
      console.log(`  1 msg -> all (median)  ${(med(multi.bigTimes) / med(base.bigTimes)).toFixed(2)}x (${multi.bigSize} vs ${base.bigSize} subscribers)`);
      console.log(`  joins/s                ${(multi.joins / multi.joinSeconds / (base.joins / base.joinSeconds)).toFixed(2)}x`);
      console.log(`  connect/s              ${(multi.connectPerS / base.connectPerS).toFixed(2)}x   reconnect storm ${(multi.reconnectPerS / base.reconnectPerS).toFixed(2)}x`);
    }
  } finally {
    await cleanup();
    clearTimeout(watchdog);
  }
}
