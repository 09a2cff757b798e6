// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { whenIdle } from './whenIdle';

describe('whenIdle', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('runs the work in an idle callback, which cancelling withdraws', () => {
    const callbacks = new Map<number, () => void>();
    let next = 1;
    vi.stubGlobal('requestIdleCallback', (cb: () => void) => (callbacks.set(next, cb), next++));
    vi.stubGlobal('cancelIdleCallback', (handle: number) => callbacks.delete(handle));
    const work = vi.fn();
    whenIdle(work);
    const cancel = whenIdle(work);
    expect(work).not.toHaveBeenCalled();
    cancel();
    for (const cb of callbacks.values()) cb();
    expect(work).toHaveBeenCalledTimes(1);
  });

  it('without requestIdleCallback (Safari), runs it after the fallback delay', () => {
    vi.useFakeTimers();
    vi.stubGlobal('requestIdleCallback', undefined);
    const work = vi.fn();
    whenIdle(work, 500);
    vi.advanceTimersByTime(499);
    expect(work).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(work).toHaveBeenCalledTimes(1);
    const cancelled = vi.fn();
    whenIdle(cancelled, 500)();
    vi.advanceTimersByTime(1000);
    expect(cancelled).not.toHaveBeenCalled();
  });
});
