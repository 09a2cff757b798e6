/**
 * Upstream failures never echo our internal error text or a token: the real Graph adapter over a
 * fetch that fails the way undici does (its message quotes the Authorization header), that answers a
 * 5xx, or a 4xx quoting the token; and tokens that cannot be tokens are a 400 before any call.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpMetaGraph } from '../../providers/meta/graphClient';
import { networkError } from '../../providers/meta/graphErrors';
import { UPSTREAM_MESSAGES, describeUpstreamError, redactSecrets } from '../../providers/meta/upstreamErrors';
import { testConfig } from '../../core/config';
import { createTestApp, type TestApp } from '../../testing/testApp';

const TOKEN = 'EAAGsecretUserToken123';
type Answer = { throws: Error } | { status: number; body: unknown };
let next: Answer = { status: 200, body: { data: [] } };
const fakeFetch = (async () => {
  const answer = next;
  if ('throws' in answer) throw answer.throws;
  return new Response(JSON.stringify(answer.body), { status: answer.status, headers: { 'content-type': 'application/json' } });
}) as unknown as typeof fetch;

describe('redaction helpers', () => {
  it('redact every form of the secrets and keep the detail for the log only', () => {
    expect(redactSecrets(`Bearer ${TOKEN} and ${encodeURIComponent(TOKEN + '/=')}`, [TOKEN, `${TOKEN}/=`])).toBe('Bearer [redacted] and [redacted]');
    const cause = new TypeError(`Headers.append: "Bearer ${TOKEN}\n" is an invalid header value.`);
    const error = networkError(cause, [TOKEN]);
    expect(error.message).toBe('Meta could not be reached; try again later.');
    expect(JSON.stringify(describeUpstreamError(error, [TOKEN]))).not.toContain(TOKEN);
    expect(describeUpstreamError(error, [TOKEN])).toMatchObject({ retryable: true, detail: expect.stringContaining('Headers.append') });
  });
});

describe('POST /api/channels/facebook_pages/ when Meta fails', () => {
  let t: TestApp;
  let headers: Record<string, string>;
  const pages = (access_token: string) => t.app.inject({ method: 'POST', url: '/api/channels/facebook_pages/', headers, payload: { access_token } });

  beforeAll(async () => {
    const config = testConfig();
    t = await createTestApp({ overrides: { MetaGraph: new HttpMetaGraph(config.meta, { fetch: fakeFetch, sleep: async () => {} }) } });
    const company = await t.seed.company('Acme');
    const admin = await t.seed.user({ email: 'admin@acme.test' });
    await t.seed.member(company, admin, 'admin');
    headers = t.headers((await t.login('admin@acme.test')).access, company);
  });
  afterAll(() => t.close());

  it('refuses a token that cannot be one (line breaks, spaces, control characters) with a 400 before calling Meta', async () => {
    for (const bad of [`${TOKEN}\nX-Evil: 1`, 'two words', `tab\there`, 'tok\u00e9n']) {
      const res = await pages(bad);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json()).toEqual({ access_token: ['Enter a valid access token.'] });
    }
    const social = await t.app.inject({ method: 'POST', url: '/account/facebook/', payload: { access_token: `${TOKEN}\r\nX-Evil: 1` } });
    expect(social.statusCode).toBe(400);
    expect(social.body).not.toContain(TOKEN);
  });

  it('a network failure is a 503 with fixed wording: no internal message, no token', async () => {
    next = { throws: new TypeError(`Headers.append: "Bearer ${TOKEN}" is an invalid header value.`) };
    const res = await pages(TOKEN);
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ detail: UPSTREAM_MESSAGES.unavailable, code: 'provider_unavailable' });
    expect(res.body).not.toContain(TOKEN);
  });

  it('an outage or a rate limit is the same fixed 503; a refusal quoting the token is a 400 with it redacted; answers lose their NULs', async () => {
    next = { status: 500, body: { error: { message: `Internal failure for ${TOKEN}`, code: 2 } } };
    expect((await pages(TOKEN)).json()).toEqual({ detail: UPSTREAM_MESSAGES.unavailable, code: 'provider_unavailable' });

    next = { status: 400, body: { error: { message: `Invalid parameter: ${TOKEN}`, code: 100 } } };
    const refused = await pages(TOKEN);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ detail: 'Invalid parameter: [redacted]', code: 'provider_error' });

    next = { status: 200, body: { data: [{ id: 'page-1', name: 'Sh\u0000op', access_token: 'page-token' }] } };
    const clean = await pages(TOKEN);
    expect(clean.json()).toMatchObject({ results: [{ id: 'page-1', name: 'Shop' }] });

    next = { status: 400, body: { error: { message: 'Invalid OAuth access token.', code: 190 } } };
    expect((await pages(TOKEN)).json()).toMatchObject({ code: 'provider_error', detail: expect.stringContaining('Facebook') });
  });
});
