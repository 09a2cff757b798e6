import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAlertApi } from './alertApi';

describe('alert api', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('counts down from 100 one step every 50 ms and closes at 0', () => {
    const alert = createAlertApi();
    alert.error('Boom');
    expect(alert.getState()).toMatchObject({ active: true, text: 'Boom', type: 'error', progress: 100, loader: false });
    vi.advanceTimersByTime(50);
    expect(alert.getState().progress).toBe(99);
    vi.advanceTimersByTime(50 * 98);
    expect(alert.getState()).toMatchObject({ active: true, progress: 1 });
    vi.advanceTimersByTime(50);
    expect(alert.getState()).toMatchObject({ active: false, progress: 0 });
  });

  it('restarts the countdown on a new alert and keeps the loader flag', () => {
    const alert = createAlertApi();
    const listener = vi.fn();
    alert.subscribe(listener);
    alert.info('first');
    vi.advanceTimersByTime(2000);
    alert.show('second', 'warning', { loader: true });
    expect(alert.getState()).toMatchObject({ text: 'second', type: 'warning', loader: true, progress: 100 });
    vi.advanceTimersByTime(4999);
    expect(alert.getState().active).toBe(true);
    vi.advanceTimersByTime(1);
    expect(alert.getState().active).toBe(false);
    expect(listener).toHaveBeenCalled();
  });

  it('dismisses immediately', () => {
    const alert = createAlertApi();
    alert.success('ok');
    alert.dismiss();
    expect(alert.getState().active).toBe(false);
    vi.advanceTimersByTime(1000);
    expect(alert.getState().progress).toBe(0);
  });
});
