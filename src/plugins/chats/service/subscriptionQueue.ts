/**
 * Spec §9 room subscription pacing: rooms are subscribed one by one, 100 ms apart, with a 3 s pause
 * after each batch (batch size not given by the spec; 10 here), so a long list never floods the socket.
 */
export const ROOM_SUBSCRIBE_INTERVAL_MS = 100;
export const ROOM_BATCH_PAUSE_MS = 3000;
export const ROOM_BATCH_SIZE = 10;

export interface SubscriptionQueue {
  /** Queues rooms not yet subscribed or queued. */
  enqueue(ids: number[]): void;
  /** Subscribes now (the open room), removing it from the queue. */
  now(id: number): void;
  has(id: number): boolean;
  pending(): number[];
  /** Forgets everything (company change, sign-out). */
  reset(): void;
}

export function createSubscriptionQueue(
  subscribe: (id: number) => void,
  options: { interval?: number; pause?: number; batchSize?: number } = {},
): SubscriptionQueue {
  const interval = options.interval ?? ROOM_SUBSCRIBE_INTERVAL_MS;
  const pause = options.pause ?? ROOM_BATCH_PAUSE_MS;
  const batchSize = options.batchSize ?? ROOM_BATCH_SIZE;
  const done = new Set<number>();
  let queue: number[] = [];
  let timer: ReturnType<typeof setTimeout> | null = null;
  let inBatch = 0;

  // Each subscription is followed by a cool-down (100 ms, or 3 s after a full batch); a room queued
  // during a cool-down waits for it, and an idle queue starts a new batch.
  const step = () => {
    timer = null;
    const id = queue.shift();
    if (id === undefined) {
      inBatch = 0;
      return;
    }
    done.add(id);
    subscribe(id);
    inBatch += 1;
    if (inBatch >= batchSize) {
      inBatch = 0;
      timer = setTimeout(step, pause);
    } else timer = setTimeout(step, interval);
  };

  return {
    enqueue(ids) {
      for (const id of ids) if (!done.has(id) && !queue.includes(id)) queue.push(id);
      if (!timer && queue.length) step();
    },
    now(id) {
      queue = queue.filter((q) => q !== id);
      if (done.has(id)) return;
      done.add(id);
      subscribe(id);
    },
    has: (id) => done.has(id) || queue.includes(id),
    pending: () => [...queue],
    reset() {
      if (timer) clearTimeout(timer);
      timer = null;
      queue = [];
      inBatch = 0;
      done.clear();
    },
  };
}
