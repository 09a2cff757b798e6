/**
 * What an upstream failure (Meta, Google) may tell the API's caller and the log: the caller gets fixed
 * wording (never our internal error text, never a token), the log gets the detail with every secret
 * of the call replaced by `[redacted]`.
 */
import { GraphApiError } from './types';

export const UPSTREAM_MESSAGES = {
  unavailable: 'Meta cannot be reached right now; try again in a few minutes.',
} as const;

const REDACTED = '[redacted]';

/** The text with each secret (and its URL-encoded form) replaced; secrets shorter than 4 characters are left (they would redact everything). */
export function redactSecrets(text: string, secrets: readonly (string | null | undefined)[]): string {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (!secret) continue;
    for (const form of [secret, secret.trim(), encodeURIComponent(secret)]) if (form.length >= 4) forms.add(form);
  }
  // Longest first: a secret's encoded form may contain the plain one.
  let out = text;
  for (const form of [...forms].sort((a, b) => b.length - a.length)) out = out.split(form).join(REDACTED);
  return out;
}

/** A loggable description of a failed upstream call, redacted. */
export function describeUpstreamError(err: unknown, secrets: readonly (string | null | undefined)[]): Record<string, unknown> {
  if (err instanceof GraphApiError) {
    const detail = (err as GraphApiError & { detail?: unknown }).detail;
    return {
      message: redactSecrets(err.message, secrets),
      httpStatus: err.httpStatus,
      code: err.code,
      subcode: err.subcode,
      retryable: err.retryable,
      ...(typeof detail === 'string' ? { detail: redactSecrets(detail, secrets) } : {}),
    };
  }
  return { message: redactSecrets(err instanceof Error ? `${err.name}: ${err.message}` : String(err), secrets) };
}
