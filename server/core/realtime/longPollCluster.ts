/**
 * Long-poll sessions any process can serve (issue #21: a round-robin balancer, no stickiness). Used
 * when the hub has Redis; one process keeps the in-memory sessions of longPoll.ts.
 *
 * The process that opens a session owns it: its Connection, the channels joined on it and their
 * handlers live there, as for a websocket. What every process shares is in Redis:
 * - `<prefix>:lp:<sid>` {node, ath}: the owner and the hash of the access token the session was opened
 *   with (sid is the SHA-256 of the session token: the token itself is never stored). Its TTL is the
 *   session's life (REALTIME_LONGPOLL_SESSION_TTL_MS), renewed by every poll on any process; the owner
 *   closes the session once the key is gone.
 * - `<prefix>:lp:<sid>:out`: the frames for the client, in order. The owner appends (one RPUSH per tick)
 *   and announces `lp_ready` on the fan-out; the process holding the client's GET takes the whole list
 *   atomically (LRANGE + DEL in MULTI) and answers with it.
 * A POST reaching another process is forwarded to the owner as an `lp_in` command on the fan-out (one
 * Redis channel, so the owner receives the client's batches in the order they were answered). A session
 * whose owner died (no heartbeat, see fanout.ts) answers 410: phoenix.js opens a new session on
 * whichever process it reaches and rejoins its channels.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { BackgroundJob } from '../jobs/backgroundJob';
import { CLOSE, type ClusterLink, type Connection, type PhoenixHub, type Transport } from './hub';
import { LONGPOLL_TOKEN_PREFIX, sendPoll, type PollBody } from './longPoll';
import type { SocketIdentity } from './types';

interface SessionRecord {
  node: string;
  /** SHA-256 (hex) of the access token the session was opened with. */
  ath: string;
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The session as its owner holds it: frames go to the Redis list instead of a response. */
class OwnedSession implements Transport {
  readonly kind = 'longpoll' as const;
  connection!: Connection;
  closed = false;
  private batch: string[] = [];
  private batchBytes = 0;
  /** Bytes appended and, as far as this process knows, not taken yet (reset when an append finds the list empty). */
  private pendingBytes = 0;
  private scheduled = false;
  private appending: Promise<void> = Promise.resolve();

  constructor(
    private readonly sessions: ClusterLongPollSessions,
    readonly sid: string,
  ) {}

  send(frame: string): void {
    if (this.closed) return;
    this.batch.push(frame);
    this.batchBytes += frame.length;
    if (this.scheduled) return;
    // Frames sent in the same tick go in one append (and one announcement).
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.appending = this.appending.then(() => this.append());
    });
  }

  private async append(): Promise<void> {
    const frames = this.batch.splice(0);
    const bytes = this.batchBytes;
    this.batchBytes = 0;
    if (frames.length === 0 || this.closed) return;
    try {
      const length = await this.sessions.append(this.sid, frames);
      this.pendingBytes = length === frames.length ? bytes : this.pendingBytes + bytes;
    } catch (err) {
      // Frames the client will never get: end the session rather than leave a gap (the client opens a
      // new one and rejoins, and a room join catches up on what it missed).
      this.sessions.log.warn({ err }, 'realtime: could not queue frames of a long-poll session; closing it');
      this.connection.close(CLOSE.GOING_AWAY, 'session queue unavailable');
    }
  }

  bufferedBytes(): number {
    return this.pendingBytes + this.batchBytes;
  }

  /** Its idle limit is the Redis key's TTL (any process's polls renew it), checked by the sessions' expiry pass. */
  busy(): boolean {
    return true;
  }

  close(code: number): void {
    if (this.closed) return;
    this.closed = true;
    this.sessions.ended(this, code);
  }
}

interface Waiter {
  sid: string;
  token: string;
  reply: FastifyReply;
  timer: NodeJS.Timeout;
  done: boolean;
  draining: boolean;
  /** An announcement arrived while draining: take the list once more. */
  dirty: boolean;
}

export class ClusterLongPollSessions {
  private readonly owned = new Map<string, OwnedSession>();
  private readonly waiters = new Map<string, Set<Waiter>>();
  private readonly expiry: BackgroundJob;
  readonly log: PhoenixHub['log'];

  constructor(
    private readonly hub: PhoenixHub,
    private readonly link: ClusterLink,
    private readonly ttlMs: number,
  ) {
    this.log = hub.log;
    link.on('lp_ready', ({ sid }) => {
      for (const waiter of this.waiters.get(String(sid)) ?? []) void this.drain(waiter);
    });
    link.on('lp_closed', ({ sid }) => {
      for (const waiter of [...(this.waiters.get(String(sid)) ?? [])]) this.finish(waiter, { status: 410 });
    });
    link.on('lp_in', ({ sid, node, lines }) => {
      if (node !== link.nodeId || !Array.isArray(lines)) return;
      const session = this.owned.get(String(sid));
      if (session) feed(session.connection, session, lines.filter((line): line is string => typeof line === 'string'));
    });
    this.expiry = new BackgroundJob({
      run: () => this.expire(),
      intervalMs: () => Math.max(20, Math.min(5_000, Math.floor(ttlMs / 3))),
      whileRunning: 'skip',
      log: hub.log,
      failureMessage: 'realtime: the long-poll session expiry pass failed',
    });
    this.expiry.start();
  }

  private key(sid: string): string {
    return `${this.link.keyPrefix}:lp:${sid}`;
  }

  private outKey(sid: string): string {
    return `${this.link.keyPrefix}:lp:${sid}:out`;
  }

  async open(identity: SocketIdentity, sessionId: string, accessToken: string): Promise<string> {
    const token = LONGPOLL_TOKEN_PREFIX + randomBytes(32).toString('base64url');
    const sid = sha256(token);
    const record: SessionRecord = { node: this.link.nodeId, ath: sha256(accessToken) };
    await this.link.redis.set(this.key(sid), JSON.stringify(record), 'PX', this.ttlMs);
    const session = new OwnedSession(this, sid);
    session.connection = this.hub.connect(identity, sessionId, session);
    this.owned.set(sid, session);
    return token;
  }

  /** The session's record when it is there, opened with this access token (when given) and owned by a live process. */
  private async lookup(token: string, accessToken: string | null): Promise<{ sid: string; record: SessionRecord } | null> {
    const sid = sha256(token);
    const raw = await this.link.redis.get(this.key(sid));
    if (raw === null) return null;
    let record: SessionRecord;
    try {
      record = JSON.parse(raw) as SessionRecord;
    } catch {
      return null;
    }
    // The official client repeats its connect params on every request; other clients may omit them.
    if (accessToken !== null && !sameHash(sha256(accessToken), String(record.ath))) return null;
    if (!(await this.link.isAlive(record.node))) {
      await this.link.redis.del(this.key(sid), this.outKey(sid));
      return null;
    }
    return { sid, record };
  }

  /** A GET with a session token: false when the session is gone (410). */
  async poll(token: string, accessToken: string | null, reply: FastifyReply, windowMs: number): Promise<boolean> {
    const found = await this.lookup(token, accessToken);
    if (!found) return false;
    const { sid } = found;
    let set = this.waiters.get(sid);
    if (!set) this.waiters.set(sid, (set = new Set()));
    // A newer poll replaces one still waiting here (the client only ever keeps one).
    for (const previous of [...set]) this.finish(previous, { status: 204, token });
    const waiter: Waiter = { sid, token, reply, done: false, draining: false, dirty: false, timer: setTimeout(() => this.finish(waiter, { status: 204, token }), windowMs) };
    set.add(waiter);
    reply.raw.on('close', () => this.forget(waiter));
    // Registered before the first take: an announcement from now on is not missed.
    await this.drain(waiter);
    return true;
  }

  /** A POST with a session token: false when the session is gone (410). */
  async post(token: string, accessToken: string | null, lines: string[]): Promise<boolean> {
    const found = await this.lookup(token, accessToken);
    if (!found) return false;
    const { sid, record } = found;
    const session = this.owned.get(sid);
    if (record.node === this.link.nodeId) {
      if (!session) return false;
      feed(session.connection, session, lines);
    } else {
      await this.link.publish('lp_in', { sid, node: record.node, lines });
    }
    return true;
  }

  /** Takes what is queued for the waiter's session and answers with it; waits for the next announcement when nothing is. */
  private async drain(waiter: Waiter): Promise<void> {
    if (waiter.done) return;
    if (waiter.draining) {
      waiter.dirty = true;
      return;
    }
    waiter.draining = true;
    try {
      do {
        waiter.dirty = false;
        const result = await this.link.redis.multi().lrange(this.outKey(waiter.sid), 0, -1).del(this.outKey(waiter.sid)).pexpire(this.key(waiter.sid), this.ttlMs).exec();
        const messages = (result?.[0]?.[1] as string[] | undefined) ?? [];
        if (messages.length === 0) continue;
        if (waiter.done || waiter.reply.raw.destroyed) {
          // The client went away meanwhile: the frames go back in front for its next poll.
          await this.link.redis.lpush(this.outKey(waiter.sid), ...[...messages].reverse());
          return;
        }
        this.finish(waiter, { status: 200, token: waiter.token, messages });
        return;
      } while (waiter.dirty && !waiter.done);
    } catch (err) {
      this.hub.log.warn({ err }, 'realtime: could not read a long-poll session queue');
      this.finish(waiter, { status: 204, token: waiter.token });
    } finally {
      waiter.draining = false;
    }
  }

  private forget(waiter: Waiter): void {
    waiter.done = true;
    clearTimeout(waiter.timer);
    const set = this.waiters.get(waiter.sid);
    if (!set) return;
    set.delete(waiter);
    if (set.size === 0) this.waiters.delete(waiter.sid);
  }

  private finish(waiter: Waiter, body: PollBody, closeConnection = false): void {
    if (waiter.done) return;
    this.forget(waiter);
    // On shutdown the client must not reuse this keep-alive connection (see longPoll.ts).
    if (closeConnection || this.hub.closing) waiter.reply.header('connection', 'close');
    sendPoll(waiter.reply, body);
    // The poll window renews the session too (a client that keeps polling keeps it).
    if (body.status !== 410) void this.link.redis.pexpire(this.key(waiter.sid), this.ttlMs).catch(() => {});
  }

  /** The owner appends frames for its session; answers the list's length (how much is not taken yet). */
  async append(sid: string, frames: string[]): Promise<number> {
    const result = await this.link.redis.multi().rpush(this.outKey(sid), ...frames).pexpire(this.outKey(sid), this.ttlMs).exec();
    const [err, length] = result?.[0] ?? [new Error('the append was not run'), 0];
    if (err) throw err;
    await this.link.publish('lp_ready', { sid });
    return Number(length);
  }

  /** The owner's session ended (idle, revoked, shut down): its record goes, and a client waiting anywhere gets 410. */
  ended(session: OwnedSession, code: number): void {
    if (this.owned.get(session.sid) === session) this.owned.delete(session.sid);
    session.connection.onTransportClosed();
    const { sid } = session;
    const closeConnection = code === CLOSE.GOING_AWAY;
    for (const waiter of [...(this.waiters.get(sid) ?? [])]) this.finish(waiter, { status: 410 }, closeConnection);
    void (async () => {
      await this.link.redis.del(this.key(sid), this.outKey(sid));
      await this.link.publish('lp_closed', { sid });
    })().catch((err) => this.hub.log.warn({ err }, 'realtime: could not end a long-poll session in Redis'));
  }

  /** Closes the sessions this process owns whose record expired (no poll anywhere for the session's TTL). */
  private async expire(): Promise<void> {
    const sessions = [...this.owned.values()];
    if (sessions.length === 0) return;
    const exists = await this.link.redis.pipeline(sessions.map((s) => ['exists', this.key(s.sid)])).exec();
    sessions.forEach((session, i) => {
      if (exists?.[i]?.[1] === 0) session.connection.close(CLOSE.IDLE, 'session expired');
    });
  }

  /** At shutdown, before the sockets close: polls waiting here for other processes' sessions end (the client polls again elsewhere). */
  close(): void {
    this.expiry.stop();
    for (const set of [...this.waiters.values()]) for (const waiter of [...set]) this.finish(waiter, { status: 204, token: waiter.token }, true);
  }
}

/** The client's frames, in order, as the websocket would hand them over. */
export function feed(connection: Connection, session: { closed: boolean }, lines: string[]): void {
  for (const line of lines) {
    if (session.closed) break;
    if (line === '') continue;
    if (line.startsWith('[')) connection.handleText(line);
    else connection.handleBinary(Buffer.from(line, 'base64'));
  }
}
