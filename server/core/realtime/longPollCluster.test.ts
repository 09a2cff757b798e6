/**
 * Long-poll sessions served by any process (issue #21), by hand with fetch: two apps on one Redis (each
 * with its own database: a session request is checked against the session's record in Redis, not the
 * database). A session opened on A takes frames posted to either process and answers polls on either;
 * its connection stays on A. Once A stops beating, B answers 410 (phoenix.js then opens a new session).
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../clock';
import { NODE_DEAD_AFTER_MS } from './fanout';
import type { PhoenixHub } from './hub';
import { startRealtimeApp, waitFor, type RealtimeTestApp } from './testSupport';

const redisUrl = process.env.TEST_REDIS_URL;
const suite = redisUrl ? describe : describe.skip;

interface PollBody {
  status: number;
  token?: string;
  messages?: string[];
}

suite(redisUrl ? 'long-poll sessions across processes (TEST_REDIS_URL)' : 'long-poll sessions across processes: skipped because TEST_REDIS_URL is not set', () => {
  const clock = new ManualClock();
  let a: RealtimeTestApp;
  let b: RealtimeTestApp;
  const hub = (app: RealtimeTestApp) => app.hub() as PhoenixHub;

  beforeAll(async () => {
    const realtime = { redisPrefix: `test-lpc-${randomBytes(4).toString('hex')}`, longPollTimeoutMs: 200, longPollSessionTtlMs: 1_500, allowedOrigins: [] };
    [a, b] = await Promise.all([0, 1].map(() => startRealtimeApp({ redisUrl, realtime, overrides: { Clock: clock } })));
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  /** The access token and company are A's: B only checks the session's record. */
  function url(app: RealtimeTestApp, session?: string): string {
    const query = new URLSearchParams({ token: a.access, company_id: String(a.companyId), vsn: '2.0.0' });
    if (session) query.append('token', session);
    return `${app.baseUrl}/socket/longpoll?${query}`;
  }

  async function get(app: RealtimeTestApp, session?: string): Promise<PollBody> {
    const res = await fetch(url(app, session), { headers: { accept: 'application/json' } });
    expect(res.status).toBe(200);
    return (await res.json()) as PollBody;
  }

  async function post(app: RealtimeTestApp, session: string, frames: unknown[][]): Promise<PollBody> {
    const res = await fetch(url(app, session), { method: 'POST', headers: { 'content-type': 'application/x-ndjson' }, body: frames.map((f) => JSON.stringify(f)).join('\n') });
    return (await res.json()) as PollBody;
  }

  /** Polls the processes in turn until `until` holds; every frame seen, in order. */
  async function pollFrames(session: string, until: (frames: unknown[][]) => boolean): Promise<unknown[][]> {
    const frames: unknown[][] = [];
    for (let i = 0; i < 40 && !until(frames); i++) {
      const body = await get(i % 2 ? a : b, session);
      if (body.status === 200) frames.push(...body.messages!.map((m) => JSON.parse(m) as unknown[]));
      else expect(body.status).toBe(204);
    }
    return frames;
  }

  const replyTo = (ref: string) => (frames: unknown[][]) => frames.find((f) => f[1] === ref && f[3] === 'phx_reply');

  it('a session opened on A is served by B too: frames posted to either reach it, in order, and its replies come back through either', async () => {
    const opened = await get(a);
    expect(opened.status).toBe(410);
    const session = opened.token!;
    const socketsOnA = hub(a).socketCount();

    expect(await post(b, session, [['1', '1', 'echo:lp', 'phx_join', {}]])).toEqual({ status: 200 });
    const joined = await pollFrames(session, (f) => !!replyTo('1')(f));
    expect(replyTo('1')(joined)).toMatchObject(['1', '1', 'echo:lp', 'phx_reply', { status: 'ok' }]);

    expect(await post(a, session, [['1', '2', 'echo:lp', 'echo', { n: 1 }]])).toEqual({ status: 200 });
    expect(await post(b, session, [['1', '3', 'echo:lp', 'echo', { n: 2 }], ['1', '4', 'echo:lp', 'push', { n: 3 }]])).toEqual({ status: 200 });
    const frames = await pollFrames(session, (f) => !!replyTo('4')(f));
    const events = frames.map((f) => [f[1], f[3], (f[4] as { response?: unknown }).response ?? f[4]]);
    expect(events).toEqual([
      ['2', 'phx_reply', { n: 1 }],
      ['3', 'phx_reply', { n: 2 }],
      [null, 'pushed', { n: 3 }],
      ['4', 'phx_reply', {}],
    ]);
    // The connection and its channel live on A only.
    expect(hub(a).socketCount()).toBe(socketsOnA);
    expect(hub(b).socketCount()).toBe(0);

    // A broadcast from B reaches the session through A, whoever polls.
    await b.hub().broadcast('echo:lp', 'news', { from: 'b' });
    const news = await pollFrames(session, (f) => f.some((x) => x[3] === 'news'));
    expect(news.filter((x) => x[3] === 'news')).toEqual([['1', null, 'echo:lp', 'news', { from: 'b' }]]);
  });

  it('a session no process polls for its TTL is closed by its owner', async () => {
    const session = (await get(a)).token!;
    expect(hub(a).socketCount()).toBeGreaterThan(0);
    // Nobody polls any of A's sessions from now on (the record's TTL is Redis's, on the real clock).
    await waitFor(() => hub(a).socketCount() === 0, 20_000, 'the owner to close its expired sessions');
    expect((await get(b, session)).status).toBe(410);
  });

  it('a session whose owner stopped beating answers 410 on the other process', async () => {
    const session = (await get(a)).token!;
    expect(await post(b, session, [['1', '1', 'echo:dead', 'phx_join', {}]])).toEqual({ status: 200 });
    await pollFrames(session, (f) => !!replyTo('1')(f));
    hub(a)['liveness'].stop();
    clock.advance(NODE_DEAD_AFTER_MS + 1);
    expect(await get(b, session)).toEqual({ status: 410 });
    expect(await post(b, session, [['1', '2', 'echo:dead', 'echo', {}]])).toEqual({ status: 410 });
  });
});
