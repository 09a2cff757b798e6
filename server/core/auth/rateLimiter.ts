/**
 * Rate limiting in fixed windows over rate-limiter-flexible's stores: in memory for one process,
 * or in Redis (REDIS_URL) so every process counts together and the counts survive a restart.
 *
 * rate-limiter-flexible does the storage part: an atomic increment with expiry per key, in any store.
 * Which window an event belongs to is chosen here, from the app's Clock: the store key carries the
 * window's index (windows are aligned on the epoch), so a test's ManualClock moves limits forward
 * without sleeping, and the store's own expiry only cleans up (a key lives as long as its window).
 */
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Clock } from '../clock';
import { lazyRequire } from '../lazyRequire';

export interface RateRule {
  limit: number;
  windowSeconds: number;
}

export interface RateStatus {
  limited: boolean;
  /** Seconds until the window ends (0 when not limited). */
  retryAfterSeconds: number;
  /** Events counted for the key in the current window. */
  count: number;
}

export interface RateLimiter {
  /** Whether the key has used up its limit (count >= limit), without counting. */
  check(key: string, rule: RateRule): Promise<RateStatus>;
  /** Counts one event for the key and reports whether it is now over the limit (count > limit). */
  hit(key: string, rule: RateRule): Promise<RateStatus>;
  /** Forgets the key's count in the rule's current window. */
  reset(key: string, rule: RateRule): Promise<void>;
  /** Releases the store's connection (the app calls it on close). */
  close?(): Promise<void>;
}

/** The limits of the account routes other than login (see loginThrottle.ts for login). */
export const RATE_RULES = {
  resetPerEmail: { limit: 3, windowSeconds: 3600 },
  resetPerIp: { limit: 10, windowSeconds: 3600 },
  onboardingPerEmail: { limit: 5, windowSeconds: 3600 },
} as const satisfies Record<string, RateRule>;

/** Where the counts live. */
export type RateStore = { kind: 'memory' } | { kind: 'redis'; client: Redis; keyPrefix: string };

const NOT_LIMITED = (count: number): RateStatus => ({ limited: false, retryAfterSeconds: 0, count });

export class FlexibleRateLimiter implements RateLimiter {
  /** One rate-limiter-flexible instance per window length (its `duration` is the keys' lifetime). */
  private readonly byWindow = new Map<number, RateLimiterAbstract>();

  constructor(
    private readonly clock: Clock,
    private readonly store: RateStore = { kind: 'memory' },
  ) {}

  private limiterFor(windowSeconds: number): RateLimiterAbstract {
    let limiter = this.byWindow.get(windowSeconds);
    if (!limiter) {
      // `points` is not used: the decision is made from the count (see `status`).
      const options = { points: 1, duration: windowSeconds };
      limiter =
        this.store.kind === 'redis'
          ? new RateLimiterRedis({
              ...options,
              storeClient: this.store.client,
              keyPrefix: `${this.store.keyPrefix}:${windowSeconds}`,
              // Redis unreachable: count in this process rather than fail the request.
              insuranceLimiter: new RateLimiterMemory(options),
            })
          : new RateLimiterMemory(options);
      this.byWindow.set(windowSeconds, limiter);
    }
    return limiter;
  }

  /** The store key of the key's current window, and the seconds until that window ends. */
  private window(key: string, rule: RateRule): { storeKey: string; secondsLeft: number } {
    const windowMs = rule.windowSeconds * 1000;
    const now = this.clock.now().getTime();
    const index = Math.floor(now / windowMs);
    return { storeKey: `${key}:${index}`, secondsLeft: Math.max(1, Math.ceil(((index + 1) * windowMs - now) / 1000)) };
  }

  async check(key: string, rule: RateRule): Promise<RateStatus> {
    const { storeKey, secondsLeft } = this.window(key, rule);
    const count = (await this.limiterFor(rule.windowSeconds).get(storeKey))?.consumedPoints ?? 0;
    return count >= rule.limit ? { limited: true, retryAfterSeconds: secondsLeft, count } : NOT_LIMITED(count);
  }

  async hit(key: string, rule: RateRule): Promise<RateStatus> {
    const { storeKey, secondsLeft } = this.window(key, rule);
    // penalty: an atomic increment that never rejects. A new key lives one whole window: the window it
    // counts is named by the key (from the app's clock), and the store expires keys by the real clock, so a
    // lifetime of "until the window ends" could drop a key mid-window whenever the two clocks disagree (a
    // test's manual clock, a process whose clock was adjusted); it only holds an old key a little longer.
    const { consumedPoints: count } = await this.limiterFor(rule.windowSeconds).penalty(storeKey, 1, { customDuration: rule.windowSeconds });
    // The `limit`-th event itself is allowed.
    return count > rule.limit ? { limited: true, retryAfterSeconds: secondsLeft, count } : NOT_LIMITED(count);
  }

  async reset(key: string, rule: RateRule): Promise<void> {
    await this.limiterFor(rule.windowSeconds).delete(this.window(key, rule).storeKey);
  }

  async close(): Promise<void> {
    if (this.store.kind === 'redis') this.store.client.disconnect();
  }
}

/** The app's limiter: Redis when REDIS_URL is set (shared by every process, kept across restarts), else memory. */
export function createRateLimiter(
  clock: Clock,
  redis: { url: string | null; keyPrefix: string },
  log?: { warn(obj: object, msg: string): void },
): FlexibleRateLimiter {
  if (!redis.url) return new FlexibleRateLimiter(clock);
  // Few retries: a login should not hang on a Redis outage (the insurance limiter counts meanwhile).
  const { Redis: RedisClient } = lazyRequire('ioredis') as typeof import('ioredis');
  const client = new RedisClient(redis.url, { lazyConnect: true, connectTimeout: 2_000, maxRetriesPerRequest: 1 });
  client.on('error', (err) => log?.warn({ err }, 'rate limits: redis error'));
  return new FlexibleRateLimiter(clock, { kind: 'redis', client, keyPrefix: redis.keyPrefix });
}
