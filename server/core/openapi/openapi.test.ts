/**
 * The generated OpenAPI documents (issue #14): valid OpenAPI 3.1 (checked by @apidevtools/swagger-parser),
 * every API route of the app documented in one of the two (none listed by hand), representative routes
 * of every plugin with their method, path, schemas and security.
 */
import SwaggerParser from '@apidevtools/swagger-parser';
import type { OpenAPIV3_1 } from 'openapi-types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/testApp';
import { documentOf, operationIdOf, SCHEMA_UNAVAILABLE, tagOf } from './openapi';

type Doc = OpenAPIV3_1.Document;
type Operation = OpenAPIV3_1.OperationObject;

let t: TestApp;
let api: Doc;
let bot: Doc;

const asOpenApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

function operation(doc: Doc, method: string, path: string): Operation {
  const op = doc.paths?.[path]?.[method.toLowerCase() as 'get'];
  if (!op) throw new Error(`${method} ${path} is not in "${doc.info.title}"; it has: ${Object.keys(doc.paths ?? {}).join(', ')}`);
  return op;
}

function requestSchema(op: Operation): OpenAPIV3_1.SchemaObject {
  const body = op.requestBody as OpenAPIV3_1.RequestBodyObject | undefined;
  const schema = body?.content['application/json']?.schema as OpenAPIV3_1.SchemaObject | undefined;
  if (!schema) throw new Error(`${op.operationId} has no JSON body schema`);
  return schema;
}

/** What swagger-parser does not check on a 3.1 document. */
function semanticProblems(doc: Doc): string[] {
  const problems: string[] = [];
  const ids = new Set<string>();
  const schemes = Object.keys(doc.components?.securitySchemes ?? {});
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(item ?? {}) as [string, Operation][]) {
      const where = `${method.toUpperCase()} ${path}`;
      const declared = ((op.parameters ?? []) as OpenAPIV3_1.ParameterObject[]).filter((p) => p.in === 'path').map((p) => p.name);
      for (const [, name] of path.matchAll(/\{([^}]+)\}/g)) if (!declared.includes(name!)) problems.push(`${where}: path parameter ${name} not declared`);
      for (const requirement of op.security ?? []) for (const name of Object.keys(requirement)) if (!schemes.includes(name)) problems.push(`${where}: unknown security scheme ${name}`);
      if (!op.operationId || ids.has(op.operationId)) problems.push(`${where}: operationId ${op.operationId} used twice`);
      ids.add(op.operationId ?? '');
    }
  }
  return problems;
}

beforeAll(async () => {
  t = await createTestApp();
  const [a, b] = await Promise.all([t.app.inject({ method: 'GET', url: '/api/openapi.json' }), t.app.inject({ method: 'GET', url: '/bot-service/openapi.json' })]);
  expect(a.statusCode).toBe(200);
  expect(b.statusCode).toBe(200);
  expect(a.headers['content-type']).toMatch(/application\/json/);
  api = a.json();
  bot = b.json();
}, 60_000);
afterAll(async () => t.close());

describe('the generated OpenAPI documents', () => {
  it('are valid OpenAPI 3.1 documents (swagger-parser)', async () => {
    for (const doc of [api, bot]) {
      expect(doc.openapi).toBe('3.1.0');
      // validate() dereferences in place: give it a copy.
      await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
    }
    expect(bot.servers).toEqual([{ url: '/bot-service' }]);
  });

  it('pass the checks the schema cannot express: path parameters declared, security schemes defined, unique operation ids', () => {
    for (const doc of [api, bot]) expect(semanticProblems(doc)).toEqual([]);
  });

  it('a broken document is refused by the same checks (they can fail)', async () => {
    const badIn = structuredClone(api);
    (badIn.paths!['/api/members/{id}/']!.patch!.parameters as OpenAPIV3_1.ParameterObject[])[0]!.in = 'nowhere';
    await expect(SwaggerParser.validate(badIn as never)).rejects.toThrow(/allowed values/);

    const broken = structuredClone(api);
    delete broken.paths!['/api/members/{id}/']!.patch!.parameters;
    broken.paths!['/api/members/']!.get!.security = [{ nope: [] }];
    broken.paths!['/api/roles/']!.get!.operationId = broken.paths!['/api/members/']!.get!.operationId;
    const problems = semanticProblems(broken);
    expect(problems).toHaveLength(3);
    expect(problems).toEqual(
      expect.arrayContaining([
        'PATCH /api/members/{id}/: path parameter id not declared',
        'GET /api/members/: unknown security scheme nope',
        expect.stringMatching(/^GET \/api\/(members|roles)\/: operationId get_api_members used twice$/),
      ]),
    );
  });

  it('document every API route of the app, none by hand: bot-key routes in the bot service’s, the rest in the API’s', () => {
    const documented = new Set<string>();
    for (const [doc, prefix] of [[api, ''], [bot, '/bot-service']] as const) {
      for (const [path, item] of Object.entries(doc.paths ?? {})) {
        for (const method of Object.keys(item ?? {})) documented.add(`${method.toUpperCase()} ${prefix}${path}`);
      }
    }
    const expected = t.app.routeAccess.filter((e) => documentOf(e.url, e.access) !== null).map((e) => `${e.method} ${asOpenApiPath(e.url)}`);
    expect(expected.length).toBeGreaterThan(80);
    expect(expected.filter((key) => !documented.has(key))).toEqual([]);
    // And nothing that is not an API: no static files, no demo fakes, no catch-alls.
    expect([...documented].filter((key) => key.includes('*') || / \/dev\//.test(key))).toEqual([]);
    expect(documented.size).toBe(new Set(expected).size);
  });

  it('contain representative routes of every plugin, with their auth', () => {
    const company = [{ bearerAuth: [], companyHeader: [] }];
    const cases: [Doc, string, string, OpenAPIV3_1.SecurityRequirementObject[]][] = [
      [api, 'POST', '/account/login/', []], // accounts
      [api, 'GET', '/account/user/', [{ bearerAuth: [] }]],
      [api, 'POST', '/api/companies/', [{ bearerAuth: [] }]], // companies
      [api, 'GET', '/api/chats/presigned_url/', company], // chats
      [api, 'GET', '/api/channels/', company], // channels
      [api, 'POST', '/api/webhooks/meta/', []],
      [api, 'GET', '/api/members/', company], // team
      [api, 'POST', '/api/invites/bulk/', company],
      [api, 'GET', '/api/agent-templates/', company], // agent templates
      [api, 'POST', '/api/channels/{id}/create_template/', company], // templates
      [api, 'GET', '/api/broadcasts/', company], // broadcasts
      [api, 'GET', '/api/bots/integration/', company], // bots, main API
      [api, 'GET', '/api/openapi.json', []], // resources
      [bot, 'GET', '/api/bots/', [{ botAccessKey: [] }]], // bots, bot service
      [bot, 'PATCH', '/api/bots/{id}/steps/{stepId}/', [{ botAccessKey: [] }]],
      [bot, 'GET', '/api/opt-out-csv/', [{ botAccessKey: [] }]],
      [bot, 'POST', '/api/flows/', [{ botAccessKey: [] }]], // flows
      [bot, 'GET', '/branch/fetch/', [{ botAccessKey: [] }]],
    ];
    for (const [doc, method, path, security] of cases) {
      const op = operation(doc, method, path);
      expect(op.security, `${method} ${path}`).toEqual(security);
      expect(op.operationId).toBe(operationIdOf(doc === bot ? 'botService' : 'api', method, path));
      expect(op.description, `${method} ${path}`).toBeTruthy();
    }
    // The sandbox's simulator routes are signed by the key in their URL.
    expect(Object.keys(api.paths ?? {}).some((p) => p.startsWith('/api/sandbox/') || p.startsWith('/sandbox/'))).toBe(true);
    // Every operation names its area, and every schema converted.
    for (const doc of [api, bot]) {
      for (const item of Object.values(doc.paths ?? {})) {
        for (const op of Object.values(item ?? {}) as Operation[]) {
          expect(op.tags?.length).toBe(1);
          expect(op[SCHEMA_UNAVAILABLE as keyof Operation], op.operationId).toBeUndefined();
        }
      }
    }
  });

  it('carry each route’s own zod schemas: body fields, query parameters, path parameters', () => {
    const login = requestSchema(operation(api, 'POST', '/account/login/'));
    expect(Object.keys(login.properties ?? {})).toEqual(expect.arrayContaining(['email', 'password']));
    expect(login.required).toEqual(expect.arrayContaining(['email', 'password']));

    const flow = requestSchema(operation(bot, 'POST', '/api/flows/'));
    expect(Object.keys(flow.properties ?? {})).toEqual(expect.arrayContaining(['flow_name', 'description', 'company_name', 'company_domain', 'extra_context']));
    expect((flow.properties!.flow_name as OpenAPIV3_1.SchemaObject).maxLength).toBe(128);

    const fetch = operation(bot, 'GET', '/branch/fetch/');
    expect(fetch.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ in: 'query', name: 'bot' })]));

    const step = operation(bot, 'PATCH', '/api/bots/{id}/steps/{stepId}/');
    const pathParams = (step.parameters as OpenAPIV3_1.ParameterObject[]).filter((p) => p.in === 'path').map((p) => p.name);
    expect(pathParams.sort()).toEqual(['id', 'stepId']);
    expect(Object.keys(requestSchema(step).properties ?? {})).toEqual(expect.arrayContaining(['messages', 'layout', 'options', 'next_step_id', 'actions']));
  });

  it('say what each rule needs: permission, error answers and the security schemes', () => {
    const members = operation(api, 'GET', '/api/members/');
    expect(members['x-access' as keyof Operation]).toBe('company(members, view)');
    expect(members.description).toMatch(/view access to members/);
    expect(Object.keys(members.responses ?? {})).toEqual(expect.arrayContaining(['200', '401', '403']));
    expect(Object.keys(operation(api, 'POST', '/account/login/').responses ?? {})).toContain('400');
    expect(Object.keys(operation(api, 'POST', '/account/login/').responses ?? {})).not.toContain('401');
    expect(api.components?.securitySchemes).toMatchObject({
      bearerAuth: { type: 'http', scheme: 'bearer' },
      companyHeader: { type: 'apiKey', in: 'header', name: 'Company' },
    });
    expect(bot.components?.securitySchemes).toMatchObject({ botAccessKey: { type: 'apiKey', in: 'query', name: 'access_key' } });
  });
});

describe('helpers', () => {
  it('tags a route by its area and makes operation ids', () => {
    expect(tagOf('/api/agent-templates/{id}')).toBe('agent-templates');
    expect(tagOf('/account/login/')).toBe('account');
    expect(tagOf('/branch/fetch/')).toBe('branch');
    expect(operationIdOf('api', 'get', '/api/members/{id}/')).toBe('get_api_members_id');
    expect(operationIdOf('botService', 'PATCH', '/api/bots/{id}/steps/{stepId}/')).toBe('bot_patch_api_bots_id_steps_stepId');
  });
});

describe('served under another bot-service base', () => {
  let other: TestApp;

  beforeAll(async () => {
    other = await createTestApp({ config: { botService: { base: '/bots-api', operationTimeoutMs: 2000, operationMaxBytes: 65536, operationAllowIps: [] } } });
  }, 60_000);
  afterAll(async () => other.close());

  it('serves the bot service’s document under that base, paths relative to it', async () => {
    const res = await other.app.inject({ method: 'GET', url: '/bots-api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as Doc;
    expect(doc.servers).toEqual([{ url: '/bots-api' }]);
    expect(doc.paths?.['/api/bots/']?.get).toBeTruthy();
    expect((await other.app.inject({ method: 'GET', url: '/bot-service/openapi.json' })).statusCode).not.toBe(200);
  });
});
