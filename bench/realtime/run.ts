/**
 * Load benchmark of the realtime hub (server/core/realtime) against a bare `ws` floor.
 *
 *   npx tsx bench/realtime/run.ts [--sockets N] [--users K] [--quick]
 *   npx tsx bench/realtime/run.ts --connects [--sockets N] [--users K] [--quick] [--cache on|off] [--floor]
 *   ... [--server-node-options "--cpu-prof --cpu-prof-dir=/tmp/prof"]   (extra node flags for our server only)
 *   ... [--floor-node-options "<flags>"]   (the same for the floor's child)
 *   ... [--heap-sample /tmp/heap]   (each child's allocations, sampled; `--connects` prints bytes a connect)
 *   npx tsx bench/realtime/run.ts --processes 2 [--sockets N] [--users K] [--quick] [--no-baseline]
 *
 * `--connects` measures connecting only, on our hub: rounds alternating the connect-time identity
 * cache off and on (same process, same data), each a connect of every socket (the cache emptied
 * first) followed at once by a reconnect storm (all dropped, all back). `--cache on` (or `off`) runs the rounds of
 * that mode only: a CPU profile of the server then shows that path alone. `--floor` adds the bare `ws` floor's
 * rounds, interleaved with ours (each round: ours, then the floor), and prints the ratio of the medians: one run's
 * ratio on a shared machine is as noisy as the gap it measures, five interleaved rounds are not. Each side connects
 * every socket once before the rounds (a warm-up, not counted), and the floor is sent our requests, token included.
 *
 * Layout (all traffic on 127.0.0.x loopback):
 * - this process is the orchestrator and the load generator (N raw `ws` clients speaking
 *   serializer 2.0.0, source addresses spread over 127.0.0.1–127.0.0.20);
 * - a child process runs our app (PGlite in memory, one seeded company and K users (default 1)
 *   each signed in once, a `bench:*` channel that joins without the database and re-broadcasts
 *   `pub` pushes as `msg`); socket i connects as user i mod K;
 * - another child process runs the floor: a bare ws server that parses the frame, keeps
 *   topic → set of sockets, and sends a broadcast to the set.
 * Each server runs alone in its child (with --expose-gc) so its RSS per socket is its own.
 * `--processes 2`: two hub processes sharing PostgreSQL and Redis, clients in two processes (multi.ts).
 * Prints figures only; nothing here asserts timings. See bench/realtime/README.md.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import type { SocketConnectOption } from 'phoenix';
import WebSocket, { WebSocketServer, type RawData } from 'ws';
import { topicAccess } from '../../server/core/access/topics';
import { UNLIMITED_RATE_LIMITER } from '../support';

// ---------------------------------------------------------------- arguments

const argv = process.argv.slice(2);
function argValue(name: string): string | undefined {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
}
const ROLE = argValue('--role');
const QUICK = argv.includes('--quick');
const CONNECTS_ONLY = argv.includes('--connects');
/** `--connects --floor`: the floor's connect rounds interleaved with ours. */
const CONNECTS_FLOOR = CONNECTS_ONLY && argv.includes('--floor');
/** Extra node flags for our server's child, like bench/data's (`--server-node-options "--cpu-prof --cpu-prof-dir=/tmp/prof"`). */
const SERVER_NODE_OPTIONS = (argValue('--server-node-options') ?? '').split(' ').filter(Boolean);
/** The same for the floor's child: both sides profiled in one run. */
const FLOOR_NODE_OPTIONS = (argValue('--floor-node-options') ?? '').split(' ').filter(Boolean);
/**
 * `--heap-sample <prefix>`: each server child samples what it allocates, collected objects included, from ready to
 * stop (V8's sampling heap profiler, a sample every 512 bytes) and writes `<prefix>.<ours|floor>.heapprofile`
 * (Chrome DevTools reads it); `--connects` then prints the bytes allocated per connect beside the floor's.
 */
const HEAP_SAMPLE = argValue('--heap-sample');
const CONNECT_ROUNDS = QUICK ? 3 : 5;
/** `--connects --cache on|off`: only that mode's rounds (both, interleaved, without it). */
const CACHE_MODES = (['off', 'on'] as const).filter((mode) => (argValue('--cache') ?? mode) === mode);
if (CACHE_MODES.length === 0) throw new Error(`--cache ${argValue('--cache')}: say on or off`);
const SOCKETS = Math.max(50, Number(argValue('--sockets') ?? (QUICK ? 500 : 2000)) || 2000);
/** Distinct users (each with its own login session and membership) the sockets connect as. */
const USERS = Math.min(SOCKETS, Math.max(1, Number(argValue('--users') ?? 1) || 1));
const BIG_TOPIC_MAX = 10_000;
const ROOM_MIN = 20;
const ROOM_MAX = 50;
const TARGET_DELIVERIES_PER_S = QUICK ? 2_000 : 10_000;
const LATENCY_SECONDS = QUICK ? 3 : 10;
const BIG_ROUNDS = QUICK ? 3 : 5;
const SOURCE_ADDRESSES = 20;
const CONNECT_CONCURRENCY = 200;
const JOIN_WINDOW = 1_000;
/** The whole run stops by itself after this, whatever happens. */
const WATCHDOG_MS = QUICK ? 180_000 : 900_000;

type ServerKind = 'ours' | 'floor';

interface ReadyMessage {
  type: 'ready';
  port: number;
  /** Connect path and query per user (socket i uses queries[i % length]). */
  queries: string[];
}
interface MemMessage {
  type: 'mem';
  rss: number;
  heapUsed: number;
  sockets: number;
  gc: boolean;
}

// ================================================================= server children

async function gcAndMeasure(sockets: number): Promise<MemMessage> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) {
    for (let i = 0; i < 3; i++) {
      gc();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  const mem = process.memoryUsage();
  return { type: 'mem', rss: mem.rss, heapUsed: mem.heapUsed, sockets, gc: Boolean(gc) };
}

async function runOurServer(): Promise<void> {
  const { createTestApp } = await import('../../server/testing/testApp');
  const { DEFAULT_REALTIME_CONFIG } = await import('../../server/core/config');
  type Hub = import('../../server/core/realtime/types').RealtimeHub;
  let hub: Hub | null = null;
  const { PhoenixHub } = await import('../../server/core/realtime/hub');
  const { IDENTITY_CACHE_TTL_MS } = await import('../../server/core/realtime/identityCache');
  const t = await createTestApp({
    config: {
      redisUrl: null,
      realtime: {
        ...DEFAULT_REALTIME_CONFIG,
        // Per-socket rate limit and idle timeout off for the run.
        rateLimitPerSecond: 1e9,
        rateLimitBurst: 1e9,
        rateLimitCloseAfter: 1e9,
        idleTimeoutMs: 24 * 3600_000,
      },
    },
    // The connect and join limits per user and per address (server/core/realtime/limits.ts) off too: the bench
    // opens thousands of sockets as a few users, which those limits exist to stop (it died at socket 59 with 429).
    overrides: { RateLimiter: UNLIMITED_RATE_LIMITER },
    onBuild: (app) => {
      hub = app.realtime;
      app.realtime.registerChannel('bench', topicAccess.member('benchmark topic: its suffix names no resource'), {
        async join() {
          return { status: 'ok', response: {} };
        },
        async handleIn(event, payload, ctx) {
          if (event === 'pub') await hub!.broadcast(ctx.topic, 'msg', payload);
          return undefined;
        },
      });
    },
  });
  const companyId = await t.seed.company('Bench Co');
  const queries: string[] = [];
  for (let u = 0; u < USERS; u++) {
    const email = u === 0 ? 'bench@example.com' : `bench-${u}@example.com`;
    const userId = await t.seed.user({ email, firstName: 'Bench' });
    await t.seed.member(companyId, userId, 'agent');
    const { access } = await t.login(email);
    queries.push(`/socket/websocket?vsn=2.0.0&token=${encodeURIComponent(access)}&company_id=${companyId}`);
  }
  const baseUrl = await t.listen();
  const port = Number(new URL(baseUrl).port);
  process.on('message', (message: { type: string; on?: boolean }) => {
    if (message.type !== 'identity-cache') return;
    if (hub instanceof PhoenixHub) hub.identities.reset(message.on ? IDENTITY_CACHE_TTL_MS : 0);
    process.send!({ type: 'identity-cache-ok' });
  });
  await serveControl(port, queries, () => hub?.socketCount() ?? 0, async () => {
    const server = t.app.server;
    const closing = t.close();
    server.closeAllConnections?.();
    await closing;
  });
}

async function runFloorServer(): Promise<void> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, maxPayload: 64 * 1024, perMessageDeflate: false });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const topics = new Map<string, Set<WebSocket>>();
  wss.on('connection', (socket) => {
    const joined = new Set<string>();
    socket.on('message', (data: RawData) => {
      let frame: unknown;
      try {
        frame = JSON.parse(String(data));
      } catch {
        return;
      }
      if (!Array.isArray(frame) || frame.length !== 5) return;
      const [joinRef, ref, topic, event, payload] = frame as [string | null, string | null, string, string, unknown];
      if (event === 'phx_join') {
        let set = topics.get(topic);
        if (!set) topics.set(topic, (set = new Set()));
        set.add(socket);
        joined.add(topic);
        socket.send(JSON.stringify([joinRef ?? ref, ref, topic, 'phx_reply', { status: 'ok', response: {} }]));
      } else if (event === 'heartbeat') {
        socket.send(JSON.stringify([null, ref, topic, 'phx_reply', { status: 'ok', response: {} }]));
      } else if (event === 'pub') {
        const set = topics.get(topic);
        if (!set) return;
        const out = JSON.stringify([null, null, topic, 'msg', payload]);
        for (const peer of set) if (peer.readyState === WebSocket.OPEN) peer.send(out);
      }
    });
    socket.on('close', () => {
      for (const topic of joined) {
        const set = topics.get(topic);
        set?.delete(socket);
        if (set && set.size === 0) topics.delete(topic);
      }
    });
  });
  const address = wss.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await serveControl(port, ['/socket/websocket?vsn=2.0.0'], () => wss.clients.size, async () => {
    for (const client of wss.clients) client.terminate();
    await new Promise<void>((resolve) => wss.close(() => resolve()));
  });
}

/** `--heap-sample`: starts sampling; the returned function stops it and writes the profile. */
async function sampleAllocations(path: string): Promise<() => Promise<void>> {
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.enable');
  await session.post('HeapProfiler.startSampling', { samplingInterval: 512, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true } as never);
  return async () => {
    const { profile } = (await session.post('HeapProfiler.stopSampling')) as { profile: unknown };
    writeFileSync(path, JSON.stringify(profile));
  };
}

/** Bytes allocated in a `--heap-sample` profile (its samples' sizes, every node's). */
function sampledBytes(path: string): number {
  type Node = { selfSize: number; children: Node[] };
  const total = (node: Node): number => node.selfSize + node.children.reduce((sum, child) => sum + total(child), 0);
  return total((JSON.parse(readFileSync(path, 'utf8')) as { head: Node }).head);
}

async function serveControl(port: number, queries: string[], sockets: () => number, close: () => Promise<void>): Promise<void> {
  const stopSampling = HEAP_SAMPLE ? await sampleAllocations(`${HEAP_SAMPLE}.${ROLE}.heapprofile`) : null;
  process.on('message', async (message: { type: string }) => {
    if (message.type === 'mem') process.send!(await gcAndMeasure(sockets()));
    else if (message.type === 'stop') {
      await stopSampling?.();
      await close().catch(() => {});
      process.exit(0);
    }
  });
  process.on('disconnect', () => process.exit(0));
  process.send!({ type: 'ready', port, queries } satisfies ReadyMessage);
}

// ================================================================= orchestrator / load generator

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}
const ms = (v: number) => (Number.isFinite(v) ? `${v.toFixed(2)} ms` : 'n/a');
const mb = (v: number) => `${(v / 1024 / 1024).toFixed(1)} MB`;

class ServerChild {
  private waiters: Array<(m: MemMessage) => void> = [];
  private cacheWaiters: Array<() => void> = [];
  private constructor(
    readonly kind: ServerKind,
    readonly child: ChildProcess,
    readonly ready: ReadyMessage,
  ) {
    child.on('message', (m: { type: string }) => {
      if (m.type === 'mem') this.waiters.shift()?.(m as MemMessage);
      if (m.type === 'identity-cache-ok') this.cacheWaiters.shift()?.();
    });
  }

  static start(kind: ServerKind): Promise<ServerChild> {
    const child = fork(fileURLToPath(import.meta.url), ['--role', kind, '--sockets', String(SOCKETS), '--users', String(USERS), ...(HEAP_SAMPLE ? ['--heap-sample', HEAP_SAMPLE] : [])], {
      execArgv: [...process.execArgv, '--expose-gc', '--max-old-space-size=4096', ...(kind === 'ours' ? SERVER_NODE_OPTIONS : FLOOR_NODE_OPTIONS)],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    return new Promise((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`${kind} server exited early (code ${code})`)));
      child.once('message', (m: ReadyMessage) => resolve(new ServerChild(kind, child, m)));
    });
  }

  /** Our server only: empties the connect-time identity cache and turns it on or off. */
  identityCache(on: boolean): Promise<void> {
    return new Promise((resolve) => {
      this.cacheWaiters.push(resolve);
      this.child.send({ type: 'identity-cache', on });
    });
  }

  mem(): Promise<MemMessage> {
    return new Promise((resolve) => {
      this.waiters.push(resolve);
      this.child.send({ type: 'mem' });
    });
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.removeAllListeners('exit');
    this.child.send({ type: 'stop' });
    await Promise.race([exited, sleep(5_000)]);
    if (this.child.exitCode === null) this.child.kill('SIGKILL');
  }
}

interface Client {
  ws: WebSocket;
  room: string;
  roomJoinRef: string;
  bigJoinRef: string | null;
}

interface Pending {
  t0: number;
  expected: number;
  received: number;
  done: (elapsed: number) => void;
}

interface Figures {
  kind: ServerKind;
  sockets: number;
  /** The first connect of every socket to the fresh process (cold). */
  firstConnectPerS: number;
  connectPerS: number;
  reconnectPerS: number;
  joins: number;
  joinsPerS: number;
  rssPerSocket: number;
  heapPerSocket: number;
  rssBefore: number;
  rssAfter: number;
  gc: boolean;
  rooms: number;
  publishes: number;
  deliveries: number;
  achievedDeliveriesPerS: number;
  lost: number;
  p50: number;
  p99: number;
  max: number;
  bigSize: number;
  bigTimes: number[];
}

let emfileHinted = false;
function hintEmfile(err: NodeJS.ErrnoException): void {
  if (emfileHinted || (err.code !== 'EMFILE' && err.code !== 'ENFILE')) return;
  emfileHinted = true;
  console.error(`\n!! ${err.code}: out of file descriptors. Raise the limit first, e.g. \`ulimit -n 65536\` (current soft limit applies to the client and each server process).\n`);
}

async function measure(server: ServerChild): Promise<Figures> {
  const { port, queries } = server.ready;
  const pending = new Map<number, Pending>();
  const joinWaiters = new Map<string, () => void>();
  let nextRef = 1;
  let nextId = 1;

  const onMessage = (data: RawData) => {
    const frame = JSON.parse(String(data)) as [string | null, string | null, string, string, Record<string, unknown>];
    const event = frame[3];
    if (event === 'msg') {
      const p = pending.get(frame[4].id as number);
      if (!p) return;
      if (++p.received === p.expected) {
        pending.delete(frame[4].id as number);
        p.done(performance.now() - p.t0);
      }
    } else if (event === 'phx_reply' && frame[1] !== null) {
      const waiter = joinWaiters.get(frame[1]);
      if (waiter) {
        joinWaiters.delete(frame[1]);
        if ((frame[4] as { status?: string }).status !== 'ok') console.error(`join refused on ${frame[2]}: ${JSON.stringify(frame[4])}`);
        waiter();
      }
    }
  };

  const before = await server.mem();

  // ---- connect
  const clients: Client[] = new Array(SOCKETS);
  const connectOne = (i: number) =>
    new Promise<void>((resolve, reject) => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}${queries[i % queries.length]}`, {
        localAddress: `127.0.0.${1 + (i % SOURCE_ADDRESSES)}`,
        perMessageDeflate: false,
      });
      ws.once('open', () => {
        ws.on('message', onMessage);
        clients[i] = { ws, room: '', roomJoinRef: '', bigJoinRef: null };
        resolve();
      });
      ws.once('unexpected-response', (_req, res) => reject(new Error(`socket ${i}: HTTP ${res.statusCode}`)));
      ws.on('error', (err: NodeJS.ErrnoException) => {
        hintEmfile(err);
        reject(err);
      });
    });
  /** Connects every socket, CONNECT_CONCURRENCY at a time; returns the seconds it took. */
  const connectAll = async (): Promise<number> => {
    const start = performance.now();
    let nextIndex = 0;
    let failed: Error | null = null;
    await Promise.all(
      Array.from({ length: CONNECT_CONCURRENCY }, async () => {
        while (!failed && nextIndex < SOCKETS) {
          const i = nextIndex++;
          await connectOne(i).catch((err: Error) => (failed ??= err));
        }
      }),
    );
    if (failed) {
      for (const c of clients) c?.ws.terminate();
      throw failed;
    }
    return (performance.now() - start) / 1000;
  };
  const dropAll = async () => {
    for (const c of clients) c.ws.terminate();
    const dropDeadline = performance.now() + 10_000;
    while ((await server.mem()).sockets > 0 && performance.now() < dropDeadline) await sleep(100);
  };
  // ---- the first connect of a fresh process (nothing compiled yet, the identity cache empty), reported on its
  // own, then every socket dropped: the figures below are the server warm, as a process that has run for a while
  // is (the floor's few lines are warm at once; ours are the app's whole upgrade path, issue #26).
  const firstConnectSeconds = await connectAll();
  await dropAll();
  const connectSeconds = await connectAll();

  // ---- reconnect storm: every socket drops at once (a network blip) and connects again at once
  await dropAll();
  const reconnectSeconds = await connectAll();

  // ---- rooms of 20–50 subscribers, plus one big topic of min(10 000, N)
  const rooms: Array<{ topic: string; members: Client[]; next: number }> = [];
  for (let i = 0, r = 0; i < SOCKETS; r++) {
    let size = ROOM_MIN + ((r * 7) % (ROOM_MAX - ROOM_MIN + 1));
    if (SOCKETS - (i + size) < ROOM_MIN) size = SOCKETS - i; // the tail joins the last room
    const topic = `bench:room-${r}`;
    const members = clients.slice(i, i + size);
    for (const c of members) c.room = topic;
    rooms.push({ topic, members, next: 0 });
    i += size;
  }
  const bigSize = Math.min(BIG_TOPIC_MAX, SOCKETS);

  // ---- joins (pipelined, at most JOIN_WINDOW unanswered)
  const joinJobs: Array<() => Promise<void>> = [];
  for (const c of clients) {
    joinJobs.push(() => {
      const ref = String(nextRef++);
      c.roomJoinRef = ref;
      return sendJoin(c.ws, ref, c.room);
    });
  }
  for (let i = 0; i < bigSize; i++) {
    const c = clients[i];
    joinJobs.push(() => {
      const ref = String(nextRef++);
      c.bigJoinRef = ref;
      return sendJoin(c.ws, ref, 'bench:big');
    });
  }
  function sendJoin(ws: WebSocket, ref: string, topic: string): Promise<void> {
    return new Promise((resolve) => {
      joinWaiters.set(ref, resolve);
      ws.send(JSON.stringify([ref, ref, topic, 'phx_join', {}]));
    });
  }
  const joinStart = performance.now();
  let nextJob = 0;
  await Promise.all(
    Array.from({ length: JOIN_WINDOW }, async () => {
      while (nextJob < joinJobs.length) await joinJobs[nextJob++]();
    }),
  );
  const joinSeconds = (performance.now() - joinStart) / 1000;

  const after = await server.mem();

  // ---- latency: rooms of 20–50 at the target delivery rate, timestamp in the payload
  const latencies: number[] = [];
  let publishes = 0;
  let deliveries = 0;
  const publish = (client: Client, topic: string, joinRef: string, expected: number, done: (elapsed: number) => void) => {
    const id = nextId++;
    const t0 = performance.now();
    pending.set(id, { t0, expected, received: 0, done });
    client.ws.send(JSON.stringify([joinRef, String(nextRef++), topic, 'pub', { id, t: t0 }]));
  };
  const latencyStart = performance.now();
  const latencyEnd = latencyStart + LATENCY_SECONDS * 1000;
  let roomCursor = 0;
  const roomIds = new Set<number>();
  while (performance.now() < latencyEnd) {
    const due = ((performance.now() - latencyStart) / 1000) * TARGET_DELIVERIES_PER_S;
    while (deliveries < due) {
      const room = rooms[roomCursor++ % rooms.length];
      const publisher = room.members[room.next++ % room.members.length];
      roomIds.add(nextId);
      publish(publisher, room.topic, publisher.roomJoinRef, room.members.length, (elapsed) => latencies.push(elapsed));
      publishes++;
      deliveries += room.members.length;
    }
    await sleep(5);
  }
  const drainDeadline = performance.now() + 10_000;
  while ([...roomIds].some((id) => pending.has(id)) && performance.now() < drainDeadline) await sleep(20);
  const latencyElapsed = (performance.now() - latencyStart) / 1000;
  let lost = 0;
  for (const id of roomIds) if (pending.delete(id)) lost++;
  latencies.sort((a, b) => a - b);

  // ---- one message to the big topic, full delivery time
  const bigTimes: number[] = [];
  await sleep(300);
  for (let round = 0; round < BIG_ROUNDS; round++) {
    const elapsed = await new Promise<number>((resolve) => {
      const publisher = clients[round % bigSize];
      const timer = setTimeout(() => resolve(NaN), 30_000);
      publish(publisher, 'bench:big', publisher.bigJoinRef!, bigSize, (e) => {
        clearTimeout(timer);
        resolve(e);
      });
    });
    bigTimes.push(elapsed);
    await sleep(300);
  }

  // ---- clean up the clients
  for (const c of clients) c.ws.terminate();
  await sleep(200);

  return {
    kind: server.kind,
    sockets: SOCKETS,
    firstConnectPerS: SOCKETS / firstConnectSeconds,
    connectPerS: SOCKETS / connectSeconds,
    reconnectPerS: SOCKETS / reconnectSeconds,
    joins: joinJobs.length,
    joinsPerS: joinJobs.length / joinSeconds,
    rssBefore: before.rss,
    rssAfter: after.rss,
    rssPerSocket: (after.rss - before.rss) / SOCKETS,
    heapPerSocket: (after.heapUsed - before.heapUsed) / SOCKETS,
    gc: after.gc,
    rooms: rooms.length,
    publishes,
    deliveries,
    achievedDeliveriesPerS: (deliveries - lost) / latencyElapsed,
    lost,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies.length ? latencies[latencies.length - 1] : NaN,
    bigSize,
    bigTimes,
  };
}

/** Opens every socket (CONNECT_CONCURRENCY at a time, socket i as user i mod K); the seconds it took. */
/**
 * The floor is sent our upgrade requests, token and company included (it reads neither), as bench/data's floor
 * gets the API's requests whole: the same bytes to accept and parse on both sides. Until 2026-12-02 it was sent
 * `?vsn=2.0.0` alone, about 330 bytes fewer a request line.
 */
function sendSameRequests(floor: ServerChild, oursQueries: string[]): void {
  floor.ready.queries = oursQueries;
}

async function connectEvery(server: ServerChild, sockets: WebSocket[]): Promise<number> {
  const { port, queries } = server.ready;
  const start = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONNECT_CONCURRENCY }, async () => {
      while (next < SOCKETS) {
        const i = next++;
        sockets[i] = await new Promise<WebSocket>((resolve, reject) => {
          const ws = new WebSocket(`ws://127.0.0.1:${port}${queries[i % queries.length]}`, {
            localAddress: `127.0.0.${1 + (i % SOURCE_ADDRESSES)}`,
            perMessageDeflate: false,
          });
          ws.once('open', () => resolve(ws));
          ws.once('unexpected-response', (_req, res) => reject(new Error(`socket ${i}: HTTP ${res.statusCode}`)));
          ws.on('error', (err: NodeJS.ErrnoException) => {
            hintEmfile(err);
            reject(err);
          });
        });
      }
    }),
  );
  return (performance.now() - start) / 1000;
}

async function dropEvery(server: ServerChild, sockets: WebSocket[]): Promise<void> {
  for (const ws of sockets) ws?.terminate();
  const deadline = performance.now() + 10_000;
  while ((await server.mem()).sockets > 0 && performance.now() < deadline) await sleep(100);
}

/** `--connects`: connect rate and reconnect-storm rate with the identity cache off and on, interleaved. */
async function measureConnects(server: ServerChild, floor: ServerChild | null): Promise<void> {
  type Mode = 'off' | 'on' | 'floor';
  const rates: Record<Mode, { connect: number[]; storm: number[] }> = { off: { connect: [], storm: [] }, on: { connect: [], storm: [] }, floor: { connect: [], storm: [] } };
  const modes: Mode[] = [...CACHE_MODES, ...(floor ? (['floor'] as const) : [])];
  const sockets: WebSocket[] = new Array(SOCKETS);
  // Each side connects every socket once before the rounds, not counted: the rounds measure processes warm, as
  // the default run's connect does (ours warmed over its first two rounds, the floor's few lines at once).
  for (const target of floor ? [server, floor] : [server]) {
    const warmUp = SOCKETS / (await connectEvery(target, sockets));
    await dropEvery(target, sockets);
    console.log(`  warm-up ${target === floor ? 'floor    ' : 'ours     '}  connect ${warmUp.toFixed(0).padStart(5)}/s   (not counted)`);
  }
  for (let round = 1; round <= CONNECT_ROUNDS; round++) {
    for (const mode of modes) {
      const target = mode === 'floor' ? floor! : server;
      if (mode !== 'floor') await server.identityCache(mode === 'on');
      const connect = SOCKETS / (await connectEvery(target, sockets));
      await dropEvery(target, sockets);
      const storm = SOCKETS / (await connectEvery(target, sockets));
      await dropEvery(target, sockets);
      rates[mode].connect.push(connect);
      rates[mode].storm.push(storm);
      console.log(`  round ${round} ${mode === 'floor' ? 'floor    ' : `cache ${mode.padEnd(3)}`}  connect ${connect.toFixed(0).padStart(5)}/s   reconnect storm ${storm.toFixed(0).padStart(5)}/s`);
    }
  }
  const median = (values: number[]) => percentile([...values].sort((a, b) => a - b), 50);
  console.log('\n[medians]');
  for (const mode of modes) {
    console.log(`  ${mode === 'floor' ? 'floor    ' : `cache ${mode.padEnd(3)}`}  connect ${median(rates[mode].connect).toFixed(0).padStart(5)}/s   reconnect storm ${median(rates[mode].storm).toFixed(0).padStart(5)}/s`);
  }
  if (floor) {
    for (const mode of CACHE_MODES) {
      console.log(
        `  cache ${mode} / floor  connect ${(median(rates[mode].connect) / median(rates.floor.connect)).toFixed(2)}x   reconnect storm ${(median(rates[mode].storm) / median(rates.floor.storm)).toFixed(2)}x  (target connect >= 0.8x, cache on)`,
      );
    }
  }
  if (CACHE_MODES.length < 2) return;
  console.log(
    `  on / off   connect ${(median(rates.on.connect) / median(rates.off.connect)).toFixed(2)}x   reconnect storm ${(median(rates.on.storm) / median(rates.off.storm)).toFixed(2)}x`,
  );
}

/** One socket with the official phoenix.js client: connect, join, push, receive the broadcast. */
async function phoenixSanity(server: ServerChild): Promise<string> {
  const { Socket } = await import('phoenix');
  const url = new URL(`ws://127.0.0.1:${server.ready.port}${server.ready.queries[0]}`);
  const socket = new Socket(`ws://127.0.0.1:${server.ready.port}/socket`, {
    transport: WebSocket as unknown as SocketConnectOption['transport'],
    params: { token: url.searchParams.get('token'), company_id: url.searchParams.get('company_id') },
    reconnectAfterMs: () => 1_000,
  });
  try {
    return await new Promise<string>((resolve) => {
      const timer = setTimeout(() => resolve('FAILED (timeout)'), 5_000);
      socket.onError(() => {
        clearTimeout(timer);
        resolve('FAILED (socket error)');
      });
      socket.connect();
      const channel = socket.channel('bench:sanity', {});
      channel.on('msg', (payload: { id?: number }) => {
        clearTimeout(timer);
        resolve(payload.id === -1 ? 'ok (phoenix.js connect, join, push, broadcast received)' : 'FAILED (wrong payload)');
      });
      channel
        .join()
        .receive('ok', () => channel.push('pub', { id: -1 }))
        .receive('error', (r: unknown) => resolve(`FAILED (join error ${JSON.stringify(r)})`));
    });
  } finally {
    socket.disconnect();
  }
}

function report(f: Figures): string {
  const big = f.bigTimes.filter(Number.isFinite).sort((a, b) => a - b);
  return [
    `  sockets held           ${f.sockets} (connect ${f.connectPerS.toFixed(0)}/s warm; the first, cold: ${f.firstConnectPerS.toFixed(0)}/s)`,
    `  reconnect storm        ${f.sockets} dropped at once, reconnected at ${f.reconnectPerS.toFixed(0)}/s`,
    `  server RSS             ${mb(f.rssBefore)} -> ${mb(f.rssAfter)}  = ${(f.rssPerSocket / 1024).toFixed(1)} KB/socket (heap ${(f.heapPerSocket / 1024).toFixed(1)} KB/socket${f.gc ? ', after GC' : ', no GC exposed'})`,
    `  joins                  ${f.joins} in ${(f.joins / f.joinsPerS).toFixed(2)} s = ${f.joinsPerS.toFixed(0)} joins/s`,
    `  rooms 20-50 subs       ${f.rooms} rooms, ${f.publishes} publishes, ${f.deliveries} deliveries (target ${TARGET_DELIVERIES_PER_S}/s, got ${f.achievedDeliveriesPerS.toFixed(0)}/s, ${f.lost} incomplete)`,
    `  publish->last receipt  p50 ${ms(f.p50)}  p99 ${ms(f.p99)}  max ${ms(f.max)}`,
    `  1 msg -> ${String(f.bigSize).padEnd(6)} subs    best ${ms(big[0] ?? NaN)}  median ${ms(percentile(big, 50))}  (${f.bigTimes.length} rounds${big.length < f.bigTimes.length ? `, ${f.bigTimes.length - big.length} timed out` : ''})`,
  ].join('\n');
}

async function orchestrate(): Promise<void> {
  const watchdog = setTimeout(() => {
    console.error(`benchmark watchdog: still running after ${WATCHDOG_MS / 1000} s, stopping`);
    for (const s of started) s.child.kill('SIGKILL');
    process.exit(2);
  }, WATCHDOG_MS);
  watchdog.unref();
  const started: ServerChild[] = [];
  const stopAll = async () => Promise.all(started.map((s) => s.stop()));
  process.on('SIGINT', () => void stopAll().then(() => process.exit(130)));

  console.log(
    `realtime bench: ${SOCKETS} sockets as ${USERS} user${USERS === 1 ? '' : 's'}${QUICK ? ' (--quick)' : ''}, node ${process.version}, ${(await import('node:os')).cpus().length} CPUs`,
  );
  console.log(`rooms of ${ROOM_MIN}-${ROOM_MAX} subscribers at ${TARGET_DELIVERIES_PER_S} deliveries/s for ${LATENCY_SECONDS} s; one big topic of ${Math.min(BIG_TOPIC_MAX, SOCKETS)}`);
  try {
    if (CONNECTS_ONLY) {
      const server = await ServerChild.start('ours');
      started.push(server);
      const floor = CONNECTS_FLOOR ? await ServerChild.start('floor') : null;
      if (floor) {
        started.push(floor);
        sendSameRequests(floor, server.ready.queries);
      }
      console.log(`connects only: our hub, ${CONNECT_ROUNDS} rounds, identity cache ${CACHE_MODES.join(' then ')} in each (emptied first)${floor ? ', then the floor' : ''}\n`);
      await measureConnects(server, floor);
      if (HEAP_SAMPLE) {
        await Promise.all(started.map((child) => child.stop()));
        for (const kind of ['ours', ...(floor ? ['floor'] : [])]) {
          const phases = 1 + CONNECT_ROUNDS * 2 * (kind === 'ours' ? CACHE_MODES.length : 1);
          const bytes = sampledBytes(`${HEAP_SAMPLE}.${kind}.heapprofile`);
          console.log(`  allocated ${kind.padEnd(5)} ${(bytes / (phases * SOCKETS) / 1024).toFixed(1)} KB a connect (${phases} phases of ${SOCKETS} connects with the warm-up${kind === 'ours' ? `, the cache ${CACHE_MODES.join(' then ')}` : ''}, their drops and the bench's own messages; ${HEAP_SAMPLE}.${kind}.heapprofile)`);
        }
      }
      return;
    }
    const results: Figures[] = [];
    let oursQueries: string[] = [];
    for (const kind of ['ours', 'floor'] as const) {
      const server = await ServerChild.start(kind);
      started.push(server);
      if (kind === 'ours') oursQueries = server.ready.queries;
      else sendSameRequests(server, oursQueries);
      if (kind === 'ours') console.log(`phoenix.js sanity check: ${await phoenixSanity(server)}`);
      const figures = await measure(server);
      results.push(figures);
      console.log(`\n[${kind === 'ours' ? 'our hub (PhoenixHub: ws on the upgrade event, fastify for HTTP)' : 'floor (bare ws server)'}]`);
      console.log(report(figures));
      await server.stop();
    }
    const [ours, floor] = results;
    const bigOurs = percentile([...ours.bigTimes].filter(Number.isFinite).sort((a, b) => a - b), 50);
    const bigFloor = percentile([...floor.bigTimes].filter(Number.isFinite).sort((a, b) => a - b), 50);
    console.log('\n[ours / floor]');
    console.log(`  rooms p99 ratio        ${(ours.p99 / floor.p99).toFixed(2)}x  (target <= 2x)  p50 ratio ${(ours.p50 / floor.p50).toFixed(2)}x`);
    console.log(`  big fan-out ratio      ${(bigOurs / bigFloor).toFixed(2)}x (median)`);
    console.log(`  joins/s ratio          ${(ours.joinsPerS / floor.joinsPerS).toFixed(2)}x   RSS/socket ratio ${(ours.rssPerSocket / floor.rssPerSocket).toFixed(2)}x`);
    console.log(
      `  connect/s ratio        ${(ours.connectPerS / floor.connectPerS).toFixed(2)}x warm (${(ours.firstConnectPerS / floor.firstConnectPerS).toFixed(2)}x cold)   reconnect storm ratio ${(ours.reconnectPerS / floor.reconnectPerS).toFixed(2)}x`,
    );
    console.log(`\nmulti-process (Redis fan-out): run with --processes 2 (see bench/realtime/README.md).`);
  } finally {
    await stopAll();
    clearTimeout(watchdog);
  }
}

// ================================================================= entry

const PROCESSES = Math.max(1, Number(argValue('--processes') ?? 1) || 1);

if (ROLE === 'ours') await runOurServer();
else if (ROLE === 'floor') await runFloorServer();
else if (ROLE === 'mp-server') await (await import('./multi')).runMultiServer();
else if (ROLE === 'mp-client') await (await import('./multi')).runMultiClient();
else if (PROCESSES > 1) {
  if (PROCESSES !== 2) console.error(`--processes ${PROCESSES}: only 2 is implemented, running 2`);
  await (await import('./multi')).runMultiOrchestrator().then(
    () => process.exit(0),
    (err: NodeJS.ErrnoException) => {
      hintEmfile(err);
      console.error('benchmark failed:', err);
      process.exit(1);
    },
  );
} else
  await orchestrate().then(
    () => process.exit(0),
    (err: NodeJS.ErrnoException) => {
      hintEmfile(err);
      console.error('benchmark failed:', err);
      process.exit(1);
    },
  );
