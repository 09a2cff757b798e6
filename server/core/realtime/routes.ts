/**
 * The socket endpoints: GET /socket/websocket (upgrade) and GET/POST/OPTIONS /socket/longpoll.
 * Both check the Origin, the serializer version and the connect params before a socket exists;
 * a refused websocket gets its HTTP status (400/403) instead of the upgrade. The upgrade itself is
 * admitted before Fastify's router (./upgrade.ts); a plain GET of the websocket path is a routed request.
 */
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import type { AppConfig } from '../config';
import { authenticateSocket, checkVsn, isOriginAllowed, isRefusal, type Connected, type ConnectRefusal } from './connect';
import { CLOSE, type PhoenixHub, type Transport } from './hub';
import { access } from '../access';
import { LONGPOLL_TOKEN_PREFIX, LongPollSessions, MAX_BATCH, sendPoll } from './longPoll';
import { ClusterLongPollSessions, feed } from './longPollCluster';
import { acceptUpgrades, type ConnectRequest, type Query } from './upgrade';

export const SOCKET_PATH = '/socket';

/** Over a connect limit: the API's `throttled` answer (phoenix.js retries with its back-off). */
function throttledConnect(retryAfterSeconds: number): ConnectRefusal {
  return { status: 429, detail: 'Too many attempts. Please try again later.', code: 'throttled', retryAfterSeconds };
}

function values(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/**
 * phoenix.js appends the long-poll session token as another `token` param after the connect
 * params (which carry our access token as `token` too): tell them apart by the session prefix.
 */
function splitTokens(query: Query, header: string | string[] | undefined): { accessToken: string | null; sessionToken: string | null } {
  const tokens = values(query.token);
  const headerToken = typeof header === 'string' ? header : null;
  const sessionToken = headerToken ?? [...tokens].reverse().find((t) => t.startsWith(LONGPOLL_TOKEN_PREFIX)) ?? null;
  const accessToken = tokens.find((t) => !t.startsWith(LONGPOLL_TOKEN_PREFIX)) ?? null;
  return { accessToken, sessionToken };
}

/** A routed request as the admission reads it. */
function connectRequest(request: FastifyRequest): ConnectRequest {
  return { query: request.query as Query, headers: request.headers, ip: request.ip };
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

class WebSocketTransport implements Transport {
  readonly kind = 'websocket' as const;
  constructor(private readonly socket: WebSocket) {}

  send(frame: string): void {
    if (this.socket.readyState === this.socket.OPEN) this.socket.send(frame);
  }

  close(code: number, reason: string, force = false): void {
    if (force) this.socket.terminate();
    else this.socket.close(code, reason);
  }

  bufferedBytes(): number {
    return this.socket.bufferedAmount;
  }
}

export async function registerRealtimeRoutes(app: FastifyInstance, hub: PhoenixHub, config: AppConfig): Promise<void> {
  const { realtime } = config;
  const services = app.services;

  const originOk = (request: Pick<ConnectRequest, 'headers'>) =>
    isOriginAllowed(first(request.headers.origin), request.headers.host, config.publicUrl, realtime.allowedOrigins);

  /** The refusal in the log: a throttled connect is worth an operator's eye (a user or an office over the limit); a bad token is routine. */
  const logRefused = (log: FastifyBaseLogger, transport: 'websocket' | 'long-poll', refusal: ConnectRefusal) =>
    log[refusal.status === 429 ? 'warn' : 'info']({ code: refusal.code }, `realtime: ${transport} connection refused`);

  async function admit(request: ConnectRequest, accessToken: string | null): Promise<Connected | ConnectRefusal> {
    const query = request.query;
    if (hub.closing) return { status: 503, detail: 'The server is shutting down.', code: 'shutting_down' };
    if (!originOk(request)) return { status: 403, detail: 'Origin not allowed.', code: 'origin_not_allowed' };
    const vsn = checkVsn(first(query.vsn));
    if (vsn) return vsn;
    // Per client address before any token check or database read, then per user (limits.ts).
    const clientWait = hub.limits ? await hub.limits.connectFromClient(request.ip) : 0;
    if (clientWait > 0) return throttledConnect(clientWait);
    const result = await authenticateSocket(services, { token: accessToken ?? undefined, companyId: first(query.company_id) }, hub.identities);
    if (isRefusal(result) || !hub.limits) return result;
    const userWait = await hub.limits.connectAsUser(result.identity.userId);
    return userWait > 0 ? throttledConnect(userWait) : result;
  }

  // ---------- websocket ----------
  const stopUpgrades = acceptUpgrades(app, {
    path: `${SOCKET_PATH}/websocket`,
    maxPayload: realtime.maxFrameBytes,
    trustProxy: config.trustProxy,
    log: app.log,
    admit: (request) => admit(request, splitTokens(request.query, undefined).accessToken),
    onRefused: (refusal) => logRefused(app.log, 'websocket', refusal),
    onSocket(socket: WebSocket, connected: Connected) {
      // Oversized frames and protocol errors end that socket only; they are the client's fault.
      socket.on('error', (error) => {
        app.log.info({ err: error }, 'realtime: websocket error');
        socket.terminate();
      });
      // Revoked between the check and the upgrade: hub.disconnect has already run for this identity.
      if (hub.isStale(connected)) {
        socket.close(CLOSE.REVOKED, 'revoked while connecting');
        return;
      }
      const connection = hub.connect(connected.identity, connected.sessionId, new WebSocketTransport(socket));
      socket.on('message', (data: RawData, isBinary: boolean) => {
        const buffer = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
        if (isBinary) connection.handleBinary(buffer);
        else connection.handleText(buffer.toString('utf8'));
      });
      // Pings at the websocket level count as activity too.
      socket.on('ping', () => connection.touch());
      socket.on('close', () => connection.onTransportClosed());
    },
  });
  app.addHook('onClose', async () => stopUpgrades());
  // The same path without an upgrade: admitted as an upgrade would be (its refusals), then told to upgrade.
  app.route({
    method: 'GET',
    url: `${SOCKET_PATH}/websocket`,
    // The socket authenticates itself (token and company_id params, connect.ts); its topics declare their own rules.
    config: { access: access.public('the socket transport checks its token and company_id at connect') },
    async preValidation(request: FastifyRequest, reply: FastifyReply) {
      const result = await admit(connectRequest(request), splitTokens(request.query as Query, undefined).accessToken);
      if (isRefusal(result)) {
        logRefused(request.log, 'websocket', result);
        if (result.retryAfterSeconds) reply.header('retry-after', String(result.retryAfterSeconds));
        return reply.code(result.status).send({ detail: result.detail, code: result.code });
      }
    },
    handler: async (_request: FastifyRequest, reply: FastifyReply) =>
      reply.code(400).send({ detail: 'Expected a websocket upgrade.', code: 'upgrade_required' }),
  });

  // ---------- long-poll ----------
  // One process: sessions in memory. With Redis: any process serves any session (longPollCluster.ts).
  const link = hub.clusterLink();
  const cluster = link ? new ClusterLongPollSessions(hub, link, realtime.longPollSessionTtlMs) : null;
  const sessions = new LongPollSessions(hub, realtime.longPollSessionTtlMs);
  if (cluster) {
    // After the hub's own preClose (registered first): the sessions this process owns have ended by then.
    app.addHook('preClose', (done) => {
      cluster.close();
      done();
    });
  }

  await app.register(async (scope) => {
    // Frames arrive as text whatever the content type (x-ndjson batches, a single JSON frame).
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: realtime.maxFrameBytes * 16 }, (_req, body, done) => done(null, body));

    const cors = (request: FastifyRequest, reply: FastifyReply) => {
      const origin = first(request.headers.origin);
      if (origin && originOk(request)) reply.header('access-control-allow-origin', origin).header('vary', 'origin');
    };

    const transport = { config: { access: access.public('the socket transport checks its token and company_id at connect') } };
    scope.options(`${SOCKET_PATH}/longpoll`, transport, async (request, reply) => {
      cors(request, reply);
      const headers = first(request.headers['access-control-request-headers']);
      if (headers) reply.header('access-control-allow-headers', headers);
      return reply.header('access-control-allow-methods', 'GET, POST, OPTIONS').header('access-control-max-age', '3600').code(204).send();
    });

    scope.get(`${SOCKET_PATH}/longpoll`, transport, async (request, reply) => {
      cors(request, reply);
      const { accessToken, sessionToken } = splitTokens(request.query as Query, request.headers['x-phoenix-longpoll-token']);
      if (sessionToken !== null) {
        if (!originOk(request)) return sendPoll(reply, { status: 403 }, 403);
        if (cluster) {
          if (!(await cluster.poll(sessionToken, accessToken, reply, realtime.longPollTimeoutMs))) return sendPoll(reply, { status: 410 });
          return reply;
        }
        const session = sessions.find(sessionToken);
        if (!session || !session.matchesAccessToken(accessToken)) return sendPoll(reply, { status: 410 });
        session.poll(reply, realtime.longPollTimeoutMs);
        return reply;
      }
      const result = await admit(connectRequest(request), accessToken);
      if (isRefusal(result)) {
        logRefused(request.log, 'long-poll', result);
        // phoenix.js knows 403 (gives up) and 500 (retries later); any other status stalls it.
        if (result.retryAfterSeconds) reply.header('retry-after', String(result.retryAfterSeconds));
        return sendPoll(reply, { status: result.status === 503 || result.status === 429 ? 500 : 403 }, result.status);
      }
      if (hub.isStale(result)) return sendPoll(reply, { status: 403 }, 403);
      const token = cluster ? await cluster.open(result.identity, result.sessionId, accessToken!) : sessions.open(result.identity, result.sessionId, accessToken!).token;
      return sendPoll(reply, { status: 410, token });
    });

    scope.post(`${SOCKET_PATH}/longpoll`, transport, async (request, reply) => {
      cors(request, reply);
      if (!originOk(request)) return sendPoll(reply, { status: 403 }, 403);
      const { accessToken, sessionToken } = splitTokens(request.query as Query, request.headers['x-phoenix-longpoll-token']);
      const body = typeof request.body === 'string' ? request.body : '';
      const contentType = first(request.headers['content-type']) ?? '';
      const lines = contentType.startsWith('application/x-ndjson') ? body.split(/\r?\n/).slice(0, MAX_BATCH) : [body];
      if (cluster) {
        if (sessionToken === null || !(await cluster.post(sessionToken, accessToken, lines))) return sendPoll(reply, { status: 410 });
        return sendPoll(reply, { status: 200 });
      }
      const session = sessionToken !== null ? sessions.find(sessionToken) : undefined;
      if (!session || !session.matchesAccessToken(accessToken)) return sendPoll(reply, { status: 410 });
      feed(session.connection, session, lines);
      return sendPoll(reply, { status: 200 });
    });
  });
}
