import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSubscriptionQueue, ROOM_BATCH_PAUSE_MS, ROOM_BATCH_SIZE, ROOM_SUBSCRIBE_INTERVAL_MS } from './subscriptionQueue';

describe('room subscription pacing (100 ms between rooms, 3 s pause per batch)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('subscribes one room every 100 ms and pauses 3 s after each batch', () => {
    expect([ROOM_SUBSCRIBE_INTERVAL_MS, ROOM_BATCH_PAUSE_MS]).toEqual([100, 3000]);
    const joined: number[] = [];
    const q = createSubscriptionQueue((id) => joined.push(id));
    const ids = Array.from({ length: ROOM_BATCH_SIZE + 3 }, (_, i) => i + 1);
    q.enqueue(ids);
    expect(joined).toEqual([1]); // the first at once
    vi.advanceTimersByTime(99);
    expect(joined).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(joined).toHaveLength(2);
    vi.advanceTimersByTime(100 * (ROOM_BATCH_SIZE - 2));
    expect(joined).toHaveLength(ROOM_BATCH_SIZE); // the batch is done
    vi.advanceTimersByTime(ROOM_BATCH_PAUSE_MS - 1);
    expect(joined).toHaveLength(ROOM_BATCH_SIZE);
    vi.advanceTimersByTime(1);
    expect(joined).toHaveLength(ROOM_BATCH_SIZE + 1);
    vi.advanceTimersByTime(200);
    expect(joined).toEqual(ids);
  });

  it('never subscribes a room twice; the open room jumps the queue', () => {
    const joined: number[] = [];
    const q = createSubscriptionQueue((id) => joined.push(id));
    q.enqueue([1, 2, 3]);
    q.now(3);
    expect(joined).toEqual([1, 3]);
    q.enqueue([1, 2, 3, 4]);
    vi.advanceTimersByTime(1000);
    expect(joined).toEqual([1, 3, 2, 4]);
    q.now(4);
    expect(joined).toEqual([1, 3, 2, 4]);
    q.reset();
    q.enqueue([1]);
    expect(joined).toEqual([1, 3, 2, 4, 1]);
  });
});
