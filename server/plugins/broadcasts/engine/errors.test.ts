/** Meta's send errors → what the engine does; recipient transitions → counters; opt-out keywords. */
import { describe, expect, it } from 'vitest';
import { GraphApiError } from '../../../providers/meta/types';
import { graphApiError, networkError } from '../../../providers/meta/graphErrors';
import { classifySendError, throttleBackoffMs, transientBackoffMs } from './errors';
import { deltaOf, ZERO_DELTA } from './funnel';
import { errorCodeOf, isOptOutMessage } from './events';

const meta = (status: number, code: number, retryAfter: string | null = null) =>
  graphApiError(status, { error: { message: `(#${code}) x`, code, type: 'OAuthException' } }, retryAfter, 'channel');

describe('send error classification', () => {
  it.each([
    [400, 130429, 'throttle'],
    [400, 80007, 'throttle'],
    [400, 131056, 'pair'],
    [400, 131048, 'final'],
    [400, 131049, 'final'],
    [400, 131026, 'final'],
    [400, 100, 'final'],
    [400, 131050, 'opt_out'],
    [401, 190, 'halt'],
    [400, 132001, 'halt'],
    [500, 131000, 'transient'],
    [503, 1, 'transient'],
    [500, 2, 'transient'],
  ] as const)('HTTP %i code %i → %s', (status, code, kind) => {
    expect(classifySendError(meta(status, code)).kind).toBe(kind);
  });

  it('5xx without a body is transient; HTTP 429 throttles', () => {
    expect(classifySendError(graphApiError(502, null, null, 'channel')).kind).toBe('transient');
    expect(classifySendError(graphApiError(429, null, '3', 'channel')).kind).toBe('throttle');
  });

  it('a timeout may have reached Meta: unknown, never resent; a refused connection is transient', () => {
    const timeout = Object.assign(new Error('t'), { name: 'TimeoutError' });
    expect(classifySendError(networkError(timeout)).kind).toBe('unknown');
    expect(classifySendError(networkError(new Error('connect ECONNREFUSED'))).kind).toBe('transient');
  });

  it('final failures carry a reason a person understands', () => {
    expect(classifySendError(meta(400, 131048)).reason).toMatch(/spam rate limit/);
    expect(classifySendError(meta(400, 131049)).reason).toMatch(/marketing/);
  });

  it('back-off grows and is bounded; Retry-After wins when longer', () => {
    expect([1, 2, 3, 10].map(transientBackoffMs)).toEqual([1000, 2000, 4000, 60000]);
    expect(throttleBackoffMs(1, null)).toBe(1000);
    expect(throttleBackoffMs(1, 5000)).toBe(5000);
    expect(throttleBackoffMs(20, null)).toBe(60000);
  });

  it('anything else is retried as transient', () => {
    expect(classifySendError(new Error('boom')).kind).toBe('transient');
    expect(classifySendError(new GraphApiError('x', 400, 999999)).kind).toBe('final');
  });
});

describe('recipient transitions', () => {
  it('moves forward along the funnel, cumulatively', () => {
    expect(deltaOf('sending', 'sent')).toEqual({ ...ZERO_DELTA, queued: -1, sent: 1 });
    expect(deltaOf('sent', 'read')).toEqual({ ...ZERO_DELTA, delivered: 1, read: 1 });
    expect(deltaOf('delivered', 'replied')).toEqual({ ...ZERO_DELTA, read: 1, replied: 1 });
    expect(deltaOf('sending', 'unknown')).toEqual({ ...ZERO_DELTA, queued: -1, unknown: 1 });
  });

  it('ignores replays and out-of-order statuses', () => {
    expect(deltaOf('read', 'delivered')).toEqual(ZERO_DELTA);
    expect(deltaOf('delivered', 'delivered')).toEqual(ZERO_DELTA);
    expect(deltaOf('read', 'sent')).toEqual(ZERO_DELTA);
    expect(deltaOf('failed', 'delivered')).toEqual(ZERO_DELTA);
    expect(deltaOf('unknown', 'sent')).toEqual(ZERO_DELTA);
  });

  it('a failure after acceptance replaces sent; not after delivery', () => {
    expect(deltaOf('sent', 'failed')).toEqual({ ...ZERO_DELTA, sent: -1, failed: 1 });
    expect(deltaOf('delivered', 'failed')).toEqual(ZERO_DELTA);
  });
});

describe('opt-out messages', () => {
  it('STOP and configured keywords, as the whole message', () => {
    expect(isOptOutMessage('stop', null)).toBe(true);
    expect(isOptOutMessage(' Stop! ', null)).toBe(true);
    expect(isOptOutMessage('please stop sending me this', null)).toBe(false);
    expect(isOptOutMessage('basta', { opt_out_keywords: ['BASTA'] })).toBe(true);
    expect(isOptOutMessage(null, null)).toBe(false);
  });

  it('reads the code at the end of a status error', () => {
    expect(errorCodeOf('User opted out: stop (131050)')).toBe(131050);
    expect(errorCodeOf('no code')).toBeNull();
  });
});
