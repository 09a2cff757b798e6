/**
 * Two real server processes (compiled, server/testing/serverProcess.ts) on one PostgreSQL database and one Redis: a
 * message sent through process A reaches an agent's phoenix.js client connected to process B,
 * exactly once; a logout or a member removal through A closes the agent's socket on B, and B
 * (whose connect cache knew the agent) refuses the reconnect. Runs only when TEST_DATABASE_URL and TEST_REDIS_URL are set (a fresh database
 * `test_mp_<random>` is created on that server and dropped at the end).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { Channel, Socket } from 'phoenix';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOSE } from './hub';
import { connect, disconnect, join, phoenixSocket, push, sleep, waitFor } from './testSupport';
import { freePort, withDatabase } from '../../testing/network';
import { serverProcessArgs, serverProcessEnv } from '../../testing/serverProcess';

const databaseUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;
const enabled = !!(databaseUrl && redisUrl);

const AGENT = { email: 'agent@demo.test', password: process.env.DEMO_PASSWORD ?? 'Demo-Console-2026' };
const ADMIN = { email: 'admin@demo.test', password: AGENT.password };
const DEMO_COMPANY = 'Demo Company';

interface ServerProcess {
  name: string;
  child: ChildProcess;
  baseUrl: string;
  output: string[];
}

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function startServer(name: string, port: number, env: Record<string, string>): ServerProcess {
  // node itself, not through npx or npm: each puts a process between, and a SIGTERM to the outer one left
  // the server running after the suite (two orphans per run).
  const child = spawn(process.execPath, serverProcessArgs(), {
    cwd: process.cwd(),
    env: { ...process.env, ...serverProcessEnv(), ...env, PORT: String(port), HOST: '127.0.0.1', NODE_ENV: 'test' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: false,
  });
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(chunk.toString());
    if (output.length > 200) output.shift();
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return { name, child, baseUrl: `http://127.0.0.1:${port}`, output };
}

async function waitHealthy(server: ServerProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null) {
      throw new Error(`server ${server.name} exited with ${server.child.exitCode}:\n${server.output.join('')}`);
    }
    try {
      const res = await fetch(`${server.baseUrl}/api/health/`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error(`server ${server.name} not healthy within ${timeoutMs} ms:\n${server.output.join('')}`);
}

async function stopServer(server: ServerProcess | undefined): Promise<void> {
  if (!server || server.child.exitCode !== null || server.child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => server.child.once('exit', () => resolve()));
  server.child.kill('SIGTERM');
  const timer = setTimeout(() => server.child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

async function login(baseUrl: string, user: { email: string; password: string }): Promise<{ access: string; companyId: number; userId: number }> {
  const res = await fetch(`${baseUrl}/account/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(user),
  });
  if (!res.ok) throw new Error(`login of ${user.email} failed: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { access: string; user: { id: number; companies: { id: number; name: string }[] } };
  const company = body.user.companies.find((c) => c.name === DEMO_COMPANY);
  if (!company) throw new Error(`${user.email} is not a member of ${DEMO_COMPANY}`);
  return { access: body.access, companyId: company.id, userId: body.user.id };
}

const title = enabled
  ? 'two server processes share realtime through Redis (TEST_DATABASE_URL, TEST_REDIS_URL)'
  : 'two server processes share realtime: skipped because TEST_DATABASE_URL and TEST_REDIS_URL are not both set';

describe(title, () => {
  const run = randomBytes(4).toString('hex');
  const dbName = `test_mp_${run}`;
  const dataDir = enabled ? mkdtempSync(path.join(tmpdir(), 'test-mp-')) : '';
  let dbCreated = false;
  let a: ServerProcess | undefined;
  let b: ServerProcess | undefined;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    if (!enabled) return;
    await adminQuery(`CREATE DATABASE ${dbName}`);
    dbCreated = true;
    const [portA, portB] = [await freePort(), await freePort()];
    const common = {
      DATABASE_URL: withDatabase(databaseUrl!, dbName),
      REDIS_URL: redisUrl!,
      REDIS_PREFIX: `test-mp-${run}`,
      // Both processes must accept the tokens either one issues.
      JWT_SECRET: `multi-process-test-secret-${run}-0123456789abcdef`,
      STATIC_DIR: path.join(dataDir, 'no-dist'),
      LOG_LEVEL: 'warn',
      DEMO_PASSWORD: AGENT.password,
      PASSWORD_HASH_COST: String(2 ** 12),
    };
    a = startServer('A', portA, { ...common, DATA_DIR: path.join(dataDir, 'a'), SEED_DEMO: 'true', PUBLIC_URL: `http://127.0.0.1:${portA}` });
    await waitHealthy(a);
    b = startServer('B', portB, { ...common, DATA_DIR: path.join(dataDir, 'b'), SEED_DEMO: 'false', PUBLIC_URL: `http://127.0.0.1:${portB}` });
    await waitHealthy(b);
  }, 120_000);

  afterAll(async () => {
    await Promise.all(sockets.map((s) => disconnect(s).catch(() => undefined)));
    await Promise.all([stopServer(a), stopServer(b)]);
    if (dbCreated) {
      await adminQuery(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(async () => adminQuery(`DROP DATABASE IF EXISTS ${dbName}`));
    }
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 30_000);

  async function client(server: ServerProcess, auth: { access: string; companyId: number }): Promise<Socket> {
    const socket = phoenixSocket(`${server.baseUrl.replace('http', 'ws')}/socket`, 'websocket', { token: auth.access, company_id: String(auth.companyId) });
    sockets.push(socket);
    await connect(socket);
    return socket;
  }

  async function joined(channel: Channel): Promise<unknown> {
    const reply = await join(channel);
    expect(reply.status, `join ${channel.topic}: ${JSON.stringify(reply.response)}`).toBe('ok');
    return reply.response;
  }

  (enabled ? it : it.skip)(
    'a message sent through process A reaches an agent connected to process B exactly once',
    async () => {
      const agentOnB = await login(b!.baseUrl, AGENT);
      const agentOnA = await login(a!.baseUrl, AGENT);

      // Agent on B: lobby → sandbox page → a room of that page.
      const socketB = await client(b!, agentOnB);
      const lobby = socketB.channel('page:lobby', {});
      await joined(lobby);
      const pagesReply = await push(lobby, 'fetch_pages');
      expect(pagesReply.status).toBe('ok');
      const { pages } = pagesReply.response as { pages: { id: number; platform: string }[] };
      const sandboxPage = pages.find((p) => p.platform === 'sandbox');
      expect(sandboxPage, `a sandbox page among ${JSON.stringify(pages)}`).toBeTruthy();

      const page = socketB.channel(`page:${sandboxPage!.id}`, {});
      await joined(page);
      const roomsReply = await push(page, 'fetch_rooms', {});
      expect(roomsReply.status).toBe('ok');
      const { rooms } = roomsReply.response as { rooms: { id: number; name: string; external_id: string; blocked_at: string | null }[] };
      expect(rooms.length).toBeGreaterThan(0);
      const room = rooms.find((r) => r.blocked_at === null) ?? rooms[0];
      const roomId = room.id;
      const roomB = socketB.channel(`room:${roomId}`, {});
      await joined(roomB);

      const onRoom: { id: number; text: string | null; client_id: string | null }[] = [];
      roomB.on('new_message', (payload) => {
        onRoom.push(payload as (typeof onRoom)[number]);
      });
      const onPage: { room_id: number; message: { id: number; client_id: string | null } }[] = [];
      page.on('new_message', (payload) => {
        onPage.push(payload as (typeof onPage)[number]);
      });

      // The same agent on A sends in that room.
      const socketA = await client(a!, agentOnA);
      const roomA = socketA.channel(`room:${roomId}`, { viewing: false });
      await joined(roomA);
      const clientId = `mp-${run}-1`;
      const text = `Hello across processes ${run}`;
      const sent = await push(roomA, 'send_message', { message: { text, client_id: clientId, type: 'text' } });
      expect(sent.status, JSON.stringify(sent.response)).toBe('ok');
      const sentId = (sent.response as { message: { id: number } }).message.id;

      await waitFor(() => onRoom.some((m) => m.client_id === clientId), 10_000, 'new_message on B');
      // Give a duplicate time to show up.
      await sleep(500);
      const mine = onRoom.filter((m) => m.client_id === clientId);
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({ id: sentId, text, client_id: clientId });
      expect(onPage.filter((m) => m.message.client_id === clientId).length).toBeLessThanOrEqual(1);

      // An inbound customer message (the room's customer, through A's simulator API) reaches B
      // too: once on the room topic and once on the page topic.
      const admin = await login(a!.baseUrl, ADMIN);
      const sandboxRes = await fetch(`${a!.baseUrl}/api/sandbox/`, { headers: { Authorization: `Bearer ${admin.access}`, Company: String(admin.companyId) } });
      expect(sandboxRes.ok).toBe(true);
      const { simulator_url } = (await sandboxRes.json()) as { simulator_url: string };
      const key = new URL(simulator_url).pathname.split('/').filter(Boolean).pop()!;
      const customerClientId = `mp-${run}-customer`;
      const inbound = await fetch(`${a!.baseUrl}/api/sandbox/${key}/conversations/${encodeURIComponent(room.external_id)}/messages/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: room.name, text: `From the simulator on A ${run}`, client_id: customerClientId }),
      });
      const inboundBody = await inbound.text();
      expect(inbound.status, inboundBody).toBe(201);
      expect((JSON.parse(inboundBody) as { message: { room_id: number } }).message.room_id).toBe(roomId);
      await waitFor(
        () => onRoom.some((m) => m.client_id === customerClientId) && onPage.some((m) => m.message.client_id === customerClientId),
        10_000,
        'the inbound new_message on room and page topics at B',
      );
      await sleep(500);
      expect(onRoom.filter((m) => m.client_id === customerClientId)).toHaveLength(1);
      const inboundOnPage = onPage.filter((m) => m.message.client_id === customerClientId);
      expect(inboundOnPage).toHaveLength(1);
      expect(inboundOnPage[0].room_id).toBe(roomId);
    },
    60_000,
  );
  /** A round-robin balancer without stickiness: each request goes to the next process. */
  async function roundRobin(targets: ServerProcess[]): Promise<{ url: string; served: Map<string, number>; close(): Promise<void> }> {
    const served = new Map<string, number>();
    let next = 0;
    const server = http.createServer((req, res) => {
      const target = targets[next++ % targets.length];
      if (req.url?.startsWith('/socket/longpoll')) served.set(target.name, (served.get(target.name) ?? 0) + 1);
      const upstream = http.request(`${target.baseUrl}${req.url}`, { method: req.method, headers: { ...req.headers, host: new URL(target.baseUrl).host } }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    });
    const port = await freePort();
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    return {
      url: `http://127.0.0.1:${port}`,
      served,
      close: () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    };
  }

  (enabled ? it : it.skip)(
    'a long-poll session works through a round-robin balancer: replies and broadcasts reach it, with no 410',
    async () => {
      const balancer = await roundRobin([a!, b!]);
      const admin = await login(a!.baseUrl, ADMIN);
      const socket = phoenixSocket(`${balancer.url.replace('http', 'ws')}/socket`, 'longpoll', { token: admin.access, company_id: String(admin.companyId) });
      try {
        const closes: unknown[] = [];
        await connect(socket);
        socket.onClose((event: unknown) => void closes.push(event));

        const lobby = socket.channel('page:lobby', {});
        await joined(lobby);
        // Each push is a POST and its reply comes back in a GET, each on the next process in turn.
        for (let i = 0; i < 4; i++) expect((await push(lobby, 'fetch_pages')).status).toBe('ok');
        const { pages } = (await push(lobby, 'fetch_pages')).response as { pages: { id: number; platform: string }[] };
        const sandboxPage = pages.find((p) => p.platform === 'sandbox')!;
        const page = socket.channel(`page:${sandboxPage.id}`, {});
        await joined(page);
        const { rooms } = (await push(page, 'fetch_rooms', {})).response as { rooms: { id: number; blocked_at: string | null }[] };
        const roomId = (rooms.find((r) => r.blocked_at === null) ?? rooms[0]).id;
        const room = socket.channel(`room:${roomId}`, { viewing: false });
        await joined(room);
        const got: { client_id: string | null }[] = [];
        room.on('new_message', (payload) => {
          got.push(payload as { client_id: string | null });
        });

        // A broadcast from either process reaches the session, once.
        const sender = await client(b!, await login(b!.baseUrl, ADMIN));
        const roomOnB = sender.channel(`room:${roomId}`, { viewing: false });
        await joined(roomOnB);
        const clientId = `lp-${run}`;
        const sent = await push(roomOnB, 'send_message', { message: { text: `Through the balancer ${run}`, client_id: clientId, type: 'text' } });
        expect(sent.status, JSON.stringify(sent.response)).toBe('ok');
        await waitFor(() => got.some((m) => m.client_id === clientId), 10_000, 'new_message on the long-poll session');
        // A later reply on the same session comes after the broadcast: nothing else is on its way.
        expect((await push(lobby, 'fetch_pages')).status).toBe('ok');
        expect(got.filter((m) => m.client_id === clientId)).toHaveLength(1);

        expect(closes).toEqual([]);
        expect(balancer.served.get('A') ?? 0).toBeGreaterThan(3);
        expect(balancer.served.get('B') ?? 0).toBeGreaterThan(3);
      } finally {
        await disconnect(socket);
        await balancer.close();
      }
    },
    60_000,
  );

  /** The socket's close codes and failed (refused) connection attempts, from now on. */
  function watch(socket: Socket): { closes: number[]; errors: () => number } {
    const closes: number[] = [];
    let errors = 0;
    socket.onClose((event: unknown) => void closes.push((event as { code?: number } | undefined)?.code ?? 0));
    socket.onError(() => void errors++);
    return { closes, errors: () => errors };
  }

  async function expectClosedForGood(socket: Socket, w: ReturnType<typeof watch>, code: number): Promise<void> {
    await waitFor(() => w.closes.length > 0, 10_000, 'process B to close the socket');
    expect(w.closes[0]).toBe(code);
    const errorsAtClose = w.errors();
    // The client retries every 50 ms; B must refuse each (its connect cache was invalidated too).
    await waitFor(() => w.errors() >= errorsAtClose + 3, 5_000, 'refused reconnect attempts on B');
    expect(socket.isConnected()).toBe(false);
  }

  (enabled ? it : it.skip)(
    'a logout through process A closes the agent’s socket on process B, which refuses the old token',
    async () => {
      const agent = await login(a!.baseUrl, AGENT);
      const socketB = await client(b!, agent);
      await joined(socketB.channel('page:lobby', {}));
      const w = watch(socketB);
      const res = await fetch(`${a!.baseUrl}/account/logout/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', Authorization: `Bearer ${agent.access}` },
        body: '{}',
      });
      expect(res.status, await res.text()).toBe(200);
      await expectClosedForGood(socketB, w, CLOSE.REVOKED);
    },
    30_000,
  );

  (enabled ? it : it.skip)(
    'removing the agent through process A closes their socket on process B, which refuses them',
    async () => {
      const agent = await login(a!.baseUrl, AGENT);
      const admin = await login(a!.baseUrl, ADMIN);
      const socketB = await client(b!, agent);
      await joined(socketB.channel('page:lobby', {}));
      const w = watch(socketB);
      const headers = { Authorization: `Bearer ${admin.access}`, Company: String(admin.companyId) };
      const list = await fetch(`${a!.baseUrl}/api/members/?page_size=100`, { headers });
      expect(list.ok).toBe(true);
      const { results } = (await list.json()) as { results: { id: number; user_id: number }[] };
      const membership = results.find((m) => m.user_id === agent.userId);
      expect(membership, 'the agent among the members').toBeTruthy();
      const removed = await fetch(`${a!.baseUrl}/api/members/${membership!.id}/`, { method: 'DELETE', headers });
      expect(removed.status, await removed.text()).toBeLessThan(300);
      await expectClosedForGood(socketB, w, CLOSE.MEMBERSHIP_CHANGED);
    },
    30_000,
  );
});
