import { firstErrorMessage } from '../../../contract/errors';

/**
 * Spec §8: "the first message of the first field of the error body, or the raw error".
 * Works with the core's HttpError (which carries `body`) and with plain errors.
 */
export function errorText(error: unknown, fallback?: string): string {
  const body = (error as { body?: unknown } | null)?.body;
  const fromBody = firstErrorMessage(body);
  if (fromBody) return fromBody;
  if (error instanceof Error && error.message) return error.message;
  return firstErrorMessage(error) ?? fallback ?? String(error);
}

/** The error body of a failed call, when the error carries one. */
export function errorBody(error: unknown): unknown {
  return (error as { body?: unknown } | null)?.body;
}
