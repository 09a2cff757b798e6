/**
 * Serves the built console (Vite's dist) on the API's origin, with the SPA fallback:
 * a GET outside the server's own prefixes that matches no file gets index.html, so deep
 * links like /chats/42 load the app. Everything else unmatched is a JSON 404.
 * Source maps (vite.config.ts builds them 'hidden': no sourceMappingURL in the bundles) are kept
 * for an error tracker but served only in demo mode: they would hand anyone the original source.
 * The build writes `<file>.br` and `<file>.gz` beside each text asset (vite.config.ts precompress):
 * they are sent as they are to a browser that accepts them (brotli first), with `Vary: Accept-Encoding`.
 * Hashed files under assets/ are cached for a year (immutable); index.html is revalidated every time.
 * The SPA fallback adds, when the build wrote its route-preloads.json, a module preload of each chunk the path's first
 * load fetches after the entry (routePreloads.ts); that HTML (a few KB) is sent uncompressed.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { notFound, sendApiError } from './errors';
import { preloadsFor, routePreloadsReader, withPreloads } from './routePreloads';

/** Paths owned by the server, never answered with the console. */
const SERVER_PREFIXES = ['/api', '/account', '/dev', '/socket'];

function isServerPath(url: string): boolean {
  const pathname = url.split('?')[0];
  // Only paths below a prefix belong to the server: `/account` itself is the console's account page.
  return SERVER_PREFIXES.some((prefix) => pathname.startsWith(prefix + '/'));
}

function isSourceMap(url: string): boolean {
  return url.split('?')[0].toLowerCase().endsWith('.map');
}

/** Hashed bundles (Vite's assets/) never change under the same name; everything else is revalidated. */
export function cacheControl(filePath: string): string {
  const logical = filePath.replace(/\.(br|gz)$/, '');
  if (logical.endsWith('.html')) return 'no-cache';
  if (logical.includes(`${path.sep}assets${path.sep}`)) return 'public, max-age=31536000, immutable';
  return 'no-cache';
}

export const CONSOLE_NOT_BUILT = 'Console not built: run npm run build';

export interface ConsoleStaticOptions {
  /** Serve the bundles' `*.map` files (demo mode); otherwise they answer 404. */
  serveSourceMaps: boolean;
}

export async function registerConsoleStatic(app: FastifyInstance, staticDir: string, { serveSourceMaps }: ConsoleStaticOptions): Promise<void> {
  const indexFile = path.join(staticDir, 'index.html');
  const readPreloads = routePreloadsReader(staticDir);

  await app.register(fastifyStatic, {
    root: staticDir,
    // A missing dist is reported per request (503) instead of a start-up warning.
    suppressWarning: true,
    dotfiles: 'ignore',
    allowedPath: (pathName) => serveSourceMaps || !isSourceMap(pathName),
    preCompressed: true,
    setHeaders(reply, filePath) {
      reply.header('cache-control', cacheControl(filePath));
    },
  });

  app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
    // A refused source map is a 404, not the console's index.html.
    const wantsConsole = (request.method === 'GET' || request.method === 'HEAD') && !isServerPath(request.url) && !isSourceMap(request.url);
    if (!wantsConsole) return sendApiError(reply, notFound());
    // Checked per request so a build made while the server runs is picked up.
    if (!existsSync(indexFile)) {
      return reply.code(503).type('text/plain; charset=utf-8').send(CONSOLE_NOT_BUILT);
    }
    const built = readPreloads();
    if (built) {
      const html = withPreloads(built.html, preloadsFor(built.manifest, request.url.split('?')[0]));
      return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(html);
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}
