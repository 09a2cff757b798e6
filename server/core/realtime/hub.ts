/**
 * The Phoenix Channels server: sockets (over any transport), channels routed by topic prefix to
 * the feature plugins' handlers, replies, broadcasts, presence, and the socket hardening
 * (rate limit, idle timeout, slow-consumer drop, malformed frames).
 *
 * Semantics follow Phoenix (lib/phoenix/socket.ex, channel/server.ex):
 * - phx_join → the handler's join; `phx_reply` ok/error. A second join of a joined topic closes
 *   the first (phx_close with its join_ref) before joining again. Unknown prefix → error
 *   `{reason: "unmatched topic"}`. A join that throws answers `{reason: "join crashed"}`.
 * - other events → handleIn, answered with `phx_reply` under the same ref; to a topic that is
 *   not joined → error `{reason: "unmatched topic"}`; stale join_refs are ignored.
 * - phx_leave → ok reply, then phx_close; the handler's terminate runs.
 * - a handler that throws → phx_error `{reason: "channel_crash"}` on its topic (the client rejoins).
 * - a join or push whose payload holds a NUL character → error `{reason: "invalid payload", errors: {"<field>": [...]}}`,
 *   before any handler sees it; a frame nested deeper than the JSON limit is refused unparsed.
 * - `phoenix`/`heartbeat` → ok reply.
 * - `disconnect` (a revoked session, a removed member or changed role) closes the matching sockets
 *   on every process: the command travels on the broadcast fan-out under a topic no client can join.
 * Messages of one topic are handled in order; different topics run concurrently.
 * Pushes (and presence) made while a join is in progress reach the client after the join reply.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { RealtimeConfig } from '../config';
import { LocalFanout, LocalPresenceStore, NODE_HEARTBEAT_MS, RedisFanout, type Fanout, type PresenceState, type PresenceStore } from './fanout';
import { BackgroundJob } from '../jobs/backgroundJob';
import { systemClock, type Clock } from '../clock';
import { ConnectIdentityCache, IDENTITY_CACHE_TTL_MS } from './identityCache';
import { TokenBucket, WindowCounter } from './rateLimit';
import type { SocketLimits } from './limits';
import { decodeFrame, encodeFrame, encodeReply, encodeWithPayloadJson, peekBinaryPush, type Frame } from './serializer';
import { NUL_MESSAGE, findNul } from '../input/nul';
import type { ChannelContext, ChannelHandler, DisconnectTarget, RealtimeHub, Reply, SocketIdentity } from './types';
import { checkTopicAccess, isTopicAccessRule, type TopicAccessRule, type TopicVerdict } from '../access/topics';

/** Close codes the server uses (4000-4999: application codes). */
export const CLOSE = {
  GOING_AWAY: 1001,
  POLICY: 1008,
  TOO_BIG: 1009,
  IDLE: 4408,
  RATE_LIMIT: 4429,
  SLOW_CONSUMER: 4413,
  /** The login session was revoked: the client's reconnect with the same token is refused. */
  REVOKED: 4401,
  /** Removed from the company or the role changed: a reconnect gets the current rights (or is refused). */
  MEMBERSHIP_CHANGED: 4403,
} as const;

/** Hub-to-hub commands on the fan-out. No colon: no handler prefix matches it, so no client can join it. */
const CONTROL_TOPIC = '$hub';

interface DisconnectCommand {
  origin: string;
  sessionIds: string[];
  member: { userId: number; companyId: number } | null;
}

function toCommand(origin: string, target: DisconnectTarget): DisconnectCommand {
  if ('sessionIds' in target) return { origin, sessionIds: [...target.sessionIds], member: null };
  if ('sessionId' in target) return { origin, sessionIds: [target.sessionId], member: null };
  return { origin, sessionIds: [], member: { userId: target.userId, companyId: target.companyId } };
}

function parseCommand(payloadJson: string): DisconnectCommand | null {
  try {
    const raw = JSON.parse(payloadJson) as Partial<DisconnectCommand>;
    const sessionIds = Array.isArray(raw.sessionIds) ? raw.sessionIds.filter((id): id is string => typeof id === 'string') : [];
    const m = raw.member;
    const member = m && Number.isSafeInteger(m.userId) && Number.isSafeInteger(m.companyId) ? { userId: m.userId, companyId: m.companyId } : null;
    return typeof raw.origin === 'string' ? { origin: raw.origin, sessionIds, member } : null;
  } catch {
    return null;
  }
}

/** What the processes of a cluster share beside the fan-out (long-poll sessions, longPollCluster.ts). */
export interface ClusterLink {
  readonly nodeId: string;
  readonly redis: RedisFanout['redis'];
  readonly keyPrefix: string;
  isAlive(nodeId: string): Promise<boolean>;
  /** Sends a command to every process (this one included) on the fan-out. */
  publish(event: string, payload: object): Promise<void>;
  /** Receives the commands of one event (not `disconnect`, the hub's own). */
  on(event: string, handler: (payload: Record<string, unknown>) => void): void;
}

/** What a transport (websocket, long-poll session) offers the hub. */
export interface Transport {
  readonly kind: 'websocket' | 'longpoll';
  send(frame: string): void;
  /** Closes the underlying connection; `force` skips any close handshake (buffer full). */
  close(code: number, reason: string, force?: boolean): void;
  /** Bytes queued towards the client and not yet written. */
  bufferedBytes(): number;
  /** True while the client is known to be there without sending (a long-poll GET is pending). */
  busy?(): boolean;
}

export interface HubOptions {
  config: RealtimeConfig;
  log: FastifyBaseLogger;
  /** null = in-memory fan-out (one process). */
  redisUrl?: string | null;
  /** How long connect-time identities are reused (0: always read the database). */
  identityCacheTtlMs?: number;
  /** Connect and join limits through the app's shared RateLimiter; none when absent. */
  limits?: SocketLimits | null;
  /** The app's clock: process heartbeats and their age (presence of dead processes) are measured on it. */
  clock?: Clock;
}

/** Tasks waiting per socket (over every topic) before further messages are refused. */
const MAX_PENDING_TASKS = 1000;
const REJECTION_WINDOW_MS = 10_000;

type ChannelState = 'joining' | 'joined' | 'closed';

class Channel implements ChannelContext {
  state: ChannelState = 'joining';
  readonly assigns: Record<string, unknown> = {};
  /** Frames pushed while joining, sent after the join reply. */
  readonly deferred: Array<() => void> = [];
  /** Presence refs tracked by this channel, untracked when it closes. */
  readonly presence: Array<{ key: string; meta: Record<string, unknown> }> = [];
  /** Broadcasts waiting for the handler's handleOut, chained so they reach the client in order. */
  outgoing: Promise<void> = Promise.resolve();

  constructor(
    readonly connection: Connection,
    readonly topic: string,
    readonly joinRef: string,
    readonly handler: ChannelHandler,
  ) {}

  get identity(): SocketIdentity {
    return this.connection.identity;
  }

  push(event: string, payload: unknown): void {
    if (this.state === 'closed') return;
    const frame = encodeFrame(this.joinRef, null, this.topic, event, payload);
    if (this.state === 'joining') this.deferred.push(() => this.connection.send(frame));
    else this.connection.send(frame);
  }
}

export class Connection {
  readonly channels = new Map<string, Channel>();
  private readonly queues = new Map<string, Promise<void>>();
  private pendingTasks = 0;
  private readonly bucket: TokenBucket;
  private readonly rejections = new WindowCounter(REJECTION_WINDOW_MS);
  lastSeen = performance.now();
  closed = false;

  constructor(
    private readonly hub: PhoenixHub,
    readonly identity: SocketIdentity,
    readonly sessionId: string,
    readonly transport: Transport,
  ) {
    this.bucket = new TokenBucket(hub.config.rateLimitPerSecond, hub.config.rateLimitBurst);
  }

  touch(): void {
    this.lastSeen = performance.now();
  }

  /** Sends one encoded frame; a client that does not read fast enough is dropped. */
  send(frame: string): void {
    if (this.closed) return;
    this.transport.send(frame);
    if (this.transport.bufferedBytes() > this.hub.config.maxBufferedBytes) {
      this.hub.log.warn({ socketId: this.identity.socketId }, 'realtime: closing a socket whose send buffer is full');
      this.close(CLOSE.SLOW_CONSUMER, 'send buffer full', true);
    }
  }

  /** Server-initiated close; the transport then reports back through `closed()`. */
  close(code: number, reason: string, force = false): void {
    if (this.closed) return;
    this.transport.close(code, reason, force);
    this.onTransportClosed();
  }

  /** The transport is gone: end every channel (terminate, presence leaves). */
  onTransportClosed(): void {
    if (this.closed) return;
    this.closed = true;
    for (const channel of [...this.channels.values()]) this.hub.closeChannel(channel, null);
    this.hub.removeConnection(this);
  }

  private replyError(joinRef: string | null, ref: string | null, topic: string | null, reason: string): void {
    if (ref === null) return;
    this.send(encodeReply(joinRef, ref, topic ?? 'phoenix', 'error', { reason }));
  }

  /** Rate limit; false when the message must be refused. */
  private admit(): boolean {
    if (this.bucket.take()) return true;
    if (this.rejections.hit() > this.hub.config.rateLimitCloseAfter) {
      this.hub.log.warn({ socketId: this.identity.socketId }, 'realtime: closing a socket that keeps exceeding the rate limit');
      this.close(CLOSE.RATE_LIMIT, 'rate limit exceeded');
    }
    return false;
  }

  handleBinary(data: Buffer): void {
    this.touch();
    if (this.closed || !this.admit()) return;
    const peek = peekBinaryPush(data);
    if (peek) this.replyError(peek.joinRef || null, peek.ref || null, peek.topic, 'binary payloads are not supported');
  }

  handleText(text: string): void {
    this.touch();
    if (this.closed) return;
    if (Buffer.byteLength(text) > this.hub.config.maxFrameBytes) {
      // Only the long-poll transport gets here (the websocket enforces maxPayload itself).
      return;
    }
    const decoded = decodeFrame(text);
    if (!this.admit()) {
      if (decoded.ok) this.replyError(decoded.frame.joinRef, decoded.frame.ref, decoded.frame.topic, 'rate limited');
      else this.replyError(decoded.joinRef, decoded.ref, decoded.topic, 'rate limited');
      return;
    }
    if (!decoded.ok) {
      this.hub.log.debug({ socketId: this.identity.socketId, reason: decoded.reason }, 'realtime: malformed frame');
      this.replyError(decoded.joinRef, decoded.ref, decoded.topic, decoded.reason);
      return;
    }
    const { frame } = decoded;
    if (frame.topic === 'phoenix' && frame.event === 'heartbeat') {
      this.send(encodeReply(null, frame.ref, 'phoenix', 'ok', {}));
      return;
    }
    if (this.pendingTasks >= MAX_PENDING_TASKS) {
      this.replyError(frame.joinRef, frame.ref, frame.topic, 'overloaded');
      return;
    }
    this.enqueue(frame.topic, () => this.dispatch(frame));
  }

  private enqueue(topic: string, task: () => Promise<void>): void {
    this.pendingTasks++;
    const previous = this.queues.get(topic) ?? Promise.resolve();
    const next = previous
      .then(task)
      .catch((err) => this.hub.log.error({ err, topic }, 'realtime: message handling failed'))
      .finally(() => {
        this.pendingTasks--;
        if (this.queues.get(topic) === next) this.queues.delete(topic);
      });
    this.queues.set(topic, next);
  }

  private async dispatch(frame: Frame): Promise<void> {
    if (this.closed) return;
    // PostgreSQL cannot store NUL: refused here for every topic, in the reply channels give an invalid payload.
    const nulAt = frame.event === 'phx_leave' ? null : findNul(frame.payload);
    if (nulAt !== null) {
      this.send(encodeReply(frame.joinRef, frame.ref, frame.topic, 'error', { reason: 'invalid payload', errors: { [nulAt]: [NUL_MESSAGE] } }));
      return;
    }
    switch (frame.event) {
      case 'phx_join':
        return this.join(frame);
      case 'phx_leave':
        return this.leave(frame);
      default:
        return this.handleIn(frame);
    }
  }

  private async join(frame: Frame): Promise<void> {
    const { topic, ref } = frame;
    const joinRef = frame.joinRef ?? ref;
    const handler = this.hub.handlerFor(topic);
    if (!handler || joinRef === null) {
      this.send(encodeReply(null, ref, topic, 'error', { reason: 'unmatched topic' }));
      return;
    }
    // Joins per user over every socket and process (limits.ts); a refused rejoin leaves the joined channel be.
    // The reply says when to try again, so a client joins the room later instead of losing it.
    const wait = this.hub.limits ? await this.hub.limits.join(this.identity.userId) : 0;
    if (wait > 0) {
      this.hub.log.warn({ userId: this.identity.userId, topic, retryAfterSeconds: wait }, 'realtime: join refused, joins per user over the limit');
      this.send(encodeReply(joinRef, ref, topic, 'error', { reason: 'rate limited', retry_after: wait }));
      return;
    }
    const existing = this.channels.get(topic);
    if (existing) this.hub.closeChannel(existing, 'phx_close');
    if (this.channels.size >= this.hub.config.maxChannelsPerSocket) {
      this.send(encodeReply(joinRef, ref, topic, 'error', { reason: 'too many channels joined' }));
      return;
    }

    const channel = new Channel(this, topic, joinRef, handler);
    let reply: Reply;
    try {
      // The prefix's declared access rule first (permission, the id belongs to the socket's company), then the handler.
      const verdict = await this.hub.checkJoin(topic, channel.identity);
      reply = verdict.ok ? normalizeReply(await handler.join(topic, frame.payload, channel)) : { status: 'error', response: { reason: verdict.reason } };
    } catch (err) {
      this.hub.log.error({ err, topic }, 'realtime: join crashed');
      reply = { status: 'error', response: { reason: 'join crashed' } };
    }

    if (reply.status !== 'ok') {
      channel.state = 'closed';
      channel.deferred.length = 0;
      this.send(encodeReply(joinRef, ref, topic, 'error', reply.response));
      return;
    }
    if (this.closed) {
      // The socket went away while joining: the handler still gets its terminate.
      channel.state = 'joined';
      this.hub.closeChannel(channel, null);
      return;
    }
    this.channels.set(topic, channel);
    this.hub.subscribe(channel);
    this.send(encodeReply(joinRef, ref, topic, 'ok', reply.response));
    channel.state = 'joined';
    for (const flush of channel.deferred.splice(0)) flush();
  }

  private async leave(frame: Frame): Promise<void> {
    const channel = this.channels.get(frame.topic);
    if (!channel) {
      this.send(encodeReply(frame.joinRef, frame.ref, frame.topic, 'ok', {}));
      return;
    }
    // A leave for an earlier join raced a server-side close: nothing to answer.
    if (frame.joinRef !== null && frame.joinRef !== channel.joinRef) return;
    this.send(encodeReply(channel.joinRef, frame.ref, frame.topic, 'ok', {}));
    this.hub.closeChannel(channel, 'phx_close');
  }

  private async handleIn(frame: Frame): Promise<void> {
    const channel = this.channels.get(frame.topic);
    if (!channel) {
      this.send(encodeReply(null, frame.ref, frame.topic, 'error', { reason: 'unmatched topic' }));
      return;
    }
    if (frame.joinRef !== null && frame.joinRef !== channel.joinRef) return;
    if (!channel.handler.handleIn) {
      this.send(encodeReply(channel.joinRef, frame.ref, frame.topic, 'error', { reason: 'unhandled event' }));
      return;
    }
    let result: Reply | void;
    try {
      result = await channel.handler.handleIn(frame.event, frame.payload, channel);
    } catch (err) {
      this.hub.log.error({ err, topic: frame.topic, event: frame.event }, 'realtime: channel crashed');
      this.hub.closeChannel(channel, 'phx_error');
      return;
    }
    if (result === undefined || frame.ref === null || channel.state === 'closed') return;
    let reply: Reply;
    try {
      reply = normalizeReply(result);
    } catch (err) {
      this.hub.log.error({ err, topic: frame.topic, event: frame.event }, 'realtime: handler returned an invalid reply');
      this.hub.closeChannel(channel, 'phx_error');
      return;
    }
    this.send(encodeReply(channel.joinRef, frame.ref, frame.topic, reply.status, reply.response));
  }
}

function normalizeReply(reply: unknown): Reply {
  if (typeof reply === 'object' && reply !== null && ((reply as Reply).status === 'ok' || (reply as Reply).status === 'error')) {
    return { status: (reply as Reply).status, response: (reply as Reply).response ?? {} };
  }
  throw new TypeError('a channel handler must answer {status: "ok" | "error", response}');
}

export class PhoenixHub implements RealtimeHub {
  readonly config: RealtimeConfig;
  readonly log: FastifyBaseLogger;
  private readonly handlers = new Map<string, ChannelHandler>();
  private readonly topicRules = new Map<string, TopicAccessRule>();
  private readonly connections = new Set<Connection>();
  private readonly subscribers = new Map<string, Set<Channel>>();
  private readonly fanout: Fanout;
  private readonly presence: PresenceStore;
  /** Presence writes in flight, awaited on close so leaves reach the other processes. */
  private readonly presenceWork = new Set<Promise<void>>();
  private sweeper: NodeJS.Timeout | null = null;
  /** With Redis: this process's heartbeat, and the reaping of dead processes' presences (fanout.ts). */
  private readonly liveness: BackgroundJob;
  private readonly controlHandlers = new Map<string, (payload: Record<string, unknown>) => void>();
  private started = false;
  /** Set once the app closes: no new sockets. */
  closing = false;
  /** Sessions and memberships recently checked at connect (see identityCache.ts). */
  readonly identities: ConnectIdentityCache;
  /** Connect and join limits (limits.ts), null in a hub built without them. */
  readonly limits: SocketLimits | null;

  constructor({ config, log, redisUrl = null, identityCacheTtlMs = IDENTITY_CACHE_TTL_MS, limits = null, clock = systemClock }: HubOptions) {
    this.config = config;
    this.log = log;
    this.limits = limits;
    this.identities = new ConnectIdentityCache(identityCacheTtlMs);
    if (redisUrl) {
      const redis = new RedisFanout(redisUrl, config.redisPrefix, log, clock);
      this.fanout = redis;
      this.presence = redis;
    } else {
      this.fanout = new LocalFanout();
      this.presence = new LocalPresenceStore();
    }
    this.liveness = new BackgroundJob({
      run: () => this.livenessPass(),
      intervalMs: () => (redisUrl ? NODE_HEARTBEAT_MS : 0),
      whileRunning: 'skip',
      log,
      failureMessage: 'realtime: the heartbeat or the reaping of dead processes failed',
    });
  }

  get nodeId(): string {
    return this.fanout.nodeId;
  }

  /** With Redis: what the processes share (long-poll sessions served by any of them); null for one process. */
  clusterLink(): ClusterLink | null {
    const fanout = this.fanout;
    if (!(fanout instanceof RedisFanout)) return null;
    return {
      nodeId: fanout.nodeId,
      redis: fanout.redis,
      keyPrefix: fanout.keyPrefix,
      isAlive: (nodeId) => fanout.isAlive(nodeId),
      publish: (event, payload) => fanout.publish(CONTROL_TOPIC, event, JSON.stringify(payload)),
      on: (event, handler) => {
        if (event === 'disconnect' || this.controlHandlers.has(event)) throw new Error(`the hub command "${event}" is taken`);
        this.controlHandlers.set(event, handler);
      },
    };
  }

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    await this.fanout.start((topic, event, payloadJson) =>
      topic === CONTROL_TOPIC ? this.onControl(event, payloadJson) : this.deliver(topic, event, payloadJson),
    );
    const every = Math.max(20, Math.min(5_000, Math.floor(Math.min(this.config.idleTimeoutMs, this.config.longPollSessionTtlMs) / 3)));
    this.sweeper = setInterval(() => this.sweep(), every);
    this.sweeper.unref();
    // start() already beat once; the job beats and reaps every NODE_HEARTBEAT_MS (one process: nothing to do).
    if (this.fanout instanceof RedisFanout) this.liveness.start();
  }

  /**
   * One liveness pass: this process's heartbeat, then the presences of dead processes removed, each
   * leave pushed to its topic by the one process whose removal took it (see RedisFanout.reapDead).
   */
  async livenessPass(): Promise<void> {
    if (await this.presence.heartbeat()) {
      this.log.warn('realtime: this process had been taken for dead; tracking its presences again');
      this.retrackPresences();
    }
    const reaped = await this.presence.reapDead();
    for (const { topic, leaves } of reaped) {
      await this.broadcast(topic, 'presence_diff', { joins: {}, leaves });
    }
    if (reaped.length > 0) this.log.info({ topics: reaped.length }, 'realtime: removed the presences of a process that stopped without leaving');
  }

  /** Our presences may have been reaped while we looked dead: write them again and push them as joins. */
  private retrackPresences(): void {
    for (const channels of this.subscribers.values()) {
      for (const channel of channels) {
        if (channel.state !== 'joined' || channel.presence.length === 0) continue;
        const entries = [...channel.presence];
        const joins: PresenceState = {};
        for (const { key, meta } of entries) (joins[key] ??= { metas: [] }).metas.push(meta);
        this.presenceTask(async () => {
          for (const entry of entries) await this.presence.add(channel.topic, entry.meta.phx_ref as string, entry);
          await this.broadcast(channel.topic, 'presence_diff', { joins, leaves: {} });
        });
      }
    }
  }

  /**
   * Closes every socket (clients reconnect elsewhere or later). Synchronous on purpose: it runs
   * last before the HTTP server stops accepting, so a client reconnecting at once finds the
   * port closed rather than a draining server.
   */
  closeConnections(): void {
    this.closing = true;
    this.liveness.stop();
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = null;
    for (const connection of [...this.connections]) connection.close(CLOSE.GOING_AWAY, 'server shutting down');
  }

  /** After the sockets: lets presence leaves reach the other processes, then closes the fan-out. */
  async stop(): Promise<void> {
    this.closeConnections();
    await Promise.allSettled([...this.presenceWork]);
    await this.liveness.settled();
    await this.fanout.close();
  }

  // ---------- RealtimeHub ----------

  registerChannel(prefix: string, rule: TopicAccessRule, handler: ChannelHandler): void {
    if (!/^[A-Za-z0-9_.-]+$/.test(prefix)) throw new Error(`invalid channel prefix "${prefix}"`);
    if (this.handlers.has(prefix)) throw new Error(`a channel handler for "${prefix}:*" is already registered`);
    if (!isTopicAccessRule(rule)) throw new Error(`the channel "${prefix}:*" declares no access rule (topicAccess.*, see docs/architecture.md)`);
    this.handlers.set(prefix, handler);
    this.topicRules.set(prefix, rule);
  }

  topicAccess(): { prefix: string; access: TopicAccessRule }[] {
    return [...this.topicRules].map(([prefix, access]) => ({ prefix, access }));
  }

  /** A join's check against its prefix's declared rule (before the handler's own join). */
  checkJoin(topic: string, identity: SocketIdentity): Promise<TopicVerdict> {
    const rule = this.topicRules.get(topic.slice(0, topic.indexOf(':')));
    if (!rule) return Promise.resolve({ ok: false, reason: 'forbidden' });
    return checkTopicAccess(rule, topic, identity);
  }

  async broadcast(topic: string, event: string, payload: unknown): Promise<void> {
    if (topic === CONTROL_TOPIC) throw new Error(`"${CONTROL_TOPIC}" is reserved`);
    await this.fanout.publish(topic, event, JSON.stringify(payload ?? {}));
  }

  async disconnect(target: DisconnectTarget): Promise<void> {
    // Here at once (a reconnect to this process must not find the identity cached), then
    // everywhere else; the fan-out echoes it back to this process, which skips its own.
    const command = toCommand(this.nodeId, target);
    this.applyDisconnect(command);
    try {
      await this.fanout.publish(CONTROL_TOPIC, 'disconnect', JSON.stringify(command));
    } catch (err) {
      this.log.error({ err }, 'realtime: could not send a disconnect to the other processes');
    }
  }

  /** True when what a connect was admitted with was revoked while it was being admitted: refuse it. */
  isStale(connected: { since: number; sessionId: string; identity: SocketIdentity }): boolean {
    const { identity } = connected;
    return this.identities.isStale(connected.since, connected.sessionId, identity.userId, identity.companyId);
  }

  trackPresence(ctx: ChannelContext, key: string, meta: Record<string, unknown>): void {
    if (!(ctx instanceof Channel) || ctx.connection.closed) return;
    const channel = ctx;
    if (channel.state === 'closed') return;
    if (channel.state === 'joining') {
      channel.deferred.push(() => this.trackPresence(channel, key, meta));
      return;
    }
    const entry = { key, meta: { ...meta, phx_ref: randomBytes(9).toString('base64url') } };
    channel.presence.push(entry);
    this.presenceTask(async () => {
      await this.presence.add(channel.topic, entry.meta.phx_ref, entry);
      const state = await this.presence.list(channel.topic);
      channel.push('presence_state', state);
      await this.broadcast(channel.topic, 'presence_diff', { joins: { [key]: { metas: [entry.meta] } }, leaves: {} });
    });
  }

  untrackPresence(ctx: ChannelContext): void {
    if (ctx instanceof Channel) this.untrackAll(ctx);
  }

  /** The presences of a topic, in presence_state format (for handlers and tests). */
  listPresence(topic: string): Promise<PresenceState> {
    return this.presence.list(topic);
  }

  socketCount(): number {
    return this.connections.size;
  }

  // ---------- used by connections and transports ----------

  connect(identity: SocketIdentity, sessionId: string, transport: Transport): Connection {
    const connection = new Connection(this, identity, sessionId, transport);
    this.connections.add(connection);
    return connection;
  }

  removeConnection(connection: Connection): void {
    this.connections.delete(connection);
  }

  handlerFor(topic: string): ChannelHandler | undefined {
    const colon = topic.indexOf(':');
    return colon > 0 ? this.handlers.get(topic.slice(0, colon)) : undefined;
  }

  subscribe(channel: Channel): void {
    let set = this.subscribers.get(channel.topic);
    if (!set) this.subscribers.set(channel.topic, (set = new Set()));
    set.add(channel);
  }

  /**
   * Ends a channel: unsubscribes, untracks its presences, runs terminate, and tells the client
   * (`phx_close` after a leave or a duplicate join, `phx_error` after a crash, nothing when the
   * socket itself is gone).
   */
  closeChannel(channel: Channel, notify: 'phx_close' | 'phx_error' | null): void {
    if (channel.state === 'closed') return;
    const wasJoined = channel.state === 'joined';
    channel.state = 'closed';
    const connection = channel.connection;
    if (connection.channels.get(channel.topic) === channel) connection.channels.delete(channel.topic);
    const set = this.subscribers.get(channel.topic);
    if (set) {
      set.delete(channel);
      if (set.size === 0) this.subscribers.delete(channel.topic);
    }
    if (notify) {
      const payload = notify === 'phx_error' ? { reason: 'channel_crash' } : {};
      connection.send(encodeFrame(channel.joinRef, channel.joinRef, channel.topic, notify, payload));
    }
    this.untrackAll(channel);
    if (wasJoined && channel.handler.terminate) {
      try {
        const result = channel.handler.terminate(channel) as unknown;
        if (result instanceof Promise) result.catch((err) => this.log.error({ err, topic: channel.topic }, 'realtime: terminate failed'));
      } catch (err) {
        this.log.error({ err, topic: channel.topic }, 'realtime: terminate failed');
      }
    }
  }

  private untrackAll(channel: Channel): void {
    const entries = channel.presence.splice(0);
    if (entries.length === 0) return;
    const leaves: PresenceState = {};
    for (const { key, meta } of entries) (leaves[key] ??= { metas: [] }).metas.push(meta);
    this.presenceTask(async () => {
      await this.presence.remove(channel.topic, entries.map((entry) => entry.meta.phx_ref as string));
      await this.broadcast(channel.topic, 'presence_diff', { joins: {}, leaves });
    });
  }

  private presenceTask(task: () => Promise<void>): void {
    const work = task().catch((err) => this.log.error({ err }, 'realtime: presence update failed'));
    this.presenceWork.add(work);
    void work.finally(() => this.presenceWork.delete(work));
  }

  private onControl(event: string, payloadJson: string): void {
    const handler = this.controlHandlers.get(event);
    if (handler) {
      let payload: unknown;
      try {
        payload = JSON.parse(payloadJson);
      } catch {
        payload = null;
      }
      if (typeof payload === 'object' && payload !== null) handler(payload as Record<string, unknown>);
      else this.log.warn({ event }, 'realtime: unreadable hub command');
      return;
    }
    const command = event === 'disconnect' ? parseCommand(payloadJson) : null;
    if (!command) {
      this.log.warn({ event }, 'realtime: unreadable hub command');
      return;
    }
    if (command.origin !== this.nodeId) this.applyDisconnect(command);
  }

  private applyDisconnect({ sessionIds, member }: DisconnectCommand): void {
    const sessions = new Set(sessionIds);
    if (sessions.size > 0) this.identities.invalidateSessions(sessions);
    if (member) this.identities.invalidateMember(member.userId, member.companyId);
    let closed = 0;
    for (const connection of [...this.connections]) {
      const { identity } = connection;
      if (sessions.has(connection.sessionId)) connection.close(CLOSE.REVOKED, 'session revoked');
      else if (member && identity.userId === member.userId && identity.companyId === member.companyId) {
        connection.close(CLOSE.MEMBERSHIP_CHANGED, 'membership changed');
      } else continue;
      closed++;
    }
    if (closed > 0) this.log.info({ closed, sessions: sessions.size, member }, 'realtime: closed the sockets of a revoked session or membership');
  }

  /** Delivers a broadcast to this process's sockets joined to the topic. */
  private deliver(topic: string, event: string, payloadJson: string): void {
    const set = this.subscribers.get(topic);
    if (!set) return;
    let parsed: unknown;
    for (const channel of [...set]) {
      const { handleOut } = channel.handler;
      if (!handleOut) {
        channel.connection.send(encodeWithPayloadJson(channel.joinRef, null, topic, event, payloadJson));
        continue;
      }
      // Filtered per subscriber (e.g. the agent feature), chained per channel to keep the order.
      if (parsed === undefined) parsed = JSON.parse(payloadJson);
      const payload = parsed;
      channel.outgoing = channel.outgoing
        .then(async () => {
          const out = await handleOut.call(channel.handler, event, payload, channel);
          if (out === null || channel.state === 'closed' || channel.connection.closed) return;
          channel.connection.send(out === payload ? encodeWithPayloadJson(channel.joinRef, null, topic, event, payloadJson) : encodeFrame(channel.joinRef, null, topic, event, out));
        })
        .catch((err) => this.log.error({ err, topic, event }, 'realtime: handleOut failed; broadcast dropped for this subscriber'));
    }
  }

  /** Closes sockets that went silent (no heartbeat) and long-poll sessions no longer polled. */
  private sweep(): void {
    const now = performance.now();
    for (const connection of [...this.connections]) {
      const { transport } = connection;
      if (transport.busy?.()) {
        connection.touch();
        continue;
      }
      const limit = transport.kind === 'longpoll' ? this.config.longPollSessionTtlMs : this.config.idleTimeoutMs;
      if (now - connection.lastSeen > limit) connection.close(CLOSE.IDLE, transport.kind === 'longpoll' ? 'session expired' : 'heartbeat timeout');
    }
  }
}
