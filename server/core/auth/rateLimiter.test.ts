import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../clock';
import { createRateLimiter, FlexibleRateLimiter } from './rateLimiter';

const RULE = { limit: 3, windowSeconds: 60 };
/** A minute boundary, so the window arithmetic below is exact. */
const START = new Date('2026-03-02T10:00:00Z');

describe('FlexibleRateLimiter (fixed windows from the Clock, memory store)', () => {
  it('allows `limit` hits per window, then reports the seconds left in the window', async () => {
    const clock = new ManualClock(START);
    const limiter = new FlexibleRateLimiter(clock);
    const hits = [];
    for (let i = 0; i < 3; i++) hits.push((await limiter.hit('k', RULE)).limited);
    expect(hits).toEqual([false, false, false]);
    expect(await limiter.check('k', RULE)).toEqual({ limited: true, retryAfterSeconds: 60, count: 3 });
    clock.advance(20_000);
    expect(await limiter.hit('k', RULE)).toEqual({ limited: true, retryAfterSeconds: 40, count: 4 });
  });

  it("keeps a window's count for the whole window whatever the real clock says (a key is not expired by real time mid-window)", async () => {
    // The app's clock half a second before the window ends, the store's real clock running on: the
    // count must still be there after a real second (the sandbox's limit test met this at random).
    const clock = new ManualClock(new Date(START.getTime() + 59_500));
    const limiter = new FlexibleRateLimiter(clock);
    for (let i = 0; i < 3; i++) await limiter.hit('k', RULE);
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(await limiter.hit('k', RULE)).toMatchObject({ limited: true, count: 4 });
  });

  it('starts a new window when the clock reaches the next one', async () => {
    const clock = new ManualClock(START);
    const limiter = new FlexibleRateLimiter(clock);
    for (let i = 0; i < 4; i++) await limiter.hit('k', RULE);
    clock.advance(59_000);
    expect((await limiter.check('k', RULE)).limited).toBe(true);
    clock.advance(1_000);
    expect(await limiter.check('k', RULE)).toEqual({ limited: false, retryAfterSeconds: 0, count: 0 });
    expect((await limiter.hit('k', RULE)).limited).toBe(false);
  });

  it('keeps keys and window lengths apart; reset clears one key of one rule', async () => {
    const limiter = new FlexibleRateLimiter(new ManualClock(START));
    const longer = { limit: 3, windowSeconds: 3600 };
    for (let i = 0; i < 3; i++) await Promise.all([limiter.hit('a', RULE), limiter.hit('a', longer)]);
    expect((await limiter.check('a', RULE)).limited).toBe(true);
    expect((await limiter.check('b', RULE)).limited).toBe(false);
    await limiter.reset('a', RULE);
    expect((await limiter.check('a', RULE)).limited).toBe(false);
    expect((await limiter.check('a', longer)).limited).toBe(true);
  });

  it('check does not count', async () => {
    const limiter = new FlexibleRateLimiter(new ManualClock(START));
    for (let i = 0; i < 10; i++) await limiter.check('k', RULE);
    expect(await limiter.hit('k', RULE)).toEqual({ limited: false, retryAfterSeconds: 0, count: 1 });
  });

  it('counts concurrent hits exactly', async () => {
    const limiter = new FlexibleRateLimiter(new ManualClock(START));
    const results = await Promise.all(Array.from({ length: 10 }, () => limiter.hit('k', RULE)));
    expect(results.map((r) => r.count).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(results.filter((r) => r.limited)).toHaveLength(7);
  });
});

const redisUrl = process.env.TEST_REDIS_URL;
(redisUrl ? describe : describe.skip)(
  redisUrl ? 'FlexibleRateLimiter over Redis (TEST_REDIS_URL)' : 'FlexibleRateLimiter over Redis: skipped because TEST_REDIS_URL is not set',
  () => {
    const keyPrefix = `test-limits-${randomBytes(4).toString('hex')}`;
    const opened: FlexibleRateLimiter[] = [];
    const open = (clock: ManualClock) => {
      const limiter = createRateLimiter(clock, { url: redisUrl!, keyPrefix });
      opened.push(limiter);
      return limiter;
    };
    afterAll(async () => {
      await Promise.all(opened.map((l) => l.close()));
    });

    it('two limiters (two processes) share one count, and a new one (a restart) still sees it', async () => {
      const clock = new ManualClock(START);
      const [a, b] = [open(clock), open(clock)];
      await a.hit('shared', RULE);
      await b.hit('shared', RULE);
      await a.hit('shared', RULE);
      expect(await b.check('shared', RULE)).toEqual({ limited: true, retryAfterSeconds: 60, count: 3 });
      await a.close();
      const restarted = open(clock);
      expect((await restarted.hit('shared', RULE)).limited).toBe(true);
      await restarted.reset('shared', RULE);
      expect((await b.check('shared', RULE)).count).toBe(0);
    });
  },
);
