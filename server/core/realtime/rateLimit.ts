/** A token bucket: `ratePerSecond` tokens refill continuously up to `burst`. */
export class TokenBucket {
  private tokens: number;
  private updatedAt: number;

  constructor(
    private readonly ratePerSecond: number,
    private readonly burst: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.tokens = burst;
    this.updatedAt = now();
  }

  take(): boolean {
    const now = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.updatedAt) / 1000) * this.ratePerSecond);
    this.updatedAt = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/** Counts events in a fixed window (e.g. rejected messages within 10 s). */
export class WindowCounter {
  private windowStart: number;
  private count = 0;

  constructor(
    private readonly windowMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.windowStart = now();
  }

  /** Adds one event and returns the count within the current window. */
  hit(): number {
    const now = this.now();
    if (now - this.windowStart >= this.windowMs) {
      this.windowStart = now;
      this.count = 0;
    }
    return ++this.count;
  }
}
