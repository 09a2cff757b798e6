/**
 * The fuzz runner shared by the property tests (server/testing/fuzz.test.ts, a few cases per route in
 * `npm test`) and bench/fuzz (100,000 cases): requests generated from each route's zod schemas,
 * mutated (mutate.ts), sent with valid auth to every route of the route table; socket pushes
 * generated from the inbox's payload schemas. Nothing may answer 5xx; a socket channel may not crash.
 */
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import type { ZodType } from 'zod';
import type { Channel, Socket } from 'phoenix';
import {
  CHAT_EVENTS,
  CreateRoomPayload,
  FetchMessagesPayload,
  FetchRoomsPayload,
  SendMessagePayload,
  TagPayload,
  UpdateUserPayload,
  ViewPayload,
} from '../../../contract/chats';
import type { RouteAccessEntry } from '../../core/access';
import type { World } from '../isolation/world';
import { arbitraryFor } from './zodArbitrary';
import { materialize, mutated, serialize, toQuery } from './mutate';

export interface ServerError {
  where: string;
  status: number | string;
  body: string;
  input: string;
}

export interface FuzzStats {
  cases: number;
  byStatus: Record<string, number>;
  serverErrors: ServerError[];
}

export function emptyStats(): FuzzStats {
  return { cases: 0, byStatus: {}, serverErrors: [] };
}

function schemaPart(entry: RouteAccessEntry, part: 'body' | 'querystring'): ZodType | undefined {
  return (entry.schema as Record<string, ZodType | undefined> | undefined)?.[part];
}

const EMPTY = fc.constant({} as Record<string, unknown>);

/** Path parameters: the caller's own ids, and what an attacker types instead. */
function paramArbitrary(world: World): fc.Arbitrary<string> {
  const own = [world.A.roomId, world.A.agentTemplateId, world.A.whatsappChannelId, world.A.agentMembership, world.A.inviteId, world.A.id].map(String);
  return fc.oneof(
    fc.constantFrom(...own, world.A.simulatorKey),
    fc.nat().map(String),
    fc.constantFrom('-1', '0', '1e3', '9'.repeat(40), '%00', '..%2F..%2Fetc', 'null', '%7B%7D', '%E2%80%AE', 'agent', 'admin'),
    fc.string({ minLength: 1, maxLength: 30 }).map(encodeURIComponent),
  );
}

export interface RouteCase {
  url: string;
  payload?: unknown;
  mutations: string[];
}

/** One route's cases: mutated body and querystring, fuzzed path parameters. */
export function routeCaseArbitrary(entry: RouteAccessEntry, world: World): fc.Arbitrary<RouteCase> {
  const body = schemaPart(entry, 'body');
  const query = schemaPart(entry, 'querystring');
  const names = [...entry.url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);
  const params = fc.tuple(...names.map(() => paramArbitrary(world)), paramArbitrary(world));
  return fc
    .tuple(mutated(body ? arbitraryFor(body) : EMPTY), mutated(query ? arbitraryFor(query) : EMPTY), params, fc.boolean())
    .map(([b, q, values, sendBody]) => {
      let i = 0;
      const path = entry.url.replace(/:([A-Za-z0-9_]+)/g, () => values[i++]).replace('*', `fuzz/${values[values.length - 1]}`);
      const qs = toQuery(q.value);
      const withBody = !['GET', 'HEAD', 'OPTIONS'].includes(entry.method) && (body !== undefined || sendBody);
      return { url: qs ? `${path}?${qs}` : path, payload: withBody ? b.value : undefined, mutations: [...b.mutations.map((m) => `body:${m}`), ...q.mutations.map((m) => `query:${m}`)] };
    });
}

function authFor(entry: RouteAccessEntry, world: World): Record<string, string> {
  if (entry.access.kind === 'user') return { authorization: `Bearer ${world.A.admin.access}` };
  if (entry.access.kind === 'company') return { authorization: `Bearer ${world.A.admin.access}`, company: String(world.A.id) };
  return {};
}

/** Sends `count` generated cases to one route (deterministic for a seed). */
export async function fuzzRoute(app: FastifyInstance, world: World, entry: RouteAccessEntry, count: number, seed: number, stats: FuzzStats): Promise<void> {
  const samples = fc.sample(routeCaseArbitrary(entry, world), { numRuns: count, seed });
  for (const sample of samples) {
    const headers = authFor(entry, world);
    const payload = sample.payload;
    const res = await app.inject({
      method: entry.method as 'POST',
      url: sample.url,
      headers: payload !== undefined ? { ...headers, 'content-type': 'application/json' } : headers,
      ...(payload !== undefined ? { payload: serialize(payload) } : {}),
    });
    stats.cases++;
    stats.byStatus[res.statusCode] = (stats.byStatus[res.statusCode] ?? 0) + 1;
    if (res.statusCode >= 500) {
      stats.serverErrors.push({
        where: `${entry.method} ${entry.url}`,
        status: res.statusCode,
        body: res.body.slice(0, 300),
        input: `${sample.url.slice(0, 300)} ${serialize(payload ?? null).slice(0, 300)} [${sample.mutations.join(', ')}]`,
      });
    }
  }
}

/** The routes to fuzz: everything but the socket transport, the static console and the demo fakes. */
export function fuzzableRoutes(routes: readonly RouteAccessEntry[]): RouteAccessEntry[] {
  const skipped = (e: RouteAccessEntry) => e.url.startsWith('/socket/') || e.url === '/*' || e.url.startsWith('/dev/') || e.url.startsWith('/api/test-only/');
  // Leaving or logging out last: they end the caller's membership or session for the routes after them.
  const last = (e: RouteAccessEntry) => (e.method === 'DELETE' || e.url.includes('logout') || e.url.includes('password') ? 1 : 0);
  return routes.filter((e) => !skipped(e)).sort((a, b) => last(a) - last(b));
}

// ---------- socket ----------

const EMPTY_PAYLOAD = fc.constant({});

/** The inbox's socket events and the schemas of their payloads. */
export const SOCKET_EVENTS: Record<'page' | 'room', Record<string, fc.Arbitrary<unknown>>> = {
  page: {
    [CHAT_EVENTS.fetchPages]: EMPTY_PAYLOAD,
    [CHAT_EVENTS.fetchRooms]: arbitraryFor(FetchRoomsPayload),
    [CHAT_EVENTS.createNewChatRoom]: arbitraryFor(CreateRoomPayload),
  },
  room: {
    [CHAT_EVENTS.view]: arbitraryFor(ViewPayload),
    [CHAT_EVENTS.fetchMessages]: arbitraryFor(FetchMessagesPayload),
    [CHAT_EVENTS.updateUser]: arbitraryFor(UpdateUserPayload),
    [CHAT_EVENTS.sendMessage]: arbitraryFor(SendMessagePayload),
    [CHAT_EVENTS.addTag]: arbitraryFor(TagPayload),
    [CHAT_EVENTS.removeTag]: arbitraryFor(TagPayload),
    [CHAT_EVENTS.blockUser]: EMPTY_PAYLOAD,
    [CHAT_EVENTS.unblockUser]: EMPTY_PAYLOAD,
  },
};

export interface SocketCase {
  topic: 'page' | 'room';
  event: string;
  payload: unknown;
  mutations: string[];
}

export function socketCaseArbitrary(): fc.Arbitrary<SocketCase> {
  const cases = (Object.keys(SOCKET_EVENTS) as ('page' | 'room')[]).flatMap((topic) =>
    Object.entries(SOCKET_EVENTS[topic]).map(([event, payload]) => mutated(payload).map((m) => ({ topic, event, payload: m.value, mutations: m.mutations }))),
  );
  const unknownEvent = fc.tuple(fc.constantFrom<'page' | 'room'>('page', 'room'), fc.string({ maxLength: 20 }), fc.jsonValue({ maxDepth: 3 })).map(([topic, event, payload]) => ({ topic, event, payload, mutations: ['unknown-event'] }));
  return fc.oneof({ arbitrary: fc.oneof(...cases), weight: 9 }, { arbitrary: unknownEvent, weight: 1 });
}

/** Frames over this are refused by design (REALTIME_MAX_FRAME_BYTES closes the socket): not sent. */
const SOCKET_PAYLOAD_CAP = 60_000;

export interface SocketFuzzResult extends FuzzStats {
  /** phx_error on a channel: its handler threw. */
  channelCrashes: { event: string; input: string }[];
  skipped: number;
}

/**
 * Pushes `count` generated events on page:{A's page} and room:{A's room} through a real socket.
 * `open` connects a socket and joins a topic (the caller owns the phoenix client and its transport).
 */
export async function fuzzSocket(
  open: () => Promise<{ socket: Socket; channels: Record<'page' | 'room', Channel> }>,
  close: (socket: Socket) => Promise<void>,
  count: number,
  seed: number,
  pushTimeoutMs = 5_000,
): Promise<SocketFuzzResult> {
  const result: SocketFuzzResult = { ...emptyStats(), channelCrashes: [], skipped: 0 };
  let current = await open();
  let lastCase = '';
  // A crash is the server's phx_error frame on a topic (its handler threw) — not a socket closed by the
  // rate limit or the frame size, which the client reconnects from.
  const watch = (c: typeof current) => {
    c.socket.onMessage((raw) => {
      const message = raw as { event?: string; topic?: string };
      if (message.event === 'phx_error') result.channelCrashes.push({ event: `phx_error on ${message.topic}`, input: lastCase });
    });
  };
  watch(current);
  for (const sample of fc.sample(socketCaseArbitrary(), { numRuns: count, seed })) {
    // A socket client cannot send deeper than its own JSON.stringify allows: 1,000 levels.
    sample.payload = materialize(sample.payload, 1_000);
    const json = JSON.stringify(sample.payload ?? null);
    if (Buffer.byteLength(json) > SOCKET_PAYLOAD_CAP) {
      result.skipped++;
      continue;
    }
    lastCase = `${sample.topic} ${sample.event} ${json.slice(0, 300)} [${sample.mutations.join(', ')}]`;
    if (!current.socket.isConnected()) {
      await close(current.socket).catch(() => undefined);
      current = await open();
      watch(current);
    }
    const status = await new Promise<string>((resolve) => {
      current.channels[sample.topic]
        .push(sample.event, (sample.payload ?? {}) as object, pushTimeoutMs)
        .receive('ok', () => resolve('ok'))
        .receive('error', () => resolve('error'))
        .receive('timeout', () => resolve('timeout'));
    });
    result.cases++;
    result.byStatus[status] = (result.byStatus[status] ?? 0) + 1;
    if (status === 'timeout') result.serverErrors.push({ where: `${sample.topic} ${sample.event}`, status, body: '', input: lastCase });
  }
  await close(current.socket);
  return result;
}
