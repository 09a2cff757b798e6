/**
 * Test support for the realtime suites: a real app listening on a port with the reference
 * `echo:*` channel (registered by tests only, never in production), a signed-in member, and the
 * official phoenix.js client configured for Node (ws as the WebSocket, fetch for long-poll) with
 * short back-offs.
 */
import { LongPoll, Socket, type Channel, type SocketConnectOption } from 'phoenix';
import WebSocket from 'ws';
import type { FastifyInstance } from 'fastify';
import { createTestApp, type TestApp, type TestAppOptions } from '../../testing/testApp';
import { DEFAULT_REALTIME_CONFIG, type RealtimeConfig } from '../config';
import type { ChannelHandler, RealtimeHub } from './types';
import { topicAccess } from '../access/topics';

/** The reference channel's topics name nothing a tenant owns. */
export const ECHO_ACCESS = topicAccess.member('test-only reference channel: its suffix names no resource');

export type TransportName = 'websocket' | 'longpoll';

/**
 * The reference channel. join payload: `{refuse: reason}` refuses, `{crash: true}` throws,
 * `{presence: key}` tracks a presence with meta `{name}`. Events: `echo` replies ok with the
 * payload, `fail` replies error, `boom` throws, `push` pushes `pushed` to this client,
 * `shout` broadcasts `shouted` to the topic, `silent` has no reply.
 */
export function echoHandler(hub: RealtimeHub, calls: { terminated: string[] } = { terminated: [] }): ChannelHandler {
  return {
    async join(topic, payload, ctx) {
      const p = (payload ?? {}) as Record<string, unknown>;
      if (typeof p.refuse === 'string') return { status: 'error', response: { reason: p.refuse } };
      if (p.crash) throw new Error('join crash requested by the test');
      if (typeof p.presence === 'string') hub.trackPresence(ctx, p.presence, { name: ctx.identity.firstName });
      ctx.assigns.joinedAs = ctx.identity.email;
      return { status: 'ok', response: { topic, user_id: ctx.identity.userId, company_id: ctx.identity.companyId, role: ctx.identity.role } };
    },
    async handleIn(event, payload, ctx) {
      switch (event) {
        case 'echo':
          return { status: 'ok', response: payload };
        case 'fail':
          return { status: 'error', response: { reason: 'failed on purpose' } };
        case 'boom':
          throw new Error('handler crash requested by the test');
        case 'push':
          ctx.push('pushed', payload);
          return { status: 'ok', response: {} };
        case 'shout':
          await hub.broadcast(ctx.topic, 'shouted', payload);
          return { status: 'ok', response: {} };
        case 'slow':
          await new Promise((resolve) => setTimeout(resolve, 50));
          return { status: 'ok', response: payload };
        default:
          return undefined;
      }
    },
    terminate(ctx) {
      calls.terminated.push(ctx.topic);
    },
  };
}

export interface RealtimeTestApp {
  t: TestApp;
  /** http://127.0.0.1:port */
  baseUrl: string;
  /** ws://127.0.0.1:port/socket (the phoenix.js endpoint) */
  endpoint: string;
  access: string;
  companyId: number;
  userId: number;
  terminated: string[];
  hub(): RealtimeHub;
  close(): Promise<void>;
}

export async function startRealtimeApp(
  options: { realtime?: Partial<RealtimeConfig>; redisUrl?: string | null; database?: TestAppOptions['database']; email?: string; overrides?: TestAppOptions['overrides'] } = {},
): Promise<RealtimeTestApp> {
  const calls = { terminated: [] as string[] };
  const t = await createTestApp({
    database: options.database,
    overrides: options.overrides,
    config: {
      redisUrl: options.redisUrl ?? null,
      realtime: { ...DEFAULT_REALTIME_CONFIG, longPollTimeoutMs: 400, ...options.realtime },
    },
    onBuild: (app: FastifyInstance) => app.realtime.registerChannel('echo', ECHO_ACCESS, echoHandler(app.realtime, calls)),
  });
  const email = options.email ?? 'agent@example.com';
  const userId = await t.seed.user({ email, firstName: 'Ada' });
  const companyId = await t.seed.company('Acme');
  await t.seed.member(companyId, userId, 'agent');
  const { access } = await t.login(email);
  const baseUrl = await t.listen();
  return {
    t,
    baseUrl,
    endpoint: `${baseUrl.replace('http', 'ws')}/socket`,
    access,
    companyId,
    userId,
    terminated: calls.terminated,
    hub: () => t.app.realtime,
    async close() {
      // A client may leave a connection open without a request (undici after an abort); the
      // server would wait for it until its headers timeout, so drop what is left once closing.
      const server = t.app.server;
      const closing = t.close();
      await sleep(20);
      server.closeAllConnections();
      await closing;
    },
  };
}

/** The official client with Node transports and short test back-offs. */
export function phoenixSocket(endpoint: string, transport: TransportName, params: object | (() => object), opts: Partial<SocketConnectOption> = {}): Socket {
  return new Socket(endpoint, {
    transport: (transport === 'websocket' ? WebSocket : LongPoll) as unknown as SocketConnectOption['transport'],
    params,
    reconnectAfterMs: () => 50,
    rejoinAfterMs: () => 50,
    longpollerTimeout: 5_000,
    timeout: 2_000,
    ...opts,
  });
}

/** Connects and resolves once open; rejects on the first error. */
export function connect(socket: Socket): Promise<void> {
  return new Promise((resolve, reject) => {
    const refs = [
      socket.onOpen(() => {
        socket.off(refs);
        resolve();
      }),
      socket.onError((error: unknown) => {
        socket.off(refs);
        reject(new Error(`socket error: ${String(error)}`));
      }),
    ];
    socket.connect();
  });
}

export function disconnect(socket: Socket): Promise<void> {
  return new Promise((resolve) => socket.disconnect(() => resolve()));
}

/** Resolves with the join reply's status and response. */
export function join(channel: Channel): Promise<{ status: 'ok' | 'error' | 'timeout'; response: unknown }> {
  return new Promise((resolve) => {
    channel
      .join()
      .receive('ok', (response) => resolve({ status: 'ok', response }))
      .receive('error', (response) => resolve({ status: 'error', response }))
      .receive('timeout', () => resolve({ status: 'timeout', response: null }));
  });
}

export function push(channel: Channel, event: string, payload: object = {}, timeout?: number): Promise<{ status: 'ok' | 'error' | 'timeout'; response: unknown }> {
  return new Promise((resolve) => {
    channel
      .push(event, payload, timeout)
      .receive('ok', (response) => resolve({ status: 'ok', response }))
      .receive('error', (response) => resolve({ status: 'error', response }))
      .receive('timeout', () => resolve({ status: 'timeout', response: null }));
  });
}

/** Resolves with the next payload of `event` on the channel. */
export function nextEvent(channel: Channel, event: string, timeoutMs = 3_000): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      channel.off(event, ref);
      reject(new Error(`no ${event} on ${channel.topic} within ${timeoutMs} ms`));
    }, timeoutMs);
    const ref = channel.on(event, (payload) => {
      clearTimeout(timer);
      channel.off(event, ref);
      resolve(payload);
    });
  });
}

export async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs = 3_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
