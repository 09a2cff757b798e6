/**
 * The websocket's upgrade, admitted and accepted on the HTTP server's `upgrade` event, before Fastify's router.
 *
 * Through `@fastify/websocket`, each upgrade built what a routed request builds (a `ServerResponse`, Fastify's
 * request and reply, its hooks) for an answer that is never an HTTP response but a 101 written by `ws`: about a
 * quarter of the server's CPU per connect and much of its garbage (bench/realtime, issue #26). Here the same
 * admission (origin, serializer version, the connect limits, the token: `admit` in routes.ts) runs on the raw
 * request, a refusal is written as the HTTP answer it was (its status, `retry-after`, the API's JSON error),
 * and `ws` completes the handshake. An upgrade to any other path is routed by Fastify as before (its 404).
 */
import { ServerResponse, STATUS_CODES, type IncomingHttpHeaders, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import proxyAddr from '@fastify/proxy-addr';
import { parse as parseQueryString } from 'fast-querystring';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { WebSocketServer, type WebSocket } from 'ws';
import { fastifyTrustProxy, type TrustProxy } from '../config';
import { INTERNAL_ERROR } from '../errors';
import type { Connected, ConnectRefusal } from './connect';
import { isRefusal } from './connect';

export type Query = Record<string, string | string[] | undefined>;

/** What the admission reads of a connect request, whether it came as an upgrade or through Fastify. */
export interface ConnectRequest {
  readonly query: Query;
  readonly headers: IncomingHttpHeaders;
  readonly ip: string;
}

export interface UpgradeOptions {
  path: string;
  maxPayload: number;
  trustProxy: TrustProxy;
  /** Decides on the connect. */
  admit(request: ConnectRequest): Promise<Connected | ConnectRefusal>;
  /** Logs a refusal, as the other transports do. */
  onRefused(refusal: ConnectRefusal): void;
  onSocket(socket: WebSocket, connected: Connected): void;
  log: FastifyBaseLogger;
}

/**
 * The query string as Fastify parses it, by the parser its router uses (a repeated key becomes a list: phoenix.js
 * repeats `token` on long-poll). URLSearchParams read it otherwise: `?constructor=…` met Object's own property, a
 * malformed escape became U+FFFD, and iterating it allocated an array a pair (bench/realtime).
 */
export function parseQuery(search: string): Query {
  return parseQueryString(search) as Query;
}

/** The client's address as Fastify's `request.ip` reads it, under the same trustProxy setting (config.ts). */
export function clientAddress(trustProxy: TrustProxy): (request: IncomingMessage) => string {
  // The very value the app gives Fastify (app.ts), compiled as Fastify compiles it.
  const setting = fastifyTrustProxy(trustProxy);
  if (setting === false) return (request) => request.socket.remoteAddress ?? '';
  const trust = setting === true ? () => true : typeof setting === 'function' ? setting : proxyAddr.compile(setting);
  return (request) => {
    const addresses = proxyAddr.all(request, trust);
    return addresses[addresses.length - 1] ?? '';
  };
}

/** An HTTP answer on a socket that asked for an upgrade, then the socket closed. */
function answer(socket: Duplex, status: number, body: object, headers: Record<string, string> = {}): void {
  if (socket.destroyed) return;
  const json = JSON.stringify(body);
  const lines = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`,
    'content-type: application/json; charset=utf-8',
    `content-length: ${Buffer.byteLength(json)}`,
    'connection: close',
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  socket.end(`${lines.join('\r\n')}\r\n\r\n${json}`);
}

/** Serves `options.path`'s upgrades on `app.server`; returns what stops it (at the app's close). */
export function acceptUpgrades(app: FastifyInstance, options: UpgradeOptions): () => void {
  const wss = new WebSocketServer({ noServer: true, maxPayload: options.maxPayload });
  const ipOf = clientAddress(options.trustProxy);
  // Node removes its own error listener from the socket before 'upgrade': a reset during the admission is the
  // client's doing and ends that socket only. `ws` puts its own listener on once it takes the socket.
  const ignoreResetWhileAdmitting = () => undefined;

  async function admitAndUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer, query: Query): Promise<void> {
    let result: Connected | ConnectRefusal;
    try {
      result = await options.admit({ query, headers: request.headers, ip: ipOf(request) });
    } catch (err) {
      options.log.error({ err }, 'realtime: websocket admission failed');
      return answer(socket, 500, INTERNAL_ERROR);
    }
    if (isRefusal(result)) {
      options.onRefused(result);
      return answer(socket, result.status, { detail: result.detail, code: result.code }, result.retryAfterSeconds ? { 'retry-after': String(result.retryAfterSeconds) } : {});
    }
    if (socket.destroyed) return;
    socket.removeListener('error', ignoreResetWhileAdmitting);
    // `ws` checks the handshake itself (method, version, key) and answers 400 to a malformed one.
    wss.handleUpgrade(request, socket, head, (webSocket) => options.onSocket(webSocket, result));
  }

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', ignoreResetWhileAdmitting);
    const raw = request.url ?? '/';
    // Where the router ends the path and starts the query: the first `?` or `#` (find-my-way's url-sanitizer).
    const queryAt = raw.search(/[?#]/);
    // The socket's path as sent needs no URL parser (a few per cent of a connect's CPU, bench/realtime); any other
    // spelling (dot segments, escapes) is read as the URL parser reads it, as before.
    const path = queryAt < 0 ? raw : raw.slice(0, queryAt);
    if (path !== options.path && new URL(raw, 'http://upgrade.invalid').pathname !== options.path) {
      // Not ours: Fastify answers it as any request to that path (a 404 in the API's shape).
      const response = new ServerResponse(request);
      response.assignSocket(socket as never);
      response.on('finish', () => socket.destroy());
      app.routing(request, response);
      return;
    }
    // The query as sent, as the router reads it (the URL parser would re-encode some of its characters).
    void admitAndUpgrade(request, socket, head, parseQuery(queryAt < 0 ? '' : raw.slice(queryAt + 1)));
  };

  const server: Server = app.server;
  server.on('upgrade', onUpgrade);
  return () => {
    server.removeListener('upgrade', onUpgrade);
    wss.close();
  };
}
