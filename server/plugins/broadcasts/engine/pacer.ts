/**
 * Pacing per sending number: at most `rate` messages in each one-second window, counted in a store
 * every server process shares (Redis when REDIS_URL is set, else the database through
 * rate-limiter-flexible's drizzle store; memory for one process and unit tests).
 *
 * Each second is cut into SLOTS slots; by the end of slot i at most floor((i+1)·rate/SLOTS) of the
 * second's sends may have been granted, so the sends are spread over the second instead of leaving
 * in one burst at its start, a slot missed (a busy event loop) can be caught up later in the same
 * second, and a second never holds more than `rate` (a sliding one-second window stays within one
 * slot's share of the rate when the sender keeps up, and within twice the rate at worst after a stall).
 *
 * A take is one atomic increment by n on the second's key; of the points it added, only those under
 * the allowance are granted (increments are atomic, so two processes never both get the same
 * point) and the rest are given back. Which slot is current comes from the Clock, so tests move time by hand.
 */
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Clock } from '../../../core/clock';

export const SLOTS_PER_SECOND = 10;
const SLOT_MS = 1000 / SLOTS_PER_SECOND;

/** rate-limiter-flexible's atomic increment and decrement (penalty/reward never reject: they add or remove points and report the total). */
export type CounterStore = Pick<RateLimiterAbstract, 'penalty' | 'reward'>;

export interface Grant {
  /** How many sends may go now (0: wait until `retryAt`). */
  granted: number;
  /** Epoch ms when the next slot begins. */
  retryAt: number;
  /**
   * Epoch ms when the grant's second ends: the grant's points are counted in that second, so a send
   * that starts late (a busy event loop) may still go until then without the second exceeding the rate.
   */
  usableUntil: number;
}

/** Slot i's share of `rate` per second: floor((i+1)·rate/S) − floor(i·rate/S); the S shares add up to `rate`. */
export function slotShare(rate: number, slot: number): number {
  return Math.floor(((slot + 1) * rate) / SLOTS_PER_SECOND) - Math.floor((slot * rate) / SLOTS_PER_SECOND);
}

/** How many of a second's sends may have been granted by the end of slot i. */
export function cumulativeShare(rate: number, slot: number): number {
  return Math.floor(((slot + 1) * rate) / SLOTS_PER_SECOND);
}

export class SendPacer {
  constructor(
    private readonly store: CounterStore,
    private readonly clock: Clock,
    private readonly keyPrefix = 'bcast',
  ) {}

  /** Asks for up to `wanted` sends on `numberKey` at `rate`/s; grants what the second allows up to the current slot. */
  async take(numberKey: string, rate: number, wanted: number): Promise<Grant> {
    const now = this.clock.now().getTime();
    const slotIndex = Math.floor(now / SLOT_MS);
    const second = Math.floor(slotIndex / SLOTS_PER_SECOND);
    const slot = slotIndex % SLOTS_PER_SECOND;
    const retryAt = (slotIndex + 1) * SLOT_MS;
    const usableUntil = (second + 1) * 1000;
    const allowed = cumulativeShare(rate, slot);
    if (allowed <= 0 || wanted <= 0) return { granted: 0, retryAt, usableUntil };
    const ask = Math.min(wanted, allowed);
    const key = `${this.keyPrefix}:${numberKey}:${second}`;
    const res = await this.store.penalty(key, ask, { customDuration: 5 });
    const before = res.consumedPoints - ask;
    const granted = Math.max(0, Math.min(ask, allowed - before));
    // Points asked but not granted go back, so the count stays the sum of the grants (a process that
    // reads the count meanwhile sees more, never less, than was granted: it can only get fewer).
    if (ask > granted) await this.store.reward(key, ask - granted, { customDuration: 5 });
    return { granted, retryAt, usableUntil };
  }
}
