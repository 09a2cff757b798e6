import { describe, expect, it } from 'vitest';
import { filterOperations, openApiView, typeOf } from './openapiView';

const doc = {
  openapi: '3.1.0',
  info: { title: 'Business Messaging Console API', version: '1.11.0' },
  servers: [{ url: '/' }],
  components: { schemas: { Role: { type: 'string', enum: ['admin', 'manager', 'agent'] } } },
  paths: {
    '/api/members/{id}/': {
      patch: {
        tags: ['members'],
        description: 'A signed-in member of the company named by the Company header, with manage access to members.',
        'x-access': 'company(members, manage)',
        security: [{ bearerAuth: [], companyHeader: [] }],
        parameters: [{ in: 'path', name: 'id', required: true, schema: { type: 'string' } }],
        requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { role_id: { $ref: '#/components/schemas/Role' } }, required: ['role_id'] } } } },
        responses: { 200: { description: 'ok' } },
      },
    },
    '/api/members/': { get: { tags: ['members'], security: [{ bearerAuth: [], companyHeader: [] }], responses: {} } },
    '/account/login/': {
      post: {
        tags: ['account'],
        security: [],
        requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { email: { type: 'string', format: 'email', maxLength: 254 }, password: { type: 'string', minLength: 1 } } } } } },
      },
    },
    '/api/bots/': { get: { tags: ['bots'], security: [{ botAccessKey: [] }] } },
  },
};

describe('the readable view of an OpenAPI document', () => {
  it('groups operations by tag, sorted, with method, path, auth and fields', () => {
    const view = openApiView(doc);
    expect(view).toMatchObject({ title: 'Business Messaging Console API', version: '1.11.0', serverUrl: '/', count: 4 });
    expect(view.groups.map((g) => g.tag)).toEqual(['account', 'bots', 'members']);
    const members = view.groups.find((g) => g.tag === 'members')!.operations;
    expect(members.map((o) => `${o.method} ${o.path}`)).toEqual(['GET /api/members/', 'PATCH /api/members/{id}/']);
    const patch = members[1]!;
    expect(patch).toMatchObject({ auth: 'company', access: 'company(members, manage)' });
    expect(patch.fields).toEqual([
      { name: 'id', in: 'path', type: 'string', required: true, notes: [] },
      { name: 'role_id', in: 'body', type: '"admin" | "manager" | "agent"', required: true, notes: [] },
    ]);
    const login = view.groups[0]!.operations[0]!;
    expect(login.auth).toBe('public');
    expect(login.fields).toEqual([
      { name: 'email', in: 'body', type: 'string', required: false, notes: ['email', 'max 254'] },
      { name: 'password', in: 'body', type: 'string', required: false, notes: ['min 1'] },
    ]);
    expect(view.groups[1]!.operations[0]!.auth).toBe('botKey');
  });

  it('filters by every word of the query', () => {
    const view = openApiView(doc);
    expect(filterOperations(view, 'patch members').flatMap((g) => g.operations.map((o) => o.path))).toEqual(['/api/members/{id}/']);
    expect(filterOperations(view, 'role_id')).toHaveLength(1);
    expect(filterOperations(view, 'nothing-like-this')).toEqual([]);
    expect(filterOperations(view, '')).toBe(view.groups);
  });

  it('reads a broken document as empty rather than failing', () => {
    expect(openApiView(null)).toMatchObject({ groups: [], count: 0 });
    expect(openApiView({ paths: { '/x': 'nope', '/y': { get: 3 } } })).toMatchObject({ groups: [], count: 0 });
  });

  it('names types', () => {
    expect(typeOf({ type: 'array', items: { type: 'integer' } })).toBe('array of integer');
    expect(typeOf({ anyOf: [{ type: 'string' }, { type: 'null' }] })).toBe('string | null');
    expect(typeOf({})).toBe('any');
  });
});
