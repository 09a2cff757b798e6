/**
 * Meta's error JSON → GraphApiError: which errors are worth retrying, and the wording an agent
 * or admin reads for the common WhatsApp/Messenger codes (Meta's own messages are terse, e.g.
 * "(#131047) Re-engagement message").
 */
import { GraphApiError } from './types';
import { redactSecrets } from './upstreamErrors';

/** `{ error: {...} }` as the Graph API answers it. */
export interface GraphErrorBody {
  message?: string;
  type?: string;
  code?: number;
  error_subcode?: number;
  error_user_msg?: string;
  error_data?: { details?: string; messaging_product?: string } | string;
  fbtrace_id?: string;
}

/** Throughput (130429), pair rate limit (131056), WABA rate limit (80007), app/user rate limits (4, 613). */
const RETRYABLE_CODES = new Set([130429, 131056, 80007, 4, 613, 17, 32]);

/** Whose token failed, for the wording of code 190. */
export type TokenKind = 'channel' | 'user';

function details(error: GraphErrorBody): string | null {
  if (typeof error.error_data === 'string') return error.error_data || null;
  return error.error_data?.details || null;
}

function productMessage(error: GraphErrorBody, tokenKind: TokenKind): string {
  const meta = details(error) ?? error.error_user_msg ?? error.message ?? 'Unknown Graph API error';
  switch (error.code) {
    case 131047:
      return 'More than 24 hours have passed since the customer last wrote: only an approved template can be sent now.';
    case 131026:
      return 'The message could not be delivered: the number may not be on WhatsApp, or the customer has not accepted the latest WhatsApp terms.';
    case 131051:
      return 'WhatsApp does not support this message type.';
    case 132000:
      return "The number of template parameters does not match the template's placeholders.";
    case 132001:
      return 'The template does not exist in this language, or is not approved yet.';
    case 131009:
      return `A parameter of the message is invalid: ${meta}`;
    case 130429:
      return "WhatsApp's throughput limit for this number was reached; the message will be retried.";
    case 131056:
      return 'Too many messages were sent to this customer in a short time; the message will be retried.';
    case 80007:
      return "The WhatsApp Business Account's rate limit was reached; the message will be retried.";
    case 4:
    case 17:
    case 32:
    case 613:
      return "Meta's API rate limit was reached; try again in a few minutes.";
    case 190:
      return tokenKind === 'channel'
        ? "The channel's access token has expired or was revoked; reconnect the channel."
        : 'The Facebook access token has expired or is invalid; sign in with Facebook again.';
    case 10:
      if (error.error_subcode === 2018278) return 'The message was sent outside the 24-hour window in which the page may reply.';
      return `The app lacks a permission for this action: ${meta}`;
    case 200:
      return `The app lacks a permission for this action: ${meta}`;
    case 100:
      if (error.error_subcode === 2018001) return 'The recipient cannot be found: they may have deleted the conversation or blocked the page.';
      return meta;
    default:
      return meta;
  }
}

/** Seconds (Retry-After as Meta and proxies send it) → ms; HTTP dates too. */
export function parseRetryAfter(header: string | null): number | null {
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

/** An error answer of the Graph API (HTTP status plus its body, parsed or not). */
export function graphApiError(httpStatus: number, body: unknown, retryAfterHeader: string | null, tokenKind: TokenKind): GraphApiError {
  const error = (body as { error?: GraphErrorBody } | null)?.error;
  const retryAfterMs = parseRetryAfter(retryAfterHeader);
  const statusRetryable = httpStatus === 429 || httpStatus >= 500;
  if (!error || typeof error !== 'object') {
    return new GraphApiError(`Meta answered HTTP ${httpStatus}.`, httpStatus, null, null, statusRetryable, retryAfterMs);
  }
  const code = typeof error.code === 'number' ? error.code : null;
  const subcode = typeof error.error_subcode === 'number' ? error.error_subcode : null;
  const retryable = statusRetryable || (code !== null && RETRYABLE_CODES.has(code));
  return new GraphApiError(productMessage(error, tokenKind), httpStatus, code, subcode, retryable, retryAfterMs);
}

/**
 * Meta could not be reached or did not answer in time: always worth another attempt. The message is
 * fixed (it reaches agents and API callers); the cause (whose text may quote a request header, i.e. the
 * token) is kept as `detail` for the log, with the call's secrets redacted.
 */
export function networkError(cause: unknown, secrets: readonly (string | null | undefined)[] = []): GraphApiError {
  const timedOut = cause instanceof Error && (cause.name === 'TimeoutError' || cause.name === 'AbortError');
  const reason = timedOut ? 'Meta did not answer in time' : 'Meta could not be reached';
  const error = new GraphApiError(`${reason}; try again later.`, 0, null, null, true);
  const detail = redactSecrets(cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause), secrets);
  return Object.assign(error, { detail });
}
