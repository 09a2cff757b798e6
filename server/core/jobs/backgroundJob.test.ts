import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BackgroundJob, backoffDelay, KeyedJobs } from './backgroundJob';

/** A promise the test resolves by hand, to hold a run in progress. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

function logger() {
  return { error: vi.fn() };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('backoffDelay', () => {
  it('doubles from firstMs and stops at maxMs', () => {
    const backoff = { firstMs: 5_000, maxMs: 30_000 };
    expect([0, 1, 2, 3, 4].map((retry) => backoffDelay(backoff, retry))).toEqual([5_000, 10_000, 20_000, 30_000, 30_000]);
  });
});

describe('BackgroundJob', () => {
  it('runs a pass at start and then every interval, read at start', async () => {
    const run = vi.fn(async () => {});
    let every = 1_000;
    const job = new BackgroundJob({ run, intervalMs: () => every, whileRunning: 'rerun', log: logger(), failureMessage: 'x' });
    every = 5_000;
    job.start();
    job.start();
    await job.settled();
    expect(run).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(4_999);
    expect(run).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(run).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(run).toHaveBeenCalledTimes(4);
    job.stop();
  });

  it('does nothing when triggered before start', async () => {
    const run = vi.fn(async () => {});
    const job = new BackgroundJob({ run, whileRunning: 'rerun', log: logger(), failureMessage: 'x' });
    job.trigger();
    await job.settled();
    expect(run).not.toHaveBeenCalled();
  });

  it("'rerun': triggers during a pass run exactly one more pass after it", async () => {
    const first = gate();
    const run = vi.fn(async () => {
      if (run.mock.calls.length === 1) await first.opened;
    });
    const job = new BackgroundJob({ run, whileRunning: 'rerun', log: logger(), failureMessage: 'x' });
    job.start();
    job.trigger();
    job.trigger();
    expect(run).toHaveBeenCalledTimes(1);
    first.open();
    await job.settled();
    expect(run).toHaveBeenCalledTimes(2);
  });

  it("'skip': a trigger during a pass is dropped", async () => {
    const first = gate();
    const run = vi.fn(async () => first.opened);
    const job = new BackgroundJob({ run, whileRunning: 'skip', log: logger(), failureMessage: 'x' });
    job.start();
    job.trigger();
    first.open();
    await job.settled();
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('logs a failed pass and a failed tick and goes on', async () => {
    const log = logger();
    const boom = new Error('boom');
    const run = vi.fn(async () => {
      throw boom;
    });
    const onTick = vi.fn(async () => {
      throw boom;
    });
    const job = new BackgroundJob({ run, onTick, intervalMs: () => 100, whileRunning: 'rerun', log, failureMessage: 'pass failed', tickFailureMessage: 'tick failed' });
    job.start();
    await job.settled();
    expect(log.error).toHaveBeenCalledWith({ err: boom }, 'pass failed');
    expect(onTick).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(100);
    await job.settled();
    expect(run).toHaveBeenCalledTimes(2);
    expect(onTick).toHaveBeenCalledTimes(1);
    expect(log.error).toHaveBeenCalledWith({ err: boom }, 'tick failed');
    job.stop();
  });

  it('triggerAfter runs a pass after the delay', async () => {
    const run = vi.fn(async () => {});
    const job = new BackgroundJob({ run, whileRunning: 'rerun', log: logger(), failureMessage: 'x' });
    job.start();
    await job.settled();
    job.triggerAfter(250);
    await vi.advanceTimersByTimeAsync(249);
    expect(run).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(run).toHaveBeenCalledTimes(2);
  });

  it('stop is final: clears the interval and delayed passes, and settled waits for the pass in progress', async () => {
    const first = gate();
    let finished = false;
    const run = vi.fn(async () => {
      await first.opened;
      finished = true;
    });
    const job = new BackgroundJob({ run, intervalMs: () => 100, whileRunning: 'rerun', log: logger(), failureMessage: 'x' });
    job.start();
    job.triggerAfter(50);
    job.trigger();
    job.stop();
    expect(job.isStopped).toBe(true);
    const settled = job.settled();
    first.open();
    await settled;
    expect(finished).toBe(true);
    job.start();
    job.trigger();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(run).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('timers do not keep the process alive', () => {
    // On the real timers: a spy laid over a faked global outlived both its restore and useRealTimers,
    // which left setInterval faked for the next test file of the worker (isolate: false) and stopped
    // the realtime hub's sweep in it.
    vi.useRealTimers();
    const real = globalThis.setInterval;
    const unref = vi.fn();
    const spy = vi.spyOn(globalThis, 'setInterval').mockImplementation(((fn: () => void, ms: number) => Object.assign(real(fn, ms), { unref })) as unknown as typeof setInterval);
    const job = new BackgroundJob({ run: async () => {}, intervalMs: () => 100, whileRunning: 'rerun', log: logger(), failureMessage: 'x' });
    try {
      job.start();
      expect(unref).toHaveBeenCalledTimes(1);
    } finally {
      job.stop();
      spy.mockRestore();
    }
    expect(globalThis.setInterval).toBe(real);
  });
});

describe('KeyedJobs', () => {
  function jobs(log = logger()) {
    return new KeyedJobs<number>({ log, failureMessage: 'item failed', logFields: (id) => ({ itemId: id }) });
  }

  it('runs one task per key at a time and hands back the run in progress', async () => {
    const k = jobs();
    const first = gate();
    const task = vi.fn(async () => first.opened);
    const a = k.run(1, task);
    const b = k.run(1, task);
    expect(b).toBe(a);
    expect(k.has(1)).toBe(true);
    expect(k.isRunning(1)).toBe(true);
    await k.run(2, async () => {});
    expect(task).toHaveBeenCalledTimes(1);
    first.open();
    await k.settled();
    expect(k.has(1)).toBe(false);
  });

  it('logs a failed run with the key', async () => {
    const log = logger();
    const k = jobs(log);
    const boom = new Error('boom');
    await k.run(7, async () => {
      throw boom;
    });
    expect(log.error).toHaveBeenCalledWith({ err: boom, itemId: 7 }, 'item failed');
  });

  it('runAfter schedules a run of the key, which counts as pending until it starts', async () => {
    const k = jobs();
    const task = vi.fn(async () => {});
    k.runAfter(3, 1_000, task);
    expect(k.waitingCount).toBe(1);
    expect(k.has(3)).toBe(true);
    expect(k.isRunning(3)).toBe(false);
    await vi.advanceTimersByTimeAsync(999);
    expect(task).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(task).toHaveBeenCalledTimes(1);
    expect(k.waitingCount).toBe(0);
    await k.settled();
    expect(k.has(3)).toBe(false);
  });

  it('a run can schedule its own retry', async () => {
    const k = jobs();
    const attempts: number[] = [];
    const attempt = async (n: number): Promise<void> => {
      attempts.push(n);
      if (n < 2) k.runAfter(1, backoffDelay({ firstMs: 100, maxMs: 1_000 }, n), () => attempt(n + 1));
    };
    await k.run(1, () => attempt(0));
    await vi.advanceTimersByTimeAsync(100);
    await vi.advanceTimersByTimeAsync(200);
    await k.settled();
    expect(attempts).toEqual([0, 1, 2]);
    expect(k.has(1)).toBe(false);
  });

  it('stop is final: scheduled runs are dropped, nothing new starts, settled waits for the runs in progress', async () => {
    const k = jobs();
    const first = gate();
    let finished = false;
    void k.run(1, async () => {
      await first.opened;
      finished = true;
    });
    const later = vi.fn(async () => {});
    k.runAfter(2, 10, later);
    k.stop();
    expect(k.isStopped).toBe(true);
    await k.run(3, later);
    k.runAfter(4, 10, later);
    await vi.advanceTimersByTimeAsync(100);
    expect(later).not.toHaveBeenCalled();
    const settled = k.settled();
    first.open();
    await settled;
    expect(finished).toBe(true);
  });

  it('cancelScheduled drops the scheduled runs and refuses new ones, while run() still starts runs', async () => {
    const k = jobs();
    const later = vi.fn(async () => {});
    k.runAfter(1, 10, later);
    k.cancelScheduled();
    expect(k.schedules).toBe(false);
    expect(k.isStopped).toBe(false);
    k.runAfter(2, 10, later);
    await vi.advanceTimersByTimeAsync(100);
    expect(later).not.toHaveBeenCalled();
    await k.run(3, later);
    expect(later).toHaveBeenCalledTimes(1);
  });

  it('stopWithin waits for the runs up to the grace period and hands back the keys still running', async () => {
    const k = jobs();
    const slow = gate();
    void k.run(1, () => slow.opened);
    void k.run(2, async () => {});
    const left = k.stopWithin(500);
    await vi.advanceTimersByTimeAsync(500);
    expect(await left).toEqual([1]);
    slow.open();
    await k.settled();
    expect(await k.stopWithin(500)).toEqual([]);
  });
});
