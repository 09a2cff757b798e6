/**
 * Input hardening on real routes: a NUL anywhere in a body, a querystring or path params is a 400
 * naming the field; a JSON body nested deeper than MAX_JSON_DEPTH is refused before it is parsed;
 * prototype poisoning stays refused; nothing of it is a 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestApp } from '../../testing/testApp';
import { MALFORMED_TEXT_MESSAGE, parseFields } from '../errors';
import { MAX_JSON_DEPTH, NUL_MESSAGE, TOO_DEEP, exceedsJsonDepth, findNul, parseJsonSafely, stripNul } from './index';

const NUL = '\u0000';
const nested = (depth: number, leaf = '1') => '{"a":'.repeat(depth) + leaf + '}'.repeat(depth);

describe('exceedsJsonDepth', () => {
  it('counts objects and arrays, not brackets inside strings or escaped quotes', () => {
    expect(exceedsJsonDepth(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(exceedsJsonDepth(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(exceedsJsonDepth('['.repeat(65) + ']'.repeat(65))).toBe(true);
    expect(exceedsJsonDepth(JSON.stringify({ text: '[{'.repeat(1000) }))).toBe(false);
    expect(exceedsJsonDepth(JSON.stringify({ text: 'a "quoted" \\ [[[' + '{'.repeat(100) }))).toBe(false);
    // Siblings do not add up: depth is nesting, not count.
    expect(exceedsJsonDepth(JSON.stringify(Array.from({ length: 1000 }, () => ({ a: [1] }))))).toBe(false);
  });

  it('scans 100,000 levels without recursion', () => {
    expect(exceedsJsonDepth('['.repeat(100_000))).toBe(true);
    expect(() => parseJsonSafely('['.repeat(100_000) + ']'.repeat(100_000))).toThrow(TOO_DEEP.detail);
  });
});

describe('the malformed-text check of parsed input (parseFields)', () => {
  it('names the first string or key with a lone surrogate by its dotted path, the key spelled with U+FFFD', () => {
    const record = z.record(z.string(), z.unknown());
    expect(parseFields(record, { ok: 'fine', list: ['a', { text: 'b\uD800c' }] })).toEqual({ ok: false, fields: { 'list.1.text': [MALFORMED_TEXT_MESSAGE] } });
    expect(parseFields(record, { data: { 'k\uDC00': 1 } })).toEqual({ ok: false, fields: { 'data.k\uFFFD': [MALFORMED_TEXT_MESSAGE] } });
    expect(parseFields(z.string(), 'x\uD800')).toEqual({ ok: false, fields: { non_field_errors: [MALFORMED_TEXT_MESSAGE] } });
    expect(parseFields(record, { emoji: '👋', when: new Date(0) })).toMatchObject({ ok: true });
  });
});

describe('findNul and stripNul', () => {
  it('names the first string or key holding a NUL with a dotted path', () => {
    expect(findNul({ email: 'a@b.c', password: `x${NUL}` })).toBe('password');
    expect(findNul({ message: { text: `hi${NUL}` } })).toBe('message.text');
    expect(findNul({ invites: [{ email: 'ok@x.io' }, { email: `b${NUL}@x.io` }] })).toBe('invites.1.email');
    expect(findNul({ data: { [`k${NUL}`]: 1 } })).toBe('data.k\\u0000');
    expect(findNul({ a: [1, true, null, { b: 'clean' }] })).toBeNull();
    expect(findNul(Buffer.from(`raw${NUL}`))).toBeNull();
    expect(findNul(`root${NUL}`)).toBeNull();
  });

  it('walks deep values iteratively', () => {
    let deep: unknown = `x${NUL}`;
    for (let i = 0; i < 50_000; i++) deep = [deep];
    expect(findNul({ deep })).toBe(`deep${'.0'.repeat(50_000)}`);
  });

  it('strips NULs from strings and keys of a JSON value, keeping everything else', () => {
    const value = { entry: [{ text: `a${NUL}b`, n: 1, ok: true, none: null, [`k${NUL}`]: [`${NUL}`] }] };
    expect(stripNul(value)).toEqual({ entry: [{ text: 'ab', n: 1, ok: true, none: null, k: [''] }] });
    expect(value.entry[0].text).toBe(`a${NUL}b`);
    expect(stripNul(`x${NUL}`)).toBe('x');
    expect(Object.getPrototypeOf(stripNul({ ['__proto__']: 1 }))).toBe(Object.prototype);
  });
});

describe('routes refuse NUL, deep JSON and poisoning with a 400', () => {
  let t: TestApp;
  let headers: Record<string, string>;
  let companyId: number;
  let memberId: number;

  beforeAll(async () => {
    t = await createTestApp();
    companyId = await t.seed.company('Acme');
    const userId = await t.seed.user({ email: 'admin@acme.test' });
    await t.seed.member(companyId, userId, 'admin');
    headers = t.headers((await t.login('admin@acme.test')).access, companyId);
    const members = await t.app.inject({ method: 'GET', url: '/api/members/', headers });
    memberId = members.json().results[0].id;
  });
  afterAll(() => t.close());

  const nulError = (field: string) => ({ [field]: [NUL_MESSAGE] });

  it('in a login e-mail, a company name, a saved reply and nested bulk invites', async () => {
    const login = await t.app.inject({ method: 'POST', url: '/account/login/', payload: { email: `admin${NUL}@acme.test`, password: 'x' } });
    expect([login.statusCode, login.json()]).toEqual([400, nulError('email')]);

    const company = await t.app.inject({ method: 'POST', url: '/api/companies/', headers, payload: { name: `Evil${NUL}Corp` } });
    expect([company.statusCode, company.json()]).toEqual([400, nulError('name')]);

    const template = await t.app.inject({ method: 'POST', url: '/api/agent-templates/', headers, payload: { name: 'Hi', text: `Hello${NUL}` } });
    expect([template.statusCode, template.json()]).toEqual([400, nulError('text')]);

    const bulk = await t.app.inject({ method: 'POST', url: '/api/invites/bulk/', headers, payload: { invites: [{ email: 'ok@x.io' }, { email: `b${NUL}@x.io` }] } });
    expect([bulk.statusCode, bulk.json()]).toEqual([400, nulError('invites.1.email')]);
  });

  it('in querystrings and path parameters', async () => {
    for (const url of [
      '/api/members/?search=a%00b',
      '/api/invites/check_email/?email=a%00@acme.test',
      '/api/onboarding-request/status/?email=a%00@acme.test',
    ]) {
      const res = await t.app.inject({ method: 'GET', url, headers });
      expect(res.statusCode, url).toBe(400);
      expect(Object.values(res.json()).flat(), url).toEqual([NUL_MESSAGE]);
    }
    const search = await t.app.inject({ method: 'GET', url: '/api/agent-templates/?search=%00', headers });
    expect([search.statusCode, search.json()]).toEqual([400, nulError('search')]);
    const param = await t.app.inject({ method: 'PATCH', url: `/api/members/${memberId}%00/`, headers, payload: { role_id: 'agent' } });
    expect([param.statusCode, param.json()]).toEqual([400, nulError('id')]);
  });

  it('a NUL in the Company header is refused like any invalid company, not a 500', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/members/', headers: { ...headers, company: `${companyId}${NUL}` } });
    expect(res.statusCode).toBe(403);
  });

  it('refuses a body nested deeper than the limit before parsing it, and keeps sane bodies working', async () => {
    const signup = (nonJson: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/wa-onboard/embedded_signup/',
        headers: { ...headers, 'content-type': 'application/json' },
        payload: `{"phone_number_id":"1","waba_id":"2","code":"c","company":${companyId},"email":"admin@acme.test","non_json_data":${nonJson}}`,
      });
    for (const depth of [MAX_JSON_DEPTH, 3_000, 5_000]) {
      const res = await signup(nested(depth));
      expect(res.statusCode, String(depth)).toBe(400);
      expect(res.json(), String(depth)).toEqual(TOO_DEEP);
    }
    const deepArray = await t.app.inject({ method: 'POST', url: '/account/login/', headers: { 'content-type': 'application/json' }, payload: '['.repeat(10_000) + ']'.repeat(10_000) });
    expect([deepArray.statusCode, deepArray.json()]).toEqual([400, TOO_DEEP]);

    const ok = await t.app.inject({ method: 'POST', url: '/account/login/', payload: { email: 'admin@acme.test', password: 'wrong password [{' } });
    expect(ok.statusCode).toBe(400);
    expect(ok.json()).not.toHaveProperty('code');
  });

  it('keeps Fastify parse errors and prototype-poisoning refusals as 400s', async () => {
    const post = (payload: string) => t.app.inject({ method: 'POST', url: '/account/login/', headers: { 'content-type': 'application/json' }, payload });
    for (const payload of ['{"email":', '', '{"__proto__":{"admin":true},"email":"a@b.co","password":"x"}', '{"constructor":{"prototype":{"admin":true}}}']) {
      const res = await post(payload);
      expect(res.statusCode, payload).toBe(400);
      expect(res.json().code, payload).toBe('parse_error');
    }
  });
});
