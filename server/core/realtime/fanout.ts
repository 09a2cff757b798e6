/**
 * Fan-out of broadcasts between server processes, and where presence entries live.
 *
 * One process: everything stays in memory. With Redis (REDIS_URL): every broadcast is
 * published on one channel (`<prefix>:broadcast`, JSON {origin, topic, event, payload}); each
 * process, the publisher included, delivers what it receives to its own subscribers, so every
 * socket gets each broadcast exactly once. Presence entries are kept in one Redis hash per topic,
 * tagged with the process that tracks them, and each process keeps a set of the topics it tracks in.
 * Liveness: every process writes its last heartbeat (the app's clock, ms) into one sorted set every
 * NODE_HEARTBEAT_MS; a process whose heartbeat is older than NODE_DEAD_AFTER_MS is dead. Its entries are
 * skipped when a state is read, and every process's liveness pass reaps them: each entry is deleted by
 * one atomic script that answers which refs it removed, so of several processes reaping at once exactly
 * one gets each entry and pushes its leave (the hub's presence_diff) through the fan-out.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import { lazyRequire } from '../lazyRequire';
import type { Clock } from '../clock';

export type Deliver = (topic: string, event: string, payloadJson: string) => void;

export interface Fanout {
  readonly nodeId: string;
  start(deliver: Deliver): Promise<void>;
  publish(topic: string, event: string, payloadJson: string): Promise<void>;
  close(): Promise<void>;
}

export interface PresenceEntry {
  key: string;
  meta: Record<string, unknown>;
}

/** Phoenix.Presence's list format: `{key: {metas: [meta with phx_ref, …]}}`. */
export type PresenceState = Record<string, { metas: Record<string, unknown>[] }>;

/** The presences a dead process left on a topic, removed by this process (which pushes their leave). */
export interface ReapedPresence {
  topic: string;
  leaves: PresenceState;
}

export interface PresenceStore {
  add(topic: string, ref: string, entry: PresenceEntry): Promise<void>;
  remove(topic: string, refs: string[]): Promise<void>;
  list(topic: string): Promise<PresenceState>;
  /**
   * Records that this process is alive. Answers true when the process had been taken for dead (its
   * heartbeat was missing: an event loop stalled past the limit, Redis unreachable) and its entries
   * may have been reaped: the hub then tracks its presences again.
   */
  heartbeat(): Promise<boolean>;
  /** Removes the entries of dead processes; each is answered to exactly one caller cluster-wide. */
  reapDead(): Promise<ReapedPresence[]>;
}

function toState(entries: Iterable<PresenceEntry>): PresenceState {
  const state: PresenceState = Object.create(null);
  for (const { key, meta } of entries) (state[key] ??= { metas: [] }).metas.push(meta);
  return state;
}

function parseRow(value: string): PresenceEntry & { node: string } {
  try {
    const parsed = JSON.parse(value) as PresenceEntry & { node: string };
    return { key: String(parsed.key), meta: parsed.meta ?? {}, node: typeof parsed.node === 'string' ? parsed.node : '' };
  } catch {
    return { key: '', meta: {}, node: '' };
  }
}

export class LocalFanout implements Fanout {
  readonly nodeId = randomUUID();
  private deliver: Deliver = () => {};

  async start(deliver: Deliver): Promise<void> {
    this.deliver = deliver;
  }

  async publish(topic: string, event: string, payloadJson: string): Promise<void> {
    this.deliver(topic, event, payloadJson);
  }

  async close(): Promise<void> {}
}

export class LocalPresenceStore implements PresenceStore {
  private readonly topics = new Map<string, Map<string, PresenceEntry>>();

  async add(topic: string, ref: string, entry: PresenceEntry): Promise<void> {
    let entries = this.topics.get(topic);
    if (!entries) this.topics.set(topic, (entries = new Map()));
    entries.set(ref, entry);
  }

  async remove(topic: string, refs: string[]): Promise<void> {
    const entries = this.topics.get(topic);
    if (!entries) return;
    for (const ref of refs) entries.delete(ref);
    if (entries.size === 0) this.topics.delete(topic);
  }

  async list(topic: string): Promise<PresenceState> {
    return toState(this.topics.get(topic)?.values() ?? []);
  }

  // One process: it is never dead to itself.
  async heartbeat(): Promise<boolean> {
    return false;
  }

  async reapDead(): Promise<ReapedPresence[]> {
    return [];
  }
}

const CONNECT_TIMEOUT_MS = 10_000;
/** How often a process records its heartbeat (and reaps the dead): the hub's liveness job. */
export const NODE_HEARTBEAT_MS = 5_000;
/**
 * A process silent for longer is dead. 20 s is four heartbeats (a Redis blip or a busy event loop does
 * not kill a process), and a death is reaped at most 20 s + one heartbeat period after the last heartbeat,
 * well inside issue #21's 35 s.
 */
export const NODE_DEAD_AFTER_MS = 20_000;
/** The liveness key of processes from before the heartbeat set (kept so a rolling upgrade reaps nobody alive). */
const LEGACY_NODE_TTL_MS = 30_000;

/** HDEL that answers which of the refs it removed (so concurrent reapers never both push a leave). */
const HDEL_RETURNING = `local out = {}
for i, ref in ipairs(ARGV) do
  if redis.call('HDEL', KEYS[1], ref) == 1 then out[#out + 1] = ref end
end
return out`;

/** ZREM only while the heartbeat is still older than the cutoff (a process that came back keeps its beat). */
const ZREM_IF_STALE = `local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if score and tonumber(score) <= tonumber(ARGV[2]) then return redis.call('ZREM', KEYS[1], ARGV[1]) end
return 0`;

export class RedisFanout implements Fanout, PresenceStore {
  readonly nodeId = randomUUID();
  private readonly pub: Redis;
  private readonly sub: Redis;
  private readonly channel: string;
  private readonly nodesKey: string;
  private started = false;

  constructor(
    url: string,
    private readonly prefix: string,
    private readonly log: FastifyBaseLogger,
    private readonly clock: Clock,
  ) {
    const options = { lazyConnect: true, connectTimeout: CONNECT_TIMEOUT_MS, maxRetriesPerRequest: 3 };
    const { Redis: RedisClient } = lazyRequire('ioredis') as typeof import('ioredis');
    this.pub = new RedisClient(url, options);
    this.sub = new RedisClient(url, options);
    this.channel = `${prefix}:broadcast`;
    this.nodesKey = `${prefix}:nodes`;
    for (const client of [this.pub, this.sub]) client.on('error', (err) => this.log.warn({ err }, 'realtime: redis error'));
  }

  private nodeKey(nodeId: string): string {
    return `${this.prefix}:node:${nodeId}`;
  }

  private presenceKey(topic: string): string {
    return `${this.prefix}:presence:${topic}`;
  }

  /** The topics a process has tracked presences in (what a reaper reads after its death). */
  private nodeTopicsKey(nodeId: string): string {
    return `${this.prefix}:node-topics:${nodeId}`;
  }

  async start(deliver: Deliver): Promise<void> {
    await Promise.all([this.pub.connect(), this.sub.connect()]);
    this.sub.on('message', (channel: string, message: string) => {
      if (channel !== this.channel) return;
      let parsed: { origin?: unknown; topic?: unknown; event?: unknown; payload?: unknown };
      try {
        parsed = JSON.parse(message);
      } catch {
        this.log.warn('realtime: unreadable message on the broadcast channel');
        return;
      }
      if (typeof parsed.topic !== 'string' || typeof parsed.event !== 'string') return;
      deliver(parsed.topic, parsed.event, JSON.stringify(parsed.payload ?? {}));
    });
    await this.sub.subscribe(this.channel);
    await this.heartbeat();
    this.started = true;
  }

  private now(): number {
    return this.clock.now().getTime();
  }

  /** The command connection, for what else the processes share in Redis (long-poll sessions). */
  get redis(): Redis {
    return this.pub;
  }

  get keyPrefix(): string {
    return this.prefix;
  }

  /** True while the process's heartbeat is recent (or, for an older version, its liveness key lives). */
  async isAlive(nodeId: string): Promise<boolean> {
    if (nodeId === this.nodeId) return true;
    const [beat, legacy] = await Promise.all([this.pub.zscore(this.nodesKey, nodeId), this.pub.exists(this.nodeKey(nodeId))]);
    return beat !== null ? Number(beat) > this.now() - NODE_DEAD_AFTER_MS : legacy === 1;
  }

  async heartbeat(): Promise<boolean> {
    const [[, added]] = (await this.pub
      .multi()
      .zadd(this.nodesKey, this.now(), this.nodeId)
      .set(this.nodeKey(this.nodeId), '1', 'PX', LEGACY_NODE_TTL_MS)
      .exec()) as [[Error | null, number], [Error | null, unknown]];
    // Added rather than updated after start: this process was reaped as dead.
    return this.started && added === 1;
  }

  async reapDead(): Promise<ReapedPresence[]> {
    const cutoff = this.now() - NODE_DEAD_AFTER_MS;
    const dead = (await this.pub.zrangebyscore(this.nodesKey, '-inf', cutoff)).filter((node) => node !== this.nodeId);
    const reaped: ReapedPresence[] = [];
    for (const node of dead) {
      for (const topic of await this.pub.smembers(this.nodeTopicsKey(node))) {
        const raw = await this.pub.hgetall(this.presenceKey(topic));
        const mine = new Map<string, PresenceEntry>();
        for (const [ref, value] of Object.entries(raw)) {
          const row = parseRow(value);
          if (row.node === node) mine.set(ref, row);
        }
        if (mine.size === 0) continue;
        const removed = (await this.pub.eval(HDEL_RETURNING, 1, this.presenceKey(topic), ...mine.keys())) as string[];
        if (removed.length > 0) reaped.push({ topic, leaves: toState(removed.map((ref) => mine.get(ref)!)) });
      }
      await this.pub.del(this.nodeTopicsKey(node));
      await this.pub.eval(ZREM_IF_STALE, 1, this.nodesKey, node, cutoff);
    }
    return reaped;
  }

  async publish(topic: string, event: string, payloadJson: string): Promise<void> {
    const message = `{"origin":${JSON.stringify(this.nodeId)},"topic":${JSON.stringify(topic)},"event":${JSON.stringify(event)},"payload":${payloadJson}}`;
    await this.pub.publish(this.channel, message);
  }

  async add(topic: string, ref: string, entry: PresenceEntry): Promise<void> {
    // One transaction: a reaper that finds the entry also finds its topic in this process's set.
    await this.pub
      .multi()
      .hset(this.presenceKey(topic), ref, JSON.stringify({ ...entry, node: this.nodeId }))
      .sadd(this.nodeTopicsKey(this.nodeId), topic)
      .exec();
  }

  async remove(topic: string, refs: string[]): Promise<void> {
    if (refs.length > 0) await this.pub.hdel(this.presenceKey(topic), ...refs);
  }

  async list(topic: string): Promise<PresenceState> {
    const raw = await this.pub.hgetall(this.presenceKey(topic));
    const rows = Object.entries(raw).map(([ref, value]) => ({ ref, ...parseRow(value) }));
    const nodes = [...new Set(rows.map((row) => row.node))].filter(Boolean);
    const alive = new Set<string>();
    const gone = new Set<string>(['']);
    if (nodes.length > 0) {
      const cutoff = this.now() - NODE_DEAD_AFTER_MS;
      const [beats, legacy] = await Promise.all([this.pub.zmscore(this.nodesKey, ...nodes), this.pub.mget(...nodes.map((node) => this.nodeKey(node)))]);
      nodes.forEach((node, i) => {
        const beat = beats[i];
        // A heartbeat decides; a process without one (an older version) is alive while its key lives.
        if (beat !== null ? Number(beat) > cutoff : legacy[i] !== null) alive.add(node);
        else if (beat === null) gone.add(node);
      });
    }
    // The dead are only hidden here: the liveness pass removes them and pushes their leave, once.
    // Rows of no known process (unreadable, of an older version whose key expired, or left over) go at once.
    const orphans = rows.filter((row) => gone.has(row.node)).map((row) => row.ref);
    if (orphans.length > 0) await this.remove(topic, orphans);
    return toState(rows.filter((row) => alive.has(row.node)));
  }

  async close(): Promise<void> {
    try {
      // A clean stop has untracked its presences (their leaves are pushed): nothing to reap.
      await Promise.all([this.pub.del(this.nodeKey(this.nodeId), this.nodeTopicsKey(this.nodeId)), this.pub.zrem(this.nodesKey, this.nodeId)]);
    } catch {
      // Going away anyway: the key expires by itself.
    }
    await Promise.allSettled([this.sub.quit(), this.pub.quit()]);
  }
}
