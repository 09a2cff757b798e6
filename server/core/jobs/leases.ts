/**
 * Short exclusive leases on a name, for work that must not run twice at once anywhere in the cluster
 * (a webhook event being processed, a template sync of one account). With Redis (REDIS_URL, which a
 * cluster requires) a lease is one `SET key token NX PX ttl`, released by a compare-and-delete, so it
 * holds across processes and lapses by itself when its process dies; without Redis it is held in the
 * process's memory on the app's clock (one process).
 *
 * A lease is not a lock of the database: the work it guards stays idempotent, and the lease only keeps
 * a second process from starting the same work while the first is still at it.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Clock } from '../clock';
import { lazyRequire } from '../lazyRequire';

export interface Leases {
  /** A token when the lease on `name` was free (now held for `ttlMs`), null when someone holds it. */
  acquire(name: string, ttlMs: number): Promise<string | null>;
  /** Gives the lease back if `token` still holds it. */
  release(name: string, token: string): Promise<void>;
  close(): Promise<void>;
}

export class MemoryLeases implements Leases {
  private readonly held = new Map<string, { token: string; until: number }>();

  constructor(private readonly clock: Clock) {}

  async acquire(name: string, ttlMs: number): Promise<string | null> {
    const now = this.clock.now().getTime();
    const current = this.held.get(name);
    if (current && current.until > now) return null;
    const token = randomUUID();
    this.held.set(name, { token, until: now + ttlMs });
    return token;
  }

  async release(name: string, token: string): Promise<void> {
    if (this.held.get(name)?.token === token) this.held.delete(name);
  }

  async close(): Promise<void> {
    this.held.clear();
  }
}

const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

export class RedisLeases implements Leases {
  private readonly client: Redis;

  constructor(
    url: string,
    private readonly prefix: string,
  ) {
    const { Redis: RedisClient } = lazyRequire('ioredis') as typeof import('ioredis');
    this.client = new RedisClient(url, { lazyConnect: false, connectTimeout: 5_000, maxRetriesPerRequest: 2 });
    // Errors surface on the commands (the caller decides); the connection retries by itself.
    this.client.on('error', () => undefined);
  }

  async acquire(name: string, ttlMs: number): Promise<string | null> {
    const token = randomUUID();
    const ok = await this.client.set(`${this.prefix}:lease:${name}`, token, 'PX', Math.max(1, Math.round(ttlMs)), 'NX');
    return ok === 'OK' ? token : null;
  }

  async release(name: string, token: string): Promise<void> {
    await this.client.eval(RELEASE, 1, `${this.prefix}:lease:${name}`, token);
  }

  async close(): Promise<void> {
    await this.client.quit().catch(() => this.client.disconnect());
  }
}

/** Redis leases when the app has Redis (under its Redis prefix), else memory on the app's clock. */
export function createLeases(config: { redisUrl: string | null; realtime: { redisPrefix: string } }, clock: Clock): Leases {
  return config.redisUrl ? new RedisLeases(config.redisUrl, config.realtime.redisPrefix) : new MemoryLeases(clock);
}
