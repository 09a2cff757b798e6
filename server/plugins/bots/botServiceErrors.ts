/**
 * Errors of the bot service in the shape the console reads (contract/bots.ts BotServiceErrorBody):
 * `{errors: [{status, code, title, detail, source?: {pointer}, step?}]}`, the console showing
 * 'Error {status} : {title} {detail}' of the first one (spec §5). The same ApiErrors the rest of the
 * server throws, only dressed differently: field errors become one error per message with a JSON
 * pointer (`steps.0.next_step_id` → `/steps/0/next_step_id`), title "Invalid <field>".
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { BotServiceError, BotServiceErrorBody } from '../../../contract/bots';
import { ApiError, NON_FIELD_ERRORS } from '../../core/errors';
import { BotGraphError } from './service';

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

const CODE_TITLES: Record<string, string> = {
  generation_failed: 'Operation',
  not_authenticated: 'Unauthorized',
  invalid_bot_key: 'Unauthorized',
};

export function titleOf(status: number): string {
  return TITLES[status] ?? (status >= 500 ? 'Server Error' : 'Error');
}

/** An ApiError as the bot service's error body. */
export function toBotServiceBody(error: ApiError): BotServiceErrorBody {
  const status = String(error.statusCode);
  const body = error.body as Record<string, unknown>;
  if (typeof body.detail === 'string') {
    const code = typeof body.code === 'string' ? body.code : 'error';
    const out: BotServiceError = { status, code, title: error instanceof BotGraphError ? 'Invalid bot graph' : (CODE_TITLES[code] ?? titleOf(error.statusCode)), detail: body.detail };
    if (error instanceof BotGraphError) out.step = error.step;
    return { errors: [out] };
  }
  const errors: BotServiceError[] = [];
  for (const [field, messages] of Object.entries(body)) {
    for (const message of Array.isArray(messages) ? messages : [String(messages)]) {
      errors.push({
        status,
        code: 'invalid',
        title: field === NON_FIELD_ERRORS ? 'Invalid input' : `Invalid ${field}`,
        detail: String(message),
        source: { pointer: field === NON_FIELD_ERRORS ? '' : `/${field.split('.').join('/')}` },
      });
    }
  }
  if (errors.length === 0) errors.push({ status, code: 'invalid', title: 'Invalid input', detail: 'Invalid input.' });
  return { errors };
}

/** The error handler of the bot-service routes (their own encapsulated context). */
export function botServiceErrorHandler(error: FastifyError | ApiError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error instanceof ApiError) {
    reply.code(error.statusCode).headers(error.headers);
    return reply.send(toBotServiceBody(error));
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    return reply.code(status).send({ errors: [{ status: String(status), code: error.code ?? 'bad_request', title: titleOf(status), detail: error.message }] } satisfies BotServiceErrorBody);
  }
  request.log.error({ err: error }, 'unhandled error');
  return reply.code(500).send({ errors: [{ status: '500', code: 'internal', title: titleOf(500), detail: 'Internal server error' }] } satisfies BotServiceErrorBody);
}
