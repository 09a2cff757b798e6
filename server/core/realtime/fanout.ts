/**
 * Fan-out of broadcasts between server processes, and where presence entries live.
 *
 * One process: everything stays in memory. With Redis (REDIS_URL): every broadcast is
 * published on one channel (`<prefix>:broadcast`, JSON {origin, topic, event, payload}); each
 * process, the publisher included, delivers what it receives to its own subscribers, so every
 * socket gets each broadcast exactly once. Presence entries are kept in one Redis hash per topic,
 * tagged with the process that tracks them; a process refreshes a liveness key while it runs, so
 * the entries of a process that died are skipped (and cleaned up) when a state is read.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import { lazyRequire } from '../lazyRequire';

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

export interface PresenceStore {
  add(topic: string, ref: string, entry: PresenceEntry): Promise<void>;
  remove(topic: string, refs: string[]): Promise<void>;
  list(topic: string): Promise<PresenceState>;
}

function toState(entries: Iterable<PresenceEntry>): PresenceState {
  const state: PresenceState = Object.create(null);
  for (const { key, meta } of entries) (state[key] ??= { metas: [] }).metas.push(meta);
  return state;
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
}

const CONNECT_TIMEOUT_MS = 10_000;
const NODE_TTL_MS = 30_000;

export class RedisFanout implements Fanout, PresenceStore {
  readonly nodeId = randomUUID();
  private readonly pub: Redis;
  private readonly sub: Redis;
  private readonly channel: string;
  private livenessTimer: NodeJS.Timeout | null = null;

  constructor(
    url: string,
    private readonly prefix: string,
    private readonly log: FastifyBaseLogger,
  ) {
    const options = { lazyConnect: true, connectTimeout: CONNECT_TIMEOUT_MS, maxRetriesPerRequest: 3 };
    const { Redis: RedisClient } = lazyRequire('ioredis') as typeof import('ioredis');
    this.pub = new RedisClient(url, options);
    this.sub = new RedisClient(url, options);
    this.channel = `${prefix}:broadcast`;
    for (const client of [this.pub, this.sub]) client.on('error', (err) => this.log.warn({ err }, 'realtime: redis error'));
  }

  private nodeKey(nodeId: string): string {
    return `${this.prefix}:node:${nodeId}`;
  }

  private presenceKey(topic: string): string {
    return `${this.prefix}:presence:${topic}`;
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
    await this.refreshLiveness();
    this.livenessTimer = setInterval(() => void this.refreshLiveness(), NODE_TTL_MS / 3);
    this.livenessTimer.unref();
  }

  private async refreshLiveness(): Promise<void> {
    try {
      await this.pub.set(this.nodeKey(this.nodeId), '1', 'PX', NODE_TTL_MS);
    } catch (err) {
      this.log.warn({ err }, 'realtime: could not refresh the process liveness key');
    }
  }

  async publish(topic: string, event: string, payloadJson: string): Promise<void> {
    const message = `{"origin":${JSON.stringify(this.nodeId)},"topic":${JSON.stringify(topic)},"event":${JSON.stringify(event)},"payload":${payloadJson}}`;
    await this.pub.publish(this.channel, message);
  }

  async add(topic: string, ref: string, entry: PresenceEntry): Promise<void> {
    await this.pub.hset(this.presenceKey(topic), ref, JSON.stringify({ ...entry, node: this.nodeId }));
  }

  async remove(topic: string, refs: string[]): Promise<void> {
    if (refs.length > 0) await this.pub.hdel(this.presenceKey(topic), ...refs);
  }

  async list(topic: string): Promise<PresenceState> {
    const raw = await this.pub.hgetall(this.presenceKey(topic));
    const rows = Object.entries(raw).flatMap(([ref, value]) => {
      try {
        const parsed = JSON.parse(value) as PresenceEntry & { node: string };
        return [{ ref, ...parsed }];
      } catch {
        return [{ ref, key: '', meta: {}, node: '' }];
      }
    });
    const nodes = [...new Set(rows.map((row) => row.node))].filter(Boolean);
    const alive = new Set<string>();
    if (nodes.length > 0) {
      const flags = await this.pub.mget(...nodes.map((node) => this.nodeKey(node)));
      nodes.forEach((node, i) => flags[i] !== null && alive.add(node));
    }
    const dead = rows.filter((row) => !alive.has(row.node)).map((row) => row.ref);
    if (dead.length > 0) await this.remove(topic, dead);
    return toState(rows.filter((row) => alive.has(row.node)));
  }

  async close(): Promise<void> {
    if (this.livenessTimer) clearInterval(this.livenessTimer);
    try {
      await this.pub.del(this.nodeKey(this.nodeId));
    } catch {
      // Going away anyway: the key expires by itself.
    }
    await Promise.allSettled([this.sub.quit(), this.pub.quit()]);
  }
}
