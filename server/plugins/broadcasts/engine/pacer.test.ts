/** The pacer with a hand-moved clock: no one-second window above the rate, the 60-second mean within 2 % of it. */
import { describe, expect, it } from 'vitest';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { ManualClock } from '../../../core/clock';
import { SendPacer, SLOTS_PER_SECOND, slotShare } from './pacer';

/** Runs `pacers` (processes sharing one store) for `seconds`, each asking for `want` per step; returns send times (ms). */
async function simulate(rate: number, seconds: number, processes = 1, want = rate, stepMs?: number): Promise<number[]> {
  const start = Date.UTC(2026, 0, 1, 12, 0, 0, 37); // not on a second boundary
  const clock = new ManualClock(new Date(start));
  const store = new RateLimiterMemory({ points: 1_000_000, duration: 5 });
  const pacers = Array.from({ length: processes }, () => new SendPacer(store, clock));
  const sends: number[] = [];
  while (clock.now().getTime() < start + seconds * 1000) {
    let next = Number.POSITIVE_INFINITY;
    for (const pacer of pacers) {
      const grant = await pacer.take('phone-1', rate, want);
      for (let i = 0; i < grant.granted; i++) sends.push(clock.now().getTime());
      next = Math.min(next, grant.retryAt);
    }
    clock.advance(stepMs ?? Math.max(1, next - clock.now().getTime()));
  }
  return sends.filter((t) => t < start + seconds * 1000).map((t) => t - start);
}

function perSecond(sends: number[], seconds: number, offsetMs = 0): number[] {
  const counts = new Array(seconds + 1).fill(0);
  for (const t of sends) counts[Math.floor((t + offsetMs) / 1000)] += 1;
  return counts;
}

/** The largest number of sends in any window [t, t + 1000) (t at every send). */
function maxSliding(sends: number[]): number {
  const sorted = [...sends].sort((a, b) => a - b);
  let best = 0;
  let j = 0;
  for (let i = 0; i < sorted.length; i++) {
    while (sorted[i] - sorted[j] >= 1000) j++;
    best = Math.max(best, i - j + 1);
  }
  return best;
}

describe('broadcast pacer', () => {
  it('slot shares add up to the rate', () => {
    for (const rate of [1, 7, 80, 333, 1000]) {
      let sum = 0;
      for (let slot = 0; slot < SLOTS_PER_SECOND; slot++) sum += slotShare(rate, slot);
      expect(sum).toBe(rate);
    }
  });

  for (const rate of [80, 1000]) {
    it(`at ${rate}/s: no calendar second above the rate, the 60-second mean within 2 %`, async () => {
      const sends = await simulate(rate, 61);
      // Calendar seconds as the clock counts them (the run starts 37 ms into a second).
      const start = 37;
      const seconds = perSecond(sends.map((t) => t + start), 61);
      expect(Math.max(...seconds)).toBeLessThanOrEqual(rate);
      const full = seconds.slice(1, 61);
      const mean = full.reduce((a, b) => a + b, 0) / full.length;
      expect(Math.abs(mean - rate) / rate).toBeLessThan(0.02);
      // Spread over the second: a sliding window holds at most one slot's share more.
      expect(maxSliding(sends)).toBeLessThanOrEqual(rate + Math.ceil(rate / SLOTS_PER_SECOND));
    });
  }

  it('two processes sharing the store stay under the rate together', async () => {
    const sends = await simulate(80, 30, 2, 80, 7);
    const seconds = perSecond(sends.map((t) => t + 37), 30);
    expect(Math.max(...seconds)).toBeLessThanOrEqual(80);
    const full = seconds.slice(1, 30);
    expect(full.reduce((a, b) => a + b, 0) / full.length).toBeGreaterThan(78);
  });

  it('a sender that misses slots (a busy event loop) catches up within the second, never above the rate', async () => {
    // One take every 270 ms: three or four a second instead of ten. Only the share of the slots after a
    // second's last take is lost (at most 2 of 10 here).
    const sends = await simulate(80, 30, 1, 80, 270);
    const seconds = perSecond(sends.map((t) => t + 37), 30);
    expect(Math.max(...seconds)).toBeLessThanOrEqual(80);
    const full = seconds.slice(1, 30);
    expect(Math.min(...full)).toBeGreaterThanOrEqual(64);
  });

  it('a slow sender that asks less still never exceeds the rate', async () => {
    const sends = await simulate(100, 10, 1, 3, 13);
    expect(Math.max(...perSecond(sends.map((t) => t + 37), 10))).toBeLessThanOrEqual(100);
  });
});
