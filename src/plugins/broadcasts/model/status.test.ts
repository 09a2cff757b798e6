import { describe, expect, it } from 'vitest';
import { BROADCAST_REPLY_WINDOW_MS } from '../../../../contract/broadcasts';
import { countersMayMove } from './status';

describe('countersMayMove', () => {
  const now = Date.parse('2026-11-29T12:00:00Z');
  it('is true while a broadcast runs', () => {
    expect(countersMayMove({ status: 'sending', completed_at: null }, now)).toBe(true);
    expect(countersMayMove({ status: 'paused' }, now)).toBe(true);
  });
  it('stays true for the reply window after the end: deliveries, reads and replies still come', () => {
    expect(countersMayMove({ status: 'completed', completed_at: new Date(now - 60_000).toISOString() }, now)).toBe(true);
    expect(countersMayMove({ status: 'cancelled', completed_at: null, cancelled_at: new Date(now - BROADCAST_REPLY_WINDOW_MS + 1000).toISOString() }, now)).toBe(true);
  });
  it('is false once the window is over, or when the end is unknown', () => {
    expect(countersMayMove({ status: 'completed', completed_at: new Date(now - BROADCAST_REPLY_WINDOW_MS).toISOString() }, now)).toBe(false);
    expect(countersMayMove({ status: 'completed', completed_at: null }, now)).toBe(false);
  });
});
