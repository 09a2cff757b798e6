/**
 * The core onRoute hook: every route must declare an access rule (rules.ts). The hook puts the
 * rule's hooks first in the route's onRequest, records the route in the app's route table
 * (`app.routeAccess`, read by the generated isolation test), and throws at build time for a route
 * that declares none — so a forgotten rule fails `npm test` and the server's start alike.
 *
 * Routes registered by code we do not own (the console's static files from @fastify/static, the
 * local fakes under /dev) get theirs through `declareRoutes(app, match, rule)`, called before they
 * are registered. The not-found handler is not a route (Fastify runs no onRoute for it).
 */
import type { FastifyInstance, HTTPMethods, RouteOptions } from 'fastify';
import { describeRule, isAccessRule, type AccessRule } from './rules';

export interface RouteAccessEntry {
  method: string;
  url: string;
  access: AccessRule;
  /** The route's zod schemas (body, querystring, params), for the fuzz and isolation tests. */
  schema: RouteOptions['schema'];
}

/** Which routes a `declareRoutes` call covers: one exact URL, or everything below a prefix. */
export type RouteMatch = { url: string } | { prefix: string };

interface AccessState {
  table: RouteAccessEntry[];
  covered: { match: RouteMatch; rule: AccessRule }[];
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's access rule: `config: { access: access.company('members', 'view') }`. */
    access?: AccessRule;
  }
  interface FastifyInstance {
    /** Every route with its access rule, in registration order (HEAD twins of GET routes left out). */
    routeAccess: readonly RouteAccessEntry[];
  }
}

const STATE = Symbol('accessState');

function stateOf(app: FastifyInstance): AccessState {
  const state = (app as unknown as Record<symbol, AccessState | undefined>)[STATE];
  if (!state) throw new Error('registerAccessControl(app) must run before routes are declared');
  return state;
}

function matches(match: RouteMatch, url: string): boolean {
  if ('url' in match) return url === match.url;
  return url === match.prefix || url.startsWith(match.prefix.endsWith('/') ? match.prefix : `${match.prefix}/`);
}

function methodsOf(method: HTTPMethods | HTTPMethods[]): string[] {
  return (Array.isArray(method) ? method : [method]).map((m) => m.toUpperCase());
}

export class MissingAccessRuleError extends Error {
  constructor(method: string, url: string) {
    super(
      `${method} ${url} declares no access rule: add \`config: { access: access.company('<area>', 'view') }\` ` +
        `(or access.user(), access.public('why'), …; see docs/architecture.md, "Access rules and the generated isolation test")`,
    );
    this.name = 'MissingAccessRuleError';
  }
}

/** Installs the onRoute hook on the root instance; call it before any route is registered. */
export function registerAccessControl(app: FastifyInstance): void {
  const state: AccessState = { table: [], covered: [] };
  (app as unknown as Record<symbol, AccessState>)[STATE] = state;
  app.decorate('routeAccess', state.table);

  app.addHook('onRoute', (route) => {
    const methods = methodsOf(route.method);
    const declared = route.config?.access ?? state.covered.find((c) => matches(c.match, route.url))?.rule;
    if (declared === undefined) throw new MissingAccessRuleError(methods.join(','), route.url);
    if (!isAccessRule(declared)) throw new Error(`${methods.join(',')} ${route.url}: config.access must be built with access.*()`);

    route.config = { ...route.config, access: declared };
    // A new array (never mutate the given one: Fastify reuses the options for the HEAD twin of a GET).
    const own = route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
    route.onRequest = [...declared.hooks, ...own] as RouteOptions['onRequest'];

    for (const method of methods) {
      // The HEAD twin Fastify adds for each GET runs the same hooks; the table lists the GET only.
      if (method === 'HEAD' && (methods.includes('GET') || state.table.some((e) => e.method === 'GET' && e.url === route.url))) continue;
      state.table.push({ method, url: route.url, access: declared, schema: route.schema });
    }
  });
}

/** Declares the rule of routes registered by code that cannot name one itself (static files, the fakes). */
export function declareRoutes(app: FastifyInstance, match: RouteMatch, rule: AccessRule): void {
  if (!isAccessRule(rule)) throw new Error('declareRoutes: the rule must be built with access.*()');
  stateOf(app).covered.push({ match, rule });
}

/** One line per route, e.g. `GET /api/members/  company(members, view)` (for logs and failure messages). */
export function formatRouteTable(table: readonly RouteAccessEntry[]): string {
  return table.map((e) => `${e.method.padEnd(7)} ${e.url}  ${describeRule(e.access)}`).join('\n');
}
