import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { debounce } from './debounce';

describe('debounce (500 ms, max wait 2 s)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs once after 500 ms of quiet with the last arguments', () => {
    const fn = vi.fn();
    const d = debounce(fn);
    d('a');
    vi.advanceTimersByTime(300);
    d('ab');
    vi.advanceTimersByTime(499);
    expect(fn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fn).toHaveBeenCalledTimes(1);
    expect(fn).toHaveBeenCalledWith('ab');
  });

  it('never waits more than 2 s while typing goes on', () => {
    const fn = vi.fn();
    const d = debounce(fn);
    for (let i = 0; i < 10; i++) {
      d(i);
      vi.advanceTimersByTime(250);
    }
    // 2.5 s of typing: one call at the 2 s mark
    expect(fn).toHaveBeenCalledTimes(1);
    expect(fn).toHaveBeenCalledWith(7);
    vi.advanceTimersByTime(500);
    expect(fn).toHaveBeenCalledTimes(2);
    expect(fn).toHaveBeenLastCalledWith(9);
  });

  it('cancel drops a pending call', () => {
    const fn = vi.fn();
    const d = debounce(fn);
    d();
    d.cancel();
    vi.advanceTimersByTime(3000);
    expect(fn).not.toHaveBeenCalled();
  });
});
