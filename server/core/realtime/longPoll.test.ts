/** The long-poll transport's wire protocol, by hand with fetch (what phoenix.js's LongPoll relies on). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sleep, startRealtimeApp, waitFor, type RealtimeTestApp } from './testSupport';

let rt: RealtimeTestApp;
const SESSION_TTL_MS = 2_000;

beforeAll(async () => {
  // A 2 s session lifetime: well past the gaps between one test's requests on a loaded machine (a login's
  // password hash alone took over 300 ms in a CI run), yet short enough to watch a session expire.
  rt = await startRealtimeApp({ realtime: { longPollTimeoutMs: 200, longPollSessionTtlMs: SESSION_TTL_MS, allowedOrigins: [] } });
});
afterAll(async () => rt.close());

interface PollBody {
  status: number;
  token?: string;
  messages?: string[];
}

function endpoint(extra: Record<string, string> = {}, access = rt.access): string {
  const query = new URLSearchParams({ token: access, company_id: String(rt.companyId), vsn: '2.0.0' });
  for (const [key, value] of Object.entries(extra)) query.append(key, value);
  return `${rt.baseUrl}/socket/longpoll?${query}`;
}

async function get(url: string, headers: Record<string, string> = {}): Promise<{ http: number; body: PollBody }> {
  const res = await fetch(url, { headers: { accept: 'application/json', ...headers } });
  return { http: res.status, body: (await res.json()) as PollBody };
}

async function post(url: string, body: string, contentType = 'application/x-ndjson'): Promise<{ http: number; body: PollBody }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': contentType }, body });
  return { http: res.status, body: (await res.json()) as PollBody };
}

async function openSession(): Promise<string> {
  const { http, body } = await get(endpoint());
  expect(http).toBe(200);
  expect(body.status).toBe(410);
  return body.token!;
}

/** Polls until the wanted frames arrived; returns every frame seen. */
async function pollFrames(token: string, until: (frames: unknown[][]) => boolean): Promise<unknown[][]> {
  const frames: unknown[][] = [];
  for (let i = 0; i < 20 && !until(frames); i++) {
    const { body } = await get(endpoint({ token }));
    if (body.status === 200) frames.push(...body.messages!.map((m) => JSON.parse(m)));
    else expect(body.status).toBe(204);
  }
  return frames;
}

describe('long-poll', () => {
  it('opens a session with 410 and an unguessable token; refuses bad credentials with 403', async () => {
    const token = await openSession();
    expect(token).toMatch(/^lp\.[A-Za-z0-9_-]{43}$/);
    expect(await openSession()).not.toBe(token);
    const refused = await get(endpoint({}, 'bad-token'));
    expect(refused).toEqual({ http: 403, body: { status: 403 } });
    const badVsn = await get(`${rt.baseUrl}/socket/longpoll?token=${rt.access}&company_id=${rt.companyId}&vsn=1.0.0`);
    expect(badVsn).toEqual({ http: 400, body: { status: 403 } });
  });

  it('answers 204 with the token when nothing arrived within the poll window', async () => {
    const token = await openSession();
    const started = Date.now();
    const { http, body } = await get(endpoint({ token }));
    expect(http).toBe(200);
    expect(body).toEqual({ status: 204, token });
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
  });

  it('takes ndjson batches and single frames by POST and answers them through polls (200 with messages)', async () => {
    const token = await openSession();
    const batch = [
      JSON.stringify(['1', '1', 'echo:lp', 'phx_join', {}]),
      JSON.stringify(['1', '2', 'echo:lp', 'echo', { n: 1 }]),
      JSON.stringify([null, '3', 'phoenix', 'heartbeat', {}]),
    ].join('\n');
    expect(await post(endpoint({ token }), batch)).toEqual({ http: 200, body: { status: 200 } });
    expect(await post(endpoint({ token }), JSON.stringify(['1', '4', 'echo:lp', 'echo', { n: 2 }]), 'application/json')).toEqual({
      http: 200,
      body: { status: 200 },
    });
    const frames = await pollFrames(token, (f) => f.length >= 4);
    // The heartbeat is answered at once; the echo topic's frames in order.
    frames.sort((a, b) => Number(a[1]) - Number(b[1]));
    expect(frames).toEqual([
      ['1', '1', 'echo:lp', 'phx_reply', { status: 'ok', response: expect.objectContaining({ topic: 'echo:lp' }) }],
      ['1', '2', 'echo:lp', 'phx_reply', { status: 'ok', response: { n: 1 } }],
      [null, '3', 'phoenix', 'phx_reply', { status: 'ok', response: {} }],
      ['1', '4', 'echo:lp', 'phx_reply', { status: 'ok', response: { n: 2 } }],
    ]);
    // A broadcast wakes a waiting poll at once.
    const waiting = get(endpoint({ token }));
    await sleep(30);
    await rt.hub().broadcast('echo:lp', 'news', { hot: true });
    const { body } = await waiting;
    expect(body.status).toBe(200);
    expect(body.messages!.map((m) => JSON.parse(m))).toEqual([['1', null, 'echo:lp', 'news', { hot: true }]]);
  });

  it('binds the session token to the access token it connected with, and to nothing else', async () => {
    const other = (await rt.t.login('agent@example.com')).access;
    const token = await openSession();
    expect((await get(endpoint({ token }, other))).body).toEqual({ status: 410 });
    expect((await post(endpoint({ token }, other), '[]')).body).toEqual({ status: 410 });
    expect((await get(endpoint({ token: 'lp.guessed' }))).body).toEqual({ status: 410 });
    // The token may also travel in phoenix's header.
    const viaHeader = await get(`${rt.baseUrl}/socket/longpoll?vsn=2.0.0`, { 'x-phoenix-longpoll-token': token });
    expect(viaHeader.body).toEqual({ status: 204, token });
  });

  it('expires a session that is not polled; a poll in progress keeps it alive', async () => {
    const token = await openSession();
    expect(rt.hub().socketCount()).toBeGreaterThan(0);
    await get(endpoint({ token })); // 200 ms windows within the session's lifetime: alive throughout
    await get(endpoint({ token }));
    expect((await post(endpoint({ token }), JSON.stringify([null, '1', 'phoenix', 'heartbeat', {}]))).body.status).toBe(200);
    // Past the lifetime plus the sweep's period (a third of it): the session is closed by then.
    await sleep(2 * SESSION_TTL_MS);
    expect((await get(endpoint({ token }))).body).toEqual({ status: 410 });
    await waitFor(() => rt.hub().socketCount() === 0, 20_000, 'every session to expire');
  });

  it('checks the Origin and answers CORS pre-flights for allowed origins only', async () => {
    const evil = await get(endpoint(), { origin: 'https://evil.example.net' });
    expect(evil).toEqual({ http: 403, body: { status: 403 } });
    const own = await fetch(endpoint(), { headers: { origin: 'http://console.test' } });
    expect(own.headers.get('access-control-allow-origin')).toBe('http://console.test');
    expect(((await own.json()) as PollBody).status).toBe(410);
    const preflight = await fetch(`${rt.baseUrl}/socket/longpoll`, {
      method: 'OPTIONS',
      headers: { origin: 'http://console.test', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://console.test');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    await waitFor(() => rt.hub().socketCount() === 0, 20_000, 'sessions to expire');
  });
});
