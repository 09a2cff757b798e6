/**
 * Spec §5/§8: bot-service errors read 'Error {status} : {title} {detail}' from the first server error
 * (contract/bots.ts botServiceErrorMessage). A main-API error body (field errors, `{detail}`) or a
 * network failure gives its own message instead.
 */
import { botServiceErrorMessage, firstBotServiceError } from '../../../../contract/bots';
import { firstErrorMessage } from '../../../../contract/errors';

/** 'Error {status} : {title} {detail}' when the error carries a bot-service error, else undefined. */
export function formatBotError(error: unknown): string | undefined {
  const status = (error as { status?: number } | null)?.status;
  const body = (error as { body?: unknown } | null)?.body;
  if (firstBotServiceError(body)) return botServiceErrorMessage(status ?? 0, body);
  return undefined;
}

/** The `{error}` of the spec's alerts: the formatted bot-service error, else the server's first message, else the error's text. */
export function botErrorText(error: unknown): string {
  const formatted = formatBotError(error);
  if (formatted) return formatted;
  const fromBody = firstErrorMessage((error as { body?: unknown } | null)?.body);
  if (fromBody) return fromBody;
  return error instanceof Error ? error.message : String(error);
}

/** Bot creation failure (spec §5): the formatted first server error, or 'Error while creating bot'. */
export function botCreationError(error: unknown): string {
  const status = (error as { status?: number } | null)?.status ?? 0;
  return botServiceErrorMessage(status, (error as { body?: unknown } | null)?.body);
}
