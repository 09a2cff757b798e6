/**
 * The generated OpenAPI 3.1 documents (issue #14, /resources): one of the main API, served at
 * GET /api/openapi.json, and one of the bot service, served at GET {BOT_SERVICE_BASE}/openapi.json.
 *
 * Nothing here lists routes. @fastify/swagger records every route as it is registered (so it must be
 * registered before the feature plugins: server/core/app.ts calls `registerOpenApi` right after the
 * access control), and fastify-type-provider-zod's transform turns each route's own zod schemas
 * (body, querystring, params) into JSON Schema. Our part of the transform adds what the route's
 * access rule (server/core/access) says: its security requirement (bearer token, Company header, the
 * bot service's access_key), the permission it needs, and the error answers that rule implies.
 *
 * Which document a route belongs to follows from its rule too: routes authorised by a bot key are
 * the bot service's; the rest is the main API, minus what is not an API (the console's static files,
 * the demo-only fakes under /dev, catch-all 404 routes).
 */
import swagger from '@fastify/swagger';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { createJsonSchemaTransform } from 'fastify-type-provider-zod';
import type { OpenAPIV3_1 } from 'openapi-types';
import { access, describeRule, type AccessRule } from '../access';

export const API_OPENAPI_PATH = '/api/openapi.json';
export const BOT_SERVICE_OPENAPI_FILE = 'openapi.json';

/** Where the bot service's document is served, for a BOT_SERVICE_BASE ('/bot-service' → '/bot-service/openapi.json'). */
export function botServiceOpenApiPath(base: string): string {
  const trimmed = base.replace(/\/+$/, '');
  return `${trimmed}/${BOT_SERVICE_OPENAPI_FILE}`;
}

/** The security schemes both documents may name. */
export const SECURITY_SCHEMES: Record<string, OpenAPIV3_1.SecuritySchemeObject> = {
  bearerAuth: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'The access token of POST /account/login/ (refreshed with POST /account/token/refresh/).',
  },
  companyHeader: {
    type: 'apiKey',
    in: 'header',
    name: 'Company',
    description: 'The id of the selected company; the signed-in user must be a member of it.',
  },
  botAccessKey: {
    type: 'apiKey',
    in: 'query',
    name: 'access_key',
    description: "The company's bot-service access key (GET /api/bots/integration/, admins only). `Authorization: Bot <key>` is accepted too.",
  },
};

type Doc = OpenAPIV3_1.Document;
type Operation = OpenAPIV3_1.OperationObject;

/** The document a route belongs to, or null for what is not an API. */
export type DocumentKind = 'api' | 'botService';

export function documentOf(url: string, rule: AccessRule | undefined): DocumentKind | null {
  if (!rule) return null;
  // Catch-alls (the SPA fallback, the bot service's 404) and wildcard fakes are not operations.
  if (url.includes('*')) return null;
  if (url === '/dev' || url.startsWith('/dev/')) return null;
  return rule.kind === 'botKey' ? 'botService' : 'api';
}

/** The security requirement of a rule: who may call the route. An empty list means no credentials. */
export function securityOf(rule: AccessRule): OpenAPIV3_1.SecurityRequirementObject[] {
  switch (rule.kind) {
    case 'user':
      return [{ bearerAuth: [] }];
    case 'company':
      return [{ bearerAuth: [], companyHeader: [] }];
    case 'botKey':
      return [{ botAccessKey: [] }];
    default:
      return [];
  }
}

/** One sentence on who may call the route (shown under the operation). */
export function accessSentence(rule: AccessRule): string {
  switch (rule.kind) {
    case 'public':
      return `Open to anyone: ${rule.reason}.`;
    case 'signedWebhook':
      return `Open, but the request must carry the provider's signature: ${rule.reason}.`;
    case 'signedUrl':
      return `Open to whoever holds the secret in the URL: ${rule.reason}.`;
    case 'user':
      return 'A signed-in user (bearer token); no company needed.';
    case 'company':
      return rule.permission
        ? `A signed-in member of the company named by the Company header, with ${rule.permission.access} access to ${rule.permission.area}.`
        : 'A signed-in member of the company named by the Company header.';
    case 'botKey':
      return "The bot service, with the company's access key (the key alone names the company).";
  }
}

/** The area tag of a route: the first path segment after /api (or the first segment). */
export function tagOf(url: string): string {
  const parts = url.split('/').filter(Boolean);
  const first = parts[0] === 'api' ? parts[1] : parts[0];
  return first && !first.startsWith(':') && !first.startsWith('{') ? first.replace(/\.json$/, '') : 'root';
}

const ERROR_BODY: OpenAPIV3_1.SchemaObject = {
  description: 'Field errors `{ "field": ["message"] }` (400), or `{ "detail": "…", "code": "…" }`.',
  type: 'object',
  additionalProperties: true,
};

function errorResponse(description: string): OpenAPIV3_1.ResponseObject {
  return { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/ApiError' } } } };
}

/** The answers a route's rule and schemas imply, beside its success. */
function impliedResponses(kind: AccessRule['kind'], operation: Operation): Record<string, OpenAPIV3_1.ResponseObject> {
  const out: Record<string, OpenAPIV3_1.ResponseObject> = {};
  if (operation.requestBody || (operation.parameters ?? []).some((p) => 'in' in p && p.in === 'query')) out['400'] = errorResponse('Invalid input, in the field errors shape.');
  if (kind !== 'public' && kind !== 'signedUrl') out['401'] = errorResponse(kind === 'signedWebhook' ? 'Missing or invalid signature.' : 'Not authenticated.');
  if (kind === 'company') out['403'] = errorResponse('Not a member of the company, or the role lacks the permission.');
  return out;
}

const zodTransform = createJsonSchemaTransform({
  skipList: [],
  // A schema part JSON Schema cannot express (a custom check) is documented as "anything" rather than failing the document.
  zodToJsonConfig: { unrepresentable: 'any' } as never,
});

type TransformInput = Parameters<typeof zodTransform>[0] & { route: RouteOptions };

/** Strips BOT_SERVICE_BASE from a bot-service route's URL (its document shows paths relative to the base). */
function relativeTo(base: string, url: string): string {
  const trimmed = base.replace(/\/+$/, '');
  return trimmed && url.startsWith(`${trimmed}/`) ? url.slice(trimmed.length) : url;
}

/** @fastify/swagger's transform: the route's zod schemas → JSON Schema, plus what its access rule says. */
export function createRouteTransform(botServiceBase: string) {
  return function transformRoute(input: TransformInput): { schema: Record<string, unknown>; url: string } {
    const rule = input.route.config?.access;
    const kind = documentOf(input.url, rule);
    if (!rule || !kind) return { schema: { hide: true }, url: input.url };
    let schema: Record<string, unknown>;
    try {
      schema = (zodTransform({ ...input, schema: input.schema ?? {} } as never) as unknown as { schema: Record<string, unknown> }).schema;
    } catch {
      // One schema JSON Schema cannot express must not take the whole document down: the route is
      // still listed, marked (the test fails on the mark, so it is fixed rather than shipped).
      schema = { [SCHEMA_UNAVAILABLE]: true };
    }
    return {
      url: input.url,
      schema: {
        ...schema,
        tags: [tagOf(kind === 'botService' ? relativeTo(botServiceBase, input.url) : input.url)],
        description: accessSentence(rule),
        security: securityOf(rule),
        'x-access': describeRule(rule),
        [KIND_KEY]: rule.kind,
        [DOCUMENT_KEY]: kind,
      },
    };
  };
}

/** Private markers the transform leaves on each operation for splitDocuments (removed there). */
const KIND_KEY = 'x-access-kind';
const DOCUMENT_KEY = 'x-document';
/** Marks an operation whose schemas could not be converted. */
export const SCHEMA_UNAVAILABLE = 'x-schema-unavailable';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** The full generated document split in two: the main API's and the bot service's. */
export function splitDocuments(full: Doc, base: string, version: string): { api: Doc; botService: Doc } {
  const trimmedBase = base.replace(/\/+$/, '');
  const make = (title: string, description: string, serverUrl: string): Doc => ({
    openapi: full.openapi,
    info: { title, version, description },
    servers: [{ url: serverUrl }],
    tags: [],
    paths: {},
    components: { ...full.components, securitySchemes: { ...SECURITY_SCHEMES }, schemas: { ...(full.components?.schemas ?? {}), ApiError: ERROR_BODY } },
  });
  const api = make(
    'Business Messaging Console API',
    'The console’s HTTP API. Authenticated calls carry `Authorization: Bearer <access token>` and the selected company’s id in the `Company` header. Generated from the server’s routes and their schemas.',
    '/',
  );
  const botService = make(
    'Bot service',
    'Bots, steps, the branch graph, operations, flows and the opt-out CSV. Every call carries the company’s `access_key` query parameter (admins find it on /resources or GET /api/bots/integration/). Generated from the server’s routes and their schemas.',
    trimmedBase || '/',
  );

  // Operation ids given so far per document (a path with and without its trailing slash would share one).
  const taken = new Map<Doc, Set<string>>([[api, new Set()], [botService, new Set()]]);
  const uniqueId = (doc: Doc, id: string) => {
    const ids = taken.get(doc)!;
    let unique = id;
    for (let n = 2; ids.has(unique); n++) unique = `${id}_${n}`;
    ids.add(unique);
    return unique;
  };

  for (const [url, item] of Object.entries(full.paths ?? {})) {
    if (!item) continue;
    for (const method of METHODS) {
      const operation = item[method] as (Operation & { [DOCUMENT_KEY]?: DocumentKind; [KIND_KEY]?: AccessRule['kind'] }) | undefined;
      if (!operation) continue;
      const { [DOCUMENT_KEY]: documentKind, [KIND_KEY]: accessKind, ...rest } = operation;
      const kind = documentKind ?? 'api';
      const target = kind === 'botService' ? botService : api;
      const path = kind === 'botService' ? relativeTo(trimmedBase, url) : url;
      const responses = { ...(accessKind ? impliedResponses(accessKind, rest) : {}), ...(rest.responses ?? {}) };
      const entry: Operation = { ...rest, summary: rest.summary ?? `${method.toUpperCase()} ${path}`, operationId: uniqueId(target, operationIdOf(kind, method, path)), responses };
      target.paths![path] = { ...(target.paths![path] ?? {}), [method]: entry };
      for (const tag of entry.tags ?? []) if (!target.tags!.some((t) => t.name === tag)) target.tags!.push({ name: tag });
    }
  }
  for (const doc of [api, botService]) doc.tags!.sort((a, b) => a.name.localeCompare(b.name));

  return { api, botService };
}

/** A stable, unique operation id: `get_api_members_id` (bot service: `bot_get_api_bots_id`). */
export function operationIdOf(kind: DocumentKind, method: string, path: string): string {
  const slug = path
    .replace(/[{}]/g, '')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .join('_');
  return `${kind === 'botService' ? 'bot_' : ''}${method.toLowerCase()}_${slug || 'root'}`;
}

export interface OpenApiOptions {
  botServiceBase: string;
  version: string;
}

/**
 * Registers @fastify/swagger (before any feature route, so it sees them all) and the two routes
 * serving the documents. The documents are built on the first request and kept.
 */
export async function registerOpenApi(app: FastifyInstance, options: OpenApiOptions): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Business Messaging Console', version: options.version },
      components: { securitySchemes: SECURITY_SCHEMES },
    },
    transform: createRouteTransform(options.botServiceBase) as never,
  });

  let built: { api: Doc; botService: Doc } | null = null;
  const documents = () => {
    if (!built) {
      built = splitDocuments(structuredClone(app.swagger() as Doc), options.botServiceBase, options.version);
    }
    return built;
  };

  app.get(API_OPENAPI_PATH, { config: { access: access.public('the OpenAPI document of the API: routes and schemas, no data') } }, async (_request, reply) =>
    reply.header('cache-control', 'no-cache').send(documents().api),
  );
  app.get(botServiceOpenApiPath(options.botServiceBase), { config: { access: access.public('the OpenAPI document of the bot service: routes and schemas, no data') } }, async (_request, reply) =>
    reply.header('cache-control', 'no-cache').send(documents().botService),
  );
}
