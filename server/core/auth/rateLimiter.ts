/**
 * Fixed-window rate limiting: a key may be counted `limit` times per window.
 * The interface allows a shared store (e.g. Redis) later; the in-memory one suits a single process.
 */
import type { Clock } from '../clock';

export interface RateRule {
  limit: number;
  windowSeconds: number;
}

export interface RateStatus {
  limited: boolean;
  /** Seconds until the window ends (0 when not limited). */
  retryAfterSeconds: number;
}

export interface RateLimiter {
  /** Whether the key has used up its limit, without counting. */
  check(key: string, rule: RateRule): RateStatus;
  /** Counts one event for the key and reports whether it is now over the limit. */
  hit(key: string, rule: RateRule): RateStatus;
  reset(key: string): void;
}

/** The limits of the account routes (spec brief: login and reset requests). */
export const RATE_RULES = {
  loginPerEmail: { limit: 5, windowSeconds: 15 * 60 },
  loginPerIp: { limit: 30, windowSeconds: 15 * 60 },
  resetPerEmail: { limit: 3, windowSeconds: 3600 },
  resetPerIp: { limit: 10, windowSeconds: 3600 },
  onboardingPerEmail: { limit: 5, windowSeconds: 3600 },
} as const satisfies Record<string, RateRule>;

interface Window {
  endsAt: number;
  count: number;
}

export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly clock: Clock,
    /** Above this many keys, expired windows are swept so memory stays bounded. */
    private readonly sweepThreshold = 10_000,
  ) {}

  private current(key: string, rule: RateRule, now: number): Window | undefined {
    const window = this.windows.get(key);
    if (!window || now >= window.endsAt) return undefined;
    return window;
  }

  private status(window: Window | undefined, rule: RateRule, now: number): RateStatus {
    if (!window || window.count < rule.limit) return { limited: false, retryAfterSeconds: 0 };
    return { limited: true, retryAfterSeconds: Math.max(1, Math.ceil((window.endsAt - now) / 1000)) };
  }

  check(key: string, rule: RateRule): RateStatus {
    const now = this.clock.now().getTime();
    return this.status(this.current(key, rule, now), rule, now);
  }

  hit(key: string, rule: RateRule): RateStatus {
    const now = this.clock.now().getTime();
    let window = this.current(key, rule, now);
    if (!window) {
      if (this.windows.size >= this.sweepThreshold) this.sweep(now);
      window = { endsAt: now + rule.windowSeconds * 1000, count: 0 };
      this.windows.set(key, window);
    }
    window.count += 1;
    // Limited once the count exceeds the limit: the `limit`-th event itself is allowed.
    return window.count > rule.limit ? this.status(window, rule, now) : { limited: false, retryAfterSeconds: 0 };
  }

  reset(key: string): void {
    this.windows.delete(key);
  }

  private sweep(now: number): void {
    for (const [key, window] of this.windows) if (now >= window.endsAt) this.windows.delete(key);
  }
}
