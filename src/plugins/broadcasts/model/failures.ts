/**
 * A failed or excluded recipient's reason in words a person understands. Meta's error codes
 * (WhatsApp Cloud API "Error codes") and our own exclusion reasons map to translation keys under
 * `broadcasts.failure.*`; anything else falls back to Meta's own title with its code.
 */
export const KNOWN_META_ERRORS = [
  100, 368, 130429, 130472, 131000, 131005, 131008, 131009, 131016, 131021, 131026, 131031, 131042, 131045, 131047, 131048,
  131049, 131050, 131051, 131052, 131053, 131056, 132000, 132001, 132005, 132007, 132012, 132015, 132016, 133010,
] as const;

/** Our own reasons a recipient was excluded or ended without a Meta answer. */
export const OWN_REASONS = ['opted_out', 'blocked', 'duplicate', 'invalid_number', 'over_limit', 'unknown', 'cancelled'] as const;
export type OwnReason = (typeof OWN_REASONS)[number];

export interface FailureInput {
  /** Meta's numeric code (a string of digits is accepted too). */
  code?: number | string | null;
  /** Our reason key, or Meta's message title. */
  reason?: string | null;
  title?: string | null;
}

type Translate = (key: string, options?: Record<string, unknown>) => string;

function codeOf(input: FailureInput): number | null {
  const raw = input.code ?? (input.reason && /^\d+$/.test(input.reason) ? input.reason : null);
  if (raw === null || raw === undefined || raw === '') return null;
  const n = Number(raw);
  return Number.isFinite(n) ? n : null;
}

/** The translation key for a failure, or null when it is not one we word ourselves. */
export function failureKey(input: FailureInput): string | null {
  const code = codeOf(input);
  if (code !== null && (KNOWN_META_ERRORS as readonly number[]).includes(code)) return `broadcasts.failure.meta.${code}`;
  const reason = input.reason?.toLowerCase().trim().replace(/[\s-]+/g, '_');
  if (reason && (OWN_REASONS as readonly string[]).includes(reason)) return `broadcasts.failure.own.${reason}`;
  if (reason === 'opt_out' || reason === 'optout') return 'broadcasts.failure.own.opted_out';
  return null;
}

/** The sentence shown for a failure: ours when known, else Meta's title and code, else a generic one. */
export function describeFailure(input: FailureInput, t: Translate): string {
  const key = failureKey(input);
  if (key) return t(key);
  const code = codeOf(input);
  const title = input.title ?? (input.reason && !/^\d+$/.test(input.reason) ? input.reason : null);
  if (title && code !== null) return t('broadcasts.failure.withCode', { title, code });
  if (title) return title;
  if (code !== null) return t('broadcasts.failure.codeOnly', { code });
  return t('broadcasts.failure.generic');
}
