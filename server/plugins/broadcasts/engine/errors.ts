/**
 * What a failed send means for a broadcast, following Meta's error codes
 * (developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes):
 *   throttle  130429 (throughput), 80007 (WABA rate), 4 / 613 (app rate), HTTP 429:
 *             the number backs off, the recipient is tried again (no attempt lost);
 *   pair      131056 (pair rate: about one message per 6 s to one user): that recipient only waits;
 *   transient 5xx, 1 / 2 (unknown, service), 131000 (something went wrong), 131016 (service
 *             unavailable), connection refused: retried with back-off a bounded number of times;
 *   opt_out   131050 (the user stopped marketing messages): final failure, and the opt-out list;
 *   unknown   the request may have reached Meta (timed out): never resent, reported "unknown";
 *   halt      the whole broadcast cannot go on (token, template, account): it is paused with the reason;
 *   final     everything else for this recipient (131048 spam rate limit, 131049 marketing limit,
 *             131026 undeliverable, invalid numbers…): failed with Meta's reason.
 */
import { GraphApiError } from '../../../providers/meta/types';

export type ErrorClass = 'throttle' | 'pair' | 'transient' | 'opt_out' | 'unknown' | 'halt' | 'final';

export interface Classified {
  kind: ErrorClass;
  /** Meta's code when there is one. */
  code: number | null;
  /** Words for the report. */
  reason: string;
}

const THROTTLE = new Set([130429, 80007, 4, 613, 17, 32]);
const TRANSIENT = new Set([1, 2, 131000, 131016, 133004]);
/** The account, the token or the template: nothing in this broadcast can be sent until fixed. */
const HALT = new Set([190, 10, 200, 132000, 132001, 132005, 132007, 132012, 132015, 132016, 133010, 131031, 131042, 368]);

export const FINAL_REASONS: Record<number, string> = {
  131048: 'Meta refused the message: spam rate limit reached for this number (131048).',
  131049: "Meta did not deliver this marketing message to keep the ecosystem healthy (per-user marketing limit) (131049).",
  131050: 'The customer has stopped marketing messages from this business (131050).',
  131026: 'The message could not be delivered: the number may not be on WhatsApp (131026).',
  131021: 'The recipient cannot be the sender (131021).',
  131030: 'The recipient number is not in the allowed list of a test number (131030).',
  131008: 'A required parameter is missing (131008).',
  131009: 'A parameter value is invalid (131009).',
  100: 'Invalid parameter (100).',
};

export function classifySendError(err: unknown): Classified {
  if (!(err instanceof GraphApiError)) return { kind: 'transient', code: null, reason: err instanceof Error ? err.message : String(err) };
  const code = err.code;
  if (code !== null && THROTTLE.has(code)) return { kind: 'throttle', code, reason: err.message };
  if (code === 131056) return { kind: 'pair', code, reason: err.message };
  if (code === 131050) return { kind: 'opt_out', code, reason: FINAL_REASONS[131050] };
  if (code !== null && HALT.has(code)) return { kind: 'halt', code, reason: err.message };
  if (code !== null && TRANSIENT.has(code)) return { kind: 'transient', code, reason: err.message };
  if (err.httpStatus === 429) return { kind: 'throttle', code, reason: err.message };
  if (err.httpStatus === 0) {
    // A timeout may have reached Meta (the Cloud API has no idempotency key): never resent.
    if (/in time/.test(err.message)) return { kind: 'unknown', code, reason: err.message };
    return { kind: 'transient', code, reason: err.message };
  }
  if (err.httpStatus >= 500 && code === null) return { kind: 'transient', code, reason: err.message };
  if (err.httpStatus >= 500 && code !== null && !FINAL_REASONS[code]) return { kind: 'transient', code, reason: err.message };
  return { kind: 'final', code, reason: (code !== null && FINAL_REASONS[code]) || err.message };
}

/** Back-off before retry number `attempt` (1-based) of a transient error: 1 s, 2 s, 4 s… capped at 60 s. */
export function transientBackoffMs(attempt: number): number {
  return Math.min(60_000, 1000 * 2 ** Math.max(0, attempt - 1));
}

/** How long the number pauses after its n-th throttle in a row: 1 s, 2 s, 4 s… capped at 60 s (or Meta's Retry-After). */
export function throttleBackoffMs(streak: number, retryAfterMs: number | null): number {
  return Math.max(retryAfterMs ?? 0, Math.min(60_000, 1000 * 2 ** Math.max(0, streak - 1)));
}

/** Meta's guidance for 131056: about one message every 6 seconds to the same user. */
export const PAIR_RATE_DELAY_MS = 6_000;
/** Attempts of one recipient before a transient error is final. */
export const MAX_TRANSIENT_ATTEMPTS = 5;
