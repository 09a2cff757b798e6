/**
 * The security headers of every answer (helmet's, with the console's Content-Security-Policy), worked out once
 * at start and set by one hook.
 *
 * Why not @fastify/helmet: in its global mode it builds helmet's middleware again for every request (parsing
 * the CSP directives each time), about 4 % of the server's CPU at 200 requests/s (bench/data, issue #26), for
 * headers that are the same on every answer here (no per-route helmet options, no CSP nonces).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/** The headers helmet's middleware sets with these options, by lower-case name. */
export function securityHeaders(options: Readonly<HelmetOptions>): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let failure: unknown;
  // helmet's middleware runs its parts one after the other, synchronously; an invalid option is reported to next().
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (err?: unknown) => {
    failure = err;
  });
  if (failure) throw failure;
  return headers;
}

/** Sets helmet's headers (worked out once) on every answer of `app`, before any route or error handler writes one. */
export function registerSecurityHeaders(app: FastifyInstance, options: Readonly<HelmetOptions>): void {
  const headers = securityHeaders(options);
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}
