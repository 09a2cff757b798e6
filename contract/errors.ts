/**
 * The one error body shape the server answers with, and how the console turns it into the
 * spec's messages. Field errors follow the REST convention the spec's messages are built from
 * ("the first message of the first field of the error body"): `{ "email": ["…"] }`.
 * Errors that concern no field carry `detail` (and a machine-readable `code`).
 */
export type FieldErrors = Record<string, string[]>;
export type ApiErrorBody = FieldErrors | { detail: string; code?: string };

/** First message of the first field of an error body; `undefined` when the body carries none. */
export function firstErrorMessage(body: unknown): string | undefined {
  if (body == null) return undefined;
  if (typeof body === 'string') return body || undefined;
  if (Array.isArray(body)) return firstErrorMessage(body[0]);
  if (typeof body === 'object') {
    for (const value of Object.values(body as Record<string, unknown>)) {
      const msg = firstErrorMessage(value);
      if (msg) return msg;
    }
  }
  return undefined;
}

/** First message of a named field, e.g. `new_password2` for password change errors. */
export function fieldErrorMessage(body: unknown, field: string): string | undefined {
  if (body && typeof body === 'object' && field in (body as object)) {
    return firstErrorMessage((body as Record<string, unknown>)[field]);
  }
  return undefined;
}
