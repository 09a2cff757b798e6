/**
 * Input hardening for every route, registered once on the root instance (before the feature plugins,
 * so every route inherits it):
 * - the JSON body parser refuses a body nested deeper than MAX_JSON_DEPTH before parsing it, then
 *   parses with secure-json-parse (Fastify's own parser, which keeps `__proto__`/`constructor`
 *   poisoning refused);
 * - a preValidation hook refuses a NUL character in any text of the body, the querystring or the path
 *   parameters with a 400 naming the field (`{ "message.text": ["Null characters are not allowed."] }`).
 * Routes that take raw bodies (webhooks, uploads, the long-poll transport) register their own
 * parsers and see bytes or strings, which the NUL walk leaves alone.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import secureJson from 'secure-json-parse';
import { ApiError, validationError } from '../errors';
import { MAX_JSON_DEPTH, exceedsJsonDepth } from './jsonDepth';
import { NUL_MESSAGE, findNul } from './nul';

export { MAX_JSON_DEPTH, exceedsJsonDepth } from './jsonDepth';
export { NUL_MESSAGE, findNul, stripNul } from './nul';

export const TOO_DEEP = { detail: `The JSON is nested too deeply (at most ${MAX_JSON_DEPTH} levels).`, code: 'too_deep' } as const;
const EMPTY_JSON = { detail: "Body cannot be empty when content-type is set to 'application/json'", code: 'parse_error' } as const;
const INVALID_JSON = { detail: "Body is not valid JSON but content-type is set to 'application/json'", code: 'parse_error' } as const;

export class JsonTooDeepError extends Error {
  constructor() {
    super(TOO_DEEP.detail);
    this.name = 'JsonTooDeepError';
  }
}

/**
 * JSON text → value: refused (JsonTooDeepError) when nested deeper than MAX_JSON_DEPTH, then parsed
 * with secure-json-parse (`__proto__` and `constructor.prototype` keys throw). Throws SyntaxError on bad JSON.
 */
export function parseJsonSafely(text: string, maxDepth = MAX_JSON_DEPTH): unknown {
  if (exceedsJsonDepth(text, maxDepth)) throw new JsonTooDeepError();
  return secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
}

/** The field error of the first NUL in a request's body, querystring or params, if any. */
export function nulFieldErrors(request: Pick<FastifyRequest, 'body' | 'query' | 'params'>): Record<string, string[]> | null {
  for (const part of [request.params, request.query, request.body]) {
    const path = findNul(part);
    if (path !== null) return { [path]: [NUL_MESSAGE] };
  }
  return null;
}

export function registerInputHardening(app: FastifyInstance): void {
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = body as string;
    if (text.length === 0) return done(new ApiError(400, { ...EMPTY_JSON }), undefined);
    try {
      done(null, parseJsonSafely(text));
    } catch (err) {
      done(new ApiError(400, err instanceof JsonTooDeepError ? { ...TOO_DEEP } : { ...INVALID_JSON }), undefined);
    }
  });

  // Callback-style, as every hook each request runs: an async hook costs a promise and a turn of the microtask queue.
  app.addHook('preValidation', (request, _reply, done) => {
    const errors = nulFieldErrors(request);
    done(errors ? validationError(errors) : undefined);
  });
}
