import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock';
import { MemoryRateLimiter } from './rateLimiter';

const RULE = { limit: 3, windowSeconds: 60 };

describe('MemoryRateLimiter (fixed window)', () => {
  it('allows `limit` hits per window, then reports the seconds left', () => {
    const clock = new ManualClock();
    const limiter = new MemoryRateLimiter(clock);
    expect([1, 2, 3].map(() => limiter.hit('k', RULE).limited)).toEqual([false, false, false]);
    expect(limiter.check('k', RULE)).toEqual({ limited: true, retryAfterSeconds: 60 });
    clock.advance(20_000);
    expect(limiter.hit('k', RULE)).toEqual({ limited: true, retryAfterSeconds: 40 });
  });

  it('starts a new window once the old one ends', () => {
    const clock = new ManualClock();
    const limiter = new MemoryRateLimiter(clock);
    for (let i = 0; i < 4; i++) limiter.hit('k', RULE);
    clock.advance(60_000);
    expect(limiter.check('k', RULE).limited).toBe(false);
    expect(limiter.hit('k', RULE).limited).toBe(false);
  });

  it('keeps keys apart, and reset clears one key', () => {
    const limiter = new MemoryRateLimiter(new ManualClock());
    for (let i = 0; i < 3; i++) limiter.hit('a', RULE);
    expect(limiter.check('a', RULE).limited).toBe(true);
    expect(limiter.check('b', RULE).limited).toBe(false);
    limiter.reset('a');
    expect(limiter.check('a', RULE).limited).toBe(false);
  });

  it('check does not count', () => {
    const limiter = new MemoryRateLimiter(new ManualClock());
    for (let i = 0; i < 10; i++) limiter.check('k', RULE);
    expect(limiter.hit('k', RULE).limited).toBe(false);
  });

  it('sweeps expired windows when many keys accumulate', () => {
    const clock = new ManualClock();
    const limiter = new MemoryRateLimiter(clock, 10);
    for (let i = 0; i < 10; i++) limiter.hit(`old-${i}`, RULE);
    clock.advance(61_000);
    limiter.hit('new', RULE);
    expect((limiter as unknown as { windows: Map<string, unknown> }).windows.size).toBe(1);
  });
});
