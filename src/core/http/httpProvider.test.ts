// @vitest-environment jsdom
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createAccountStore } from '../account/accountStore';
import { membership, testUser } from '../account/testUsers';
import { createConfig } from '../config/config';
import { createSessionStore } from '../session/sessionStore';
import { tokenValidFor } from '../session/testTokens';
import { createHttpProvider } from './httpProvider';
import { HttpError } from './HttpError';

function json(status: number, body: unknown, statusText = '') {
  return new Response(body === undefined ? null : JSON.stringify(body), { status, statusText, headers: { 'Content-Type': 'application/json' } });
}

function setup(apiBase = 'https://api.test') {
  const session = createSessionStore();
  const account = createAccountStore();
  const fetch = vi.fn<typeof globalThis.fetch>();
  const http = createHttpProvider({ config: createConfig({}, { apiBase }), session, account, translate: (k) => `t:${k}`, fetch });
  return { session, account, fetch, http };
}

const call = (fetch: ReturnType<typeof setup>['fetch'], i = 0) => {
  const [url, init] = fetch.mock.calls[i];
  return { url: String(url), init: init!, headers: init!.headers as Record<string, string> };
};

describe('http provider', () => {
  beforeEach(() => localStorage.clear());

  it('sends JSON with bearer token, Company header and query string', async () => {
    const { session, account, fetch, http } = setup();
    const access = tokenValidFor(3600);
    session.setTokens({ access, refresh: tokenValidFor(7200) });
    account.setUser(testUser([membership(5)]));
    account.selectCompany(5);
    fetch.mockResolvedValueOnce(json(200, { ok: 1 }));
    await expect(http.post('/api/things/', { a: 1 }, { query: { page: 2, q: undefined, s: 'x y' } })).resolves.toEqual({ ok: 1 });
    const { url, init, headers } = call(fetch);
    expect(url).toBe('https://api.test/api/things/?page=2&s=x+y');
    expect(init.method).toBe('POST');
    expect(init.body).toBe('{"a":1}');
    expect(headers).toMatchObject({ Authorization: `Bearer ${access}`, Company: '5', 'Content-Type': 'application/json' });
  });

  it('sends unauthenticated calls without token or company', async () => {
    const { fetch, http } = setup('');
    fetch.mockResolvedValueOnce(json(200, { access: 'a' }));
    await http.post('/account/login/', { email: 'e' }, { auth: false });
    expect(call(fetch).url).toBe('/account/login/');
    expect(call(fetch).headers.Authorization).toBeUndefined();
  });

  it('rejects with 401 "not authenticated" when there is neither access nor refresh token', async () => {
    const { fetch, http } = setup();
    const error = await http.get('/api/x/').catch((e) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 401, message: 't:core.errors.notAuthenticated' });
    expect(fetch).not.toHaveBeenCalled();
  });

  it('refreshes an expired access token once for concurrent calls', async () => {
    const { session, fetch, http } = setup();
    session.setTokens({ access: tokenValidFor(10), refresh: tokenValidFor(3600) });
    const fresh = tokenValidFor(3600);
    fetch.mockImplementation(async (url) =>
      String(url).endsWith('/account/token/refresh/') ? json(200, { access: fresh }) : json(200, []),
    );
    await Promise.all([http.get('/api/a/'), http.get('/api/b/')]);
    const refreshCalls = fetch.mock.calls.filter(([u]) => String(u).endsWith('/account/token/refresh/'));
    expect(refreshCalls).toHaveLength(1);
    expect(JSON.parse(String(refreshCalls[0][1]!.body))).toEqual({ refresh: session.getRefreshToken() });
    expect(session.getAccessToken()).toBe(fresh);
    const apiCall = fetch.mock.calls.find(([u]) => String(u).endsWith('/api/a/'))!;
    expect((apiCall[1]!.headers as Record<string, string>).Authorization).toBe(`Bearer ${fresh}`);
  });

  it('signs out when the refresh fails', async () => {
    const { session, account, fetch, http } = setup();
    session.setTokens({ access: tokenValidFor(0), refresh: tokenValidFor(3600) });
    account.setUser(testUser());
    const events: string[] = [];
    account.subscribe((e) => events.push(e));
    fetch.mockResolvedValueOnce(json(401, { detail: 'Token is invalid' }, 'Unauthorized'));
    await expect(http.get('/api/x/')).rejects.toMatchObject({ status: 401, message: 'Token is invalid' });
    expect(session.getAccessToken()).toBeNull();
    expect(account.getUser()).toBeNull();
    expect(events).toEqual(['signedOut']);
  });

  it('keeps the session when the refresh gets no answer (offline, or the page being left)', async () => {
    const { session, account, fetch, http } = setup();
    const refresh = tokenValidFor(3600);
    session.setTokens({ access: tokenValidFor(0), refresh });
    account.setUser(testUser());
    const events: string[] = [];
    account.subscribe((e) => events.push(e));
    fetch.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await expect(http.get('/api/x/')).rejects.toBeInstanceOf(TypeError);
    expect(session.getRefreshToken()).toBe(refresh);
    expect(account.getUser()).not.toBeNull();
    expect(events).toEqual([]);
  });

  it('sends no token when both tokens expired; the 401 answer signs out', async () => {
    const { session, account, fetch, http } = setup();
    session.setTokens({ access: tokenValidFor(-100), refresh: tokenValidFor(-10) });
    const signedOut = vi.fn();
    account.subscribe((e) => e === 'signedOut' && signedOut());
    fetch.mockResolvedValueOnce(json(401, { detail: 'no' }, 'Unauthorized'));
    await expect(http.get('/api/x/')).rejects.toBeInstanceOf(HttpError);
    expect(call(fetch).headers.Authorization).toBeUndefined();
    expect(signedOut).toHaveBeenCalledOnce();
  });

  it('maps errors to HttpError with the first error message, else statusText; 204 gives undefined', async () => {
    const { session, fetch, http } = setup();
    session.setTokens({ access: tokenValidFor(3600) });
    fetch.mockResolvedValueOnce(json(400, { email: ['Enter a valid email address.'] }, 'Bad Request'));
    await expect(http.post('/api/x/', {})).rejects.toMatchObject({ status: 400, message: 'Enter a valid email address.', body: { email: ['Enter a valid email address.'] } });
    fetch.mockResolvedValueOnce(new Response(null, { status: 500, statusText: 'Server Error' }));
    await expect(http.get('/api/x/')).rejects.toMatchObject({ status: 500, message: 'Server Error' });
    fetch.mockResolvedValueOnce(new Response('plain failure', { status: 502, statusText: 'Bad Gateway' }));
    await expect(http.get('/api/x/')).rejects.toMatchObject({ body: 'plain failure', message: 'plain failure' });
    fetch.mockResolvedValueOnce(new Response(null, { status: 204 }));
    await expect(http.delete('/api/x/1/')).resolves.toBeUndefined();
    expect(session.getAccessToken()).not.toBeNull(); // non-401 errors keep the session
  });
});
