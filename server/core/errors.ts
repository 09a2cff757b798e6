/**
 * Every error the API answers has the contract's shape (contract/errors.ts):
 * field errors `{ "field": ["message"] }` with 400, anything else `{ detail, code }`.
 * One error handler maps thrown ApiErrors, request-schema failures and Fastify's own
 * errors to that shape; unknown errors become a logged 500 without internals.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifySchemaCompiler } from 'fastify';
import type { ZodType, z } from 'zod';
import type { ApiErrorBody, FieldErrors } from '../../contract/errors';
import { findRefusedText, type TextCheck } from './input/textWalk';

export class ApiError extends Error {
  readonly statusCode: number;
  readonly body: ApiErrorBody;
  readonly headers: Record<string, string>;

  constructor(statusCode: number, body: ApiErrorBody, headers: Record<string, string> = {}) {
    super('detail' in body && typeof body.detail === 'string' ? body.detail : 'Invalid input.');
    this.name = 'ApiError';
    this.statusCode = statusCode;
    this.body = body;
    this.headers = headers;
  }
}

export const NON_FIELD_ERRORS = 'non_field_errors';

export function validationError(fields: FieldErrors): ApiError {
  return new ApiError(400, fields);
}

/** One message on one field, the common case. */
export function fieldError(field: string, message: string): ApiError {
  return validationError({ [field]: [message] });
}

export function badRequest(detail: string, code = 'bad_request'): ApiError {
  return new ApiError(400, { detail, code });
}

export function unauthorized(detail = 'Authentication credentials were not provided.', code = 'not_authenticated'): ApiError {
  // Like DRF, a 401 names the scheme the client should use.
  return new ApiError(401, { detail, code }, { 'www-authenticate': 'Bearer realm="api"' });
}

export function forbidden(detail = 'You do not have permission to perform this action.', code = 'permission_denied'): ApiError {
  return new ApiError(403, { detail, code });
}

export function notFound(detail = 'Not found.', code = 'not_found'): ApiError {
  return new ApiError(404, { detail, code });
}

export function throttled(retryAfterSeconds: number): ApiError {
  return new ApiError(
    429,
    { detail: 'Too many attempts. Please try again later.', code: 'throttled' },
    { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
  );
}

/** A zod issue path as a field name: `email`, `message.client_id`, `invites.0.email`; `non_field_errors` for the root. */
export function fieldPath(path: readonly PropertyKey[]): string {
  return path.length > 0 ? path.map((key) => (typeof key === 'symbol' ? (key.description ?? '') : String(key))).join('.') : NON_FIELD_ERRORS;
}

/**
 * Zod issues → field errors keyed by the dotted path of the field (top-level fields keep their plain
 * names, so the console's `firstErrorMessage`/`fieldErrorMessage` read them as before).
 */
export function zodFieldErrors(error: z.ZodError): FieldErrors {
  const fields: FieldErrors = {};
  for (const issue of error.issues) {
    const key = fieldPath(issue.path);
    const missing = issue.code === 'invalid_type' && (issue as { input?: unknown }).input === undefined;
    const message = missing ? 'This field is required.' : issue.message;
    (fields[key] ??= []).push(message);
  }
  return fields;
}

/**
 * Route schemas are zod schemas (`schema: { body: LoginBody }`). The parsed value
 * (trimmed, lower-cased, defaults applied) replaces the request part.
 */
export const zodValidatorCompiler: FastifySchemaCompiler<ZodType> = ({ schema, httpPart }) => {
  return (data: unknown) => {
    // Fastify passes null for a missing body; treat it as an empty form so each
    // required field reports "This field is required." as the console expects.
    const input = data === null && httpPart === 'body' ? {} : data;
    const result = parseFields(schema, input);
    if (result.ok) return { value: result.value };
    return { error: validationError(result.fields) };
  };
};

export const MALFORMED_TEXT_MESSAGE = 'This field contains invalid characters.';

/** An unpaired UTF-16 surrogate: not Unicode text, and PostgreSQL refuses it (found by the fuzz tests as a 500). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Lone surrogates in strings and keys, looked into every object but dates (parsed data); a key's spelled with U+FFFD. */
const MALFORMED_TEXT_CHECK: TextCheck = {
  refuses: (text) => LONE_SURROGATE.test(text),
  looksInto: (value): value is Record<string, unknown> => value !== null && typeof value === 'object' && !(value instanceof Date),
  printKey: (key) => key.replace(LONE_SURROGATE, '\uFFFD'),
  rootField: NON_FIELD_ERRORS,
};

/** The first top-level field holding an object whose `length` is not a number (what trips zod's length checks). */
function fieldWithOddLength(input: unknown): string {
  const odd = (v: unknown, depth = 0): boolean =>
    depth < 20 && typeof v === 'object' && v !== null && (('length' in v && typeof (v as { length: unknown }).length !== 'number') || Object.values(v).some((x) => odd(x, depth + 1)));
  if (typeof input === 'object' && input !== null && !Array.isArray(input)) {
    for (const [key, value] of Object.entries(input)) if (odd(value)) return key;
  }
  return NON_FIELD_ERRORS;
}

/**
 * schema.safeParse that never throws on hostile input: zod v4's length checks still run after a type
 * mismatch on anything with a `length`, and `{"name": {"length": {"toString": 1}}}` makes them throw a
 * TypeError (found by the fuzz tests). That is a 400 on the field, not a 500 (and not a crashed socket channel).
 */
export function parseFields<S extends ZodType>(schema: S, input: unknown): { ok: true; value: z.infer<S> } | { ok: false; fields: FieldErrors } {
  try {
    const result = schema.safeParse(input);
    if (!result.success) return { ok: false, fields: zodFieldErrors(result.error) };
    const malformed = findRefusedText(result.data, MALFORMED_TEXT_CHECK);
    return malformed === null ? { ok: true, value: result.data } : { ok: false, fields: { [malformed]: [MALFORMED_TEXT_MESSAGE] } };
  } catch (err) {
    if (!(err instanceof TypeError)) throw err;
    return { ok: false, fields: { [fieldWithOddLength(input)]: ['Invalid input.'] } };
  }
}

function fastifyErrorCode(error: FastifyError): string {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'unsupported_media_type';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'payload_too_large';
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return 'parse_error';
    default:
      return error.statusCode === 404 ? 'not_found' : 'bad_request';
  }
}

export function sendApiError(reply: FastifyReply, error: ApiError): FastifyReply {
  reply.code(error.statusCode).headers(error.headers);
  return reply.send(error.body);
}

/** The body of every unexpected failure: nothing of its cause reaches the client (it is logged instead). */
export const INTERNAL_ERROR = { detail: 'Internal server error', code: 'internal' } as const;

export function registerErrorHandling(app: FastifyInstance): void {
  app.setValidatorCompiler(zodValidatorCompiler);

  app.setErrorHandler((error: FastifyError | ApiError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof ApiError) return sendApiError(reply, error);

    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors (bad JSON, wrong content type, body too large): their messages are safe.
      return reply.code(status).send({ detail: error.message, code: fastifyErrorCode(error) });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send(INTERNAL_ERROR);
  });
}
