/**
 * Errors of the flow calls: the bot service's body (the bots plugin's botServiceErrors.ts) plus
 * `error` and `message` from its first error, so the console composes spec §8's alert
 * ('Error ' + error + '(' + message + ')', contract/flows.ts flowErrorMessage).
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { FlowErrorBody } from '../../../contract/flows';
import { ApiError } from '../../core/errors';
import { titleOf, toBotServiceBody } from '../bots';

export function toFlowErrorBody(error: ApiError): FlowErrorBody {
  const { errors } = toBotServiceBody(error);
  const first = errors[0];
  return { errors, error: first.title, message: first.detail };
}

export function flowErrorHandler(error: FastifyError | ApiError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error instanceof ApiError) {
    reply.code(error.statusCode).headers(error.headers);
    return reply.send(toFlowErrorBody(error));
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    const title = titleOf(status);
    return reply.code(status).send({ errors: [{ status: String(status), code: error.code ?? 'bad_request', title, detail: error.message }], error: title, message: error.message } satisfies FlowErrorBody);
  }
  request.log.error({ err: error }, 'unhandled error');
  return reply.code(500).send({ errors: [{ status: '500', code: 'internal', title: titleOf(500), detail: 'Internal server error' }], error: titleOf(500), message: 'Internal server error' } satisfies FlowErrorBody);
}
