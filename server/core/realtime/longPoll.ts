/**
 * Long-poll sessions (Phoenix.Transports.LongPoll as phoenix.js 1.8 expects it). Every answer
 * is JSON with HTTP 200 unless refused, the protocol status inside:
 * - GET without a session token: connect → `{status: 410, token}` (the session is open),
 *   or `{status: 403}` when refused.
 * - GET with the token: `{status: 200, token, messages}` as soon as frames are queued, else
 *   `{status: 204, token}` after the poll window; `{status: 410}` when the session is gone.
 * - POST with the token: frames from the client, one per line (application/x-ndjson, batches of
 *   up to 100) or one frame as the whole body → `{status: 200}`; `{status: 410}` when gone.
 * The session token is 256 random bits, known only to the client that opened the session, and
 * bound to the access token it connected with.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { CLOSE, type Connection, type PhoenixHub, type Transport } from './hub';
import type { SocketIdentity } from './types';

export const LONGPOLL_TOKEN_PREFIX = 'lp.';
/** Lines read from one POST, as Phoenix does. */
export const MAX_BATCH = 100;

export interface PollBody {
  status: number;
  token?: string | null;
  messages?: string[];
}

function hash(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

class LongPollSession implements Transport {
  readonly kind = 'longpoll' as const;
  connection!: Connection;
  private queue: string[] = [];
  private queuedBytes = 0;
  private waiting: { reply: FastifyReply; timer: NodeJS.Timeout; flush: NodeJS.Immediate | null } | null = null;
  closed = false;

  constructor(
    private readonly sessions: LongPollSessions,
    readonly token: string,
    private readonly accessTokenHash: Buffer,
  ) {}

  matchesAccessToken(accessToken: string | null): boolean {
    // The official client repeats its connect params on every request; other clients may omit them.
    return accessToken === null || timingSafeEqual(hash(accessToken), this.accessTokenHash);
  }

  send(frame: string): void {
    if (this.closed) return;
    this.queue.push(frame);
    this.queuedBytes += frame.length;
    // Frames sent in the same tick go out in one response.
    if (this.waiting && !this.waiting.flush) this.waiting.flush = setImmediate(() => this.flush());
  }

  bufferedBytes(): number {
    return this.queuedBytes;
  }

  busy(): boolean {
    return this.waiting !== null;
  }

  close(code: number, _reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.sessions.forget(this);
    this.queue = [];
    this.queuedBytes = 0;
    // On shutdown the client must not reuse this keep-alive connection: a request reaching a
    // closing Fastify gets a 503 whose JSON has no `status`, which stalls phoenix.js's LongPoll.
    if (this.waiting) this.answer({ status: 410 }, code === CLOSE.GOING_AWAY);
  }

  /** A GET with this session's token. */
  poll(reply: FastifyReply, windowMs: number): void {
    this.connection.touch();
    // A newer poll replaces one still waiting (the client only ever keeps one).
    if (this.waiting) this.answer({ status: 204, token: this.token });
    if (this.queue.length > 0) {
      this.respondMessages(reply);
      return;
    }
    const timer = setTimeout(() => this.answer({ status: 204, token: this.token }), windowMs);
    this.waiting = { reply, timer, flush: null };
    reply.raw.on('close', () => {
      if (this.waiting?.reply === reply) this.clearWaiting();
    });
  }

  private respondMessages(reply: FastifyReply): void {
    const messages = this.queue;
    this.queue = [];
    this.queuedBytes = 0;
    sendPoll(reply, { status: 200, token: this.token, messages });
  }

  private flush(): void {
    if (!this.waiting) return;
    const { reply } = this.waiting;
    this.clearWaiting();
    this.respondMessages(reply);
  }

  private clearWaiting(): void {
    if (!this.waiting) return;
    clearTimeout(this.waiting.timer);
    if (this.waiting.flush) clearImmediate(this.waiting.flush);
    this.waiting = null;
    if (!this.closed) this.connection.touch();
  }

  private answer(body: PollBody, closeConnection = false): void {
    if (!this.waiting) return;
    const { reply } = this.waiting;
    this.clearWaiting();
    if (closeConnection) reply.header('connection', 'close');
    sendPoll(reply, body);
  }
}

export function sendPoll(reply: FastifyReply, body: PollBody, httpStatus = 200): void {
  if (reply.sent || reply.raw.destroyed) return;
  void reply.code(httpStatus).type('application/json; charset=utf-8').header('cache-control', 'no-store').send(JSON.stringify(body));
}

export class LongPollSessions {
  private readonly sessions = new Map<string, LongPollSession>();

  /** `ttlMs`: a session not polled for this long is gone, whether or not the hub's sweep has run yet. */
  constructor(
    private readonly hub: PhoenixHub,
    private readonly ttlMs = Number.POSITIVE_INFINITY,
  ) {}

  open(identity: SocketIdentity, sessionId: string, accessToken: string): LongPollSession {
    const token = LONGPOLL_TOKEN_PREFIX + randomBytes(32).toString('base64url');
    const session = new LongPollSession(this, token, hash(accessToken));
    session.connection = this.hub.connect(identity, sessionId, session);
    this.sessions.set(token, session);
    return session;
  }

  find(token: string): LongPollSession | undefined {
    const session = this.sessions.get(token);
    // Expired on access, not only at the next sweep: a loaded event loop delays the sweep's timer, never this.
    if (session && !session.busy() && performance.now() - session.connection.lastSeen > this.ttlMs) {
      session.connection.close(CLOSE.IDLE, 'session expired');
      return undefined;
    }
    return session;
  }

  forget(session: LongPollSession): void {
    if (this.sessions.get(session.token) === session) this.sessions.delete(session.token);
    session.connection.onTransportClosed();
  }

  count(): number {
    return this.sessions.size;
  }
}
