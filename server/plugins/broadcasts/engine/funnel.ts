/**
 * Recipient state transitions and what they do to the broadcast's counters. Counters are
 * cumulative along the funnel (contract/broadcasts.ts): a recipient in `read` counts in sent,
 * delivered and read. A transition only moves forward (RECIPIENT_STATE_RANK): out-of-order and
 * replayed webhooks change nothing; `failed` may still replace sent (Meta reports some failures,
 * e.g. 131049 or 131026, in a status webhook after accepting the message).
 */
import { RECIPIENT_STATE_RANK, type RecipientState } from '../../../../contract/broadcasts';

export interface CounterDelta {
  queued: number;
  sent: number;
  delivered: number;
  read: number;
  replied: number;
  failed: number;
  unknown: number;
}

export const ZERO_DELTA: CounterDelta = { queued: 0, sent: 0, delivered: 0, read: 0, replied: 0, failed: 0, unknown: 0 };

const FUNNEL = ['sent', 'delivered', 'read', 'replied'] as const;

/** Is `to` a move forward from `from`? */
export function advances(from: RecipientState, to: RecipientState): boolean {
  if (from === 'excluded' || from === 'unknown') return false;
  if (to === 'failed') return from === 'queued' || from === 'sending' || from === 'sent';
  if (from === 'failed') return false;
  return RECIPIENT_STATE_RANK[to] > RECIPIENT_STATE_RANK[from];
}

/** What one recipient's move from → to changes in the counters (zero when it is not a move forward). */
export function deltaOf(from: RecipientState, to: RecipientState): CounterDelta {
  const delta = { ...ZERO_DELTA };
  if (!advances(from, to)) return delta;
  const pending = (s: RecipientState) => s === 'queued' || s === 'sending';
  if (pending(from) && !pending(to)) delta.queued -= 1;
  for (const level of FUNNEL) {
    const rank = RECIPIENT_STATE_RANK[level];
    const had = from !== 'failed' && RECIPIENT_STATE_RANK[from] >= rank && RECIPIENT_STATE_RANK[from] >= RECIPIENT_STATE_RANK.sent;
    const has = to !== 'failed' && to !== 'unknown' && RECIPIENT_STATE_RANK[to] >= rank;
    if (!had && has) delta[level] += 1;
    if (had && !has) delta[level] -= 1;
  }
  if (to === 'failed') delta.failed += 1;
  if (to === 'unknown') delta.unknown += 1;
  return delta;
}

export function addDelta(a: CounterDelta, b: CounterDelta): CounterDelta {
  return {
    queued: a.queued + b.queued,
    sent: a.sent + b.sent,
    delivered: a.delivered + b.delivered,
    read: a.read + b.read,
    replied: a.replied + b.replied,
    failed: a.failed + b.failed,
    unknown: a.unknown + b.unknown,
  };
}

export function isZero(d: CounterDelta): boolean {
  return Object.values(d).every((v) => v === 0);
}
