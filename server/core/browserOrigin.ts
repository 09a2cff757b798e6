/**
 * The origin a browser is on, for links the server hands it that the page's CSP must allow (an upload
 * URL the console PUTs to: connect-src 'self'). A console opened at `http://127.0.0.1:3000` while
 * PUBLIC_URL says `http://localhost:3000` must get upload links on 127.0.0.1, or the browser blocks them.
 *
 * The request's Host (or, with TRUST_PROXY, X-Forwarded-Host: what `request.host` reads) is someone
 * else's words, so it is used only when it names this server itself:
 * - PUBLIC_URL's own host: PUBLIC_URL's origin (its scheme, which a TLS-terminating proxy hides from us);
 * - a loopback name (localhost, 127.x, [::1]) on any port: a browser on this machine, directly or through
 *   a local dev proxy. Such a link only ever reaches the one machine, whoever asked for it;
 * - anything else (`X-Forwarded-Host: evil.test`): PUBLIC_URL's origin, never the header's.
 */
import type { FastifyRequest } from 'fastify';
import { isLoopbackHost } from './config';

export function browserOrigin(request: Pick<FastifyRequest, 'host' | 'protocol'>, publicUrl: string): string {
  const own = new URL(publicUrl);
  let asked: URL;
  try {
    // `host` alone, never a path or credentials: anything URL parsing would read more into is refused.
    if (typeof request.host !== 'string' || !/^[a-z0-9.\-[\]:]+$/i.test(request.host)) return own.origin;
    // Parsed with PUBLIC_URL's scheme, so `console.example:443` and `console.example` are the same host.
    asked = new URL(`${own.protocol}//${request.host}`);
  } catch {
    return own.origin;
  }
  if (asked.host === own.host) return own.origin;
  if (isLoopbackHost(asked.hostname)) return `${request.protocol === 'https' ? 'https' : 'http'}://${request.host.toLowerCase()}`;
  return own.origin;
}
