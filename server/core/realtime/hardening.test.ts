/**
 * The socket server under hostile or broken clients (raw `ws`, speaking the wire format by hand):
 * malformed and oversized frames, the rate limit, silent sockets, slow readers, Origin, vsn,
 * and Phoenix's finer points (unmatched topics, duplicate joins, stale join refs).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { sleep, startRealtimeApp, waitFor, type RealtimeTestApp } from './testSupport';

type Frame = [string | null, string | null, string, string, Record<string, unknown>];

class RawClient {
  readonly frames: Frame[] = [];
  closed: { code: number; reason: string } | null = null;
  constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => this.frames.push(JSON.parse(data.toString())));
    ws.on('close', (code, reason) => (this.closed = { code, reason: reason.toString() }));
    ws.on('error', () => {});
  }
  send(frame: unknown): void {
    this.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }
  async reply(ref: string, timeoutMs = 2_000): Promise<Frame> {
    await waitFor(() => this.frames.some((f) => f[1] === ref && f[3] === 'phx_reply'), timeoutMs, `reply ${ref}`);
    return this.frames.find((f) => f[1] === ref && f[3] === 'phx_reply')!;
  }
  async event(topic: string, event: string, timeoutMs = 2_000): Promise<Frame> {
    await waitFor(() => this.frames.some((f) => f[2] === topic && f[3] === event), timeoutMs, `${event} on ${topic}`);
    return this.frames.find((f) => f[2] === topic && f[3] === event)!;
  }
}

let rt: RealtimeTestApp;
const clients: RawClient[] = [];

function url(params: Record<string, string> = {}): string {
  const query = new URLSearchParams({ token: rt.access, company_id: String(rt.companyId), vsn: '2.0.0', ...params });
  return `${rt.endpoint}/websocket?${query}`;
}

function open(params: Record<string, string> = {}, headers: Record<string, string> = {}): Promise<RawClient> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url(params), { headers });
    const client = new RawClient(ws);
    clients.push(client);
    ws.once('open', () => resolve(client));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

beforeAll(async () => {
  rt = await startRealtimeApp({
    realtime: {
      idleTimeoutMs: 300,
      maxFrameBytes: 4 * 1024,
      rateLimitPerSecond: 20,
      rateLimitBurst: 10,
      rateLimitCloseAfter: 30,
      maxBufferedBytes: 256 * 1024,
      allowedOrigins: ['https://inbox.example.com'],
    },
  });
});
afterEach(async () => {
  for (const client of clients.splice(0)) client.ws.terminate();
  await waitFor(() => rt.hub().socketCount() === 0, 2_000, 'sockets to close');
});
afterAll(async () => rt.close());

describe('connect', () => {
  it('refuses other serializer versions and missing credentials with an HTTP status before the upgrade', async () => {
    await expect(open({ vsn: '1.0.0' })).rejects.toThrow('HTTP 400');
    await expect(open({ vsn: '' })).rejects.toThrow('HTTP 400');
    await expect(open({ token: '' })).rejects.toThrow('HTTP 403');
    const res = await fetch(url({ vsn: '3.0.0' }).replace('ws', 'http'));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ detail: expect.stringContaining('vsn=2.0.0'), code: 'unsupported_vsn' });
  });

  it('refuses a revoked session', async () => {
    const { access } = await rt.t.login('agent@example.com');
    const ok = await open({ token: access });
    ok.ws.close();
    await rt.t.app.inject({ method: 'POST', url: '/account/logout/', headers: { authorization: `Bearer ${access}` }, payload: {} });
    const { sessions } = await import('../db/schema');
    const { isNull } = await import('drizzle-orm');
    // Revoke every session but keep the suite's own token usable: re-login afterwards.
    await rt.t.db.update(sessions).set({ revokedAt: new Date() }).where(isNull(sessions.revokedAt));
    await expect(open({ token: access })).rejects.toThrow('HTTP 403');
    rt.access = (await rt.t.login('agent@example.com')).access;
  });

  it('checks the Origin: own host, PUBLIC_URL and SOCKET_ALLOWED_ORIGINS pass, others are refused', async () => {
    const host = new URL(rt.baseUrl).host;
    await expect(open({}, { origin: 'https://evil.example.net' })).rejects.toThrow('HTTP 403');
    for (const origin of [`http://${host}`, 'http://console.test', 'https://inbox.example.com']) {
      const client = await open({}, { origin });
      client.ws.close();
    }
  });
});

describe('frames', () => {
  it('answers malformed frames with an error reply when a ref is readable, ignores the rest, and keeps serving', async () => {
    const client = await open();
    client.send('not json');
    client.send('{"an":"object"}');
    client.send('[1,2]');
    client.send([null, 'r1', 'echo:1', 'phx_join']);
    client.send([null, 'r2', 'echo:1', 'phx_join', 'not an object']);
    client.send([null, 'r3', 42, 'phx_join', {}]);
    client.send([null, 'r4', 'echo:1', 7, {}]);
    client.ws.send(Buffer.from([0, 1, 2, 6, 3, 0x31, 0x72, 0x35, ...Buffer.from('echo:1'), ...Buffer.from('abc'), 1, 2]), { binary: true });
    expect((await client.reply('r1'))[4]).toEqual({ status: 'error', response: { reason: 'malformed message' } });
    expect((await client.reply('r2'))[4]).toEqual({ status: 'error', response: { reason: 'payload must be an object' } });
    expect((await client.reply('r3'))[2]).toBe('phoenix');
    expect((await client.reply('r4'))[4]).toEqual({ status: 'error', response: { reason: 'malformed message' } });
    expect((await client.reply('r5'))[4]).toEqual({ status: 'error', response: { reason: 'binary payloads are not supported' } });
    client.send(['1', '1', 'echo:1', 'phx_join', {}]);
    expect((await client.reply('1'))[4]).toMatchObject({ status: 'ok' });
    client.send(['1', '2', 'phoenix', 'heartbeat', {}]);
    expect(await client.reply('2')).toEqual([null, '2', 'phoenix', 'phx_reply', { status: 'ok', response: {} }]);
  });

  it('closes the socket on an oversized frame (1009) without affecting others', async () => {
    const big = await open();
    const other = await open();
    big.send(['1', '1', 'echo:1', 'phx_join', { blob: 'x'.repeat(8 * 1024) }]);
    await waitFor(() => big.closed !== null, 2_000, 'the close');
    expect(big.closed!.code).toBe(1009);
    other.send(['1', '1', 'echo:1', 'phx_join', {}]);
    expect((await other.reply('1'))[4]).toMatchObject({ status: 'ok' });
  });

  it('pushes to a topic that is not joined get {reason: "unmatched topic"}; leaving one is ok', async () => {
    const client = await open();
    client.send([null, '1', 'echo:9', 'echo', {}]);
    expect(await client.reply('1')).toEqual([null, '1', 'echo:9', 'phx_reply', { status: 'error', response: { reason: 'unmatched topic' } }]);
    client.send(['5', '2', 'echo:9', 'phx_leave', {}]);
    expect((await client.reply('2'))[4]).toEqual({ status: 'ok', response: {} });
  });

  it('a second join of a joined topic closes the first (phx_close with its join_ref) and ignores stale join refs', async () => {
    const client = await open();
    client.send(['1', '1', 'echo:dup', 'phx_join', {}]);
    await client.reply('1');
    client.send(['2', '2', 'echo:dup', 'phx_join', {}]);
    const second = await client.reply('2');
    expect(second[0]).toBe('2');
    expect(client.frames.find((f) => f[3] === 'phx_close')).toEqual(['1', '1', 'echo:dup', 'phx_close', {}]);
    await waitFor(() => rt.terminated.includes('echo:dup'), 1_000, 'terminate of the first join');
    client.send(['1', '3', 'echo:dup', 'echo', { stale: true }]);
    client.send(['2', '4', 'echo:dup', 'echo', { fresh: true }]);
    expect((await client.reply('4'))[4]).toEqual({ status: 'ok', response: { fresh: true } });
    expect(client.frames.some((f) => f[1] === '3')).toBe(false);
    // One broadcast per socket, under the current join_ref.
    await rt.hub().broadcast('echo:dup', 'news', { n: 1 });
    await client.event('echo:dup', 'news');
    await sleep(50);
    expect(client.frames.filter((f) => f[3] === 'news')).toEqual([['2', null, 'echo:dup', 'news', { n: 1 }]]);
  });
});

describe('limits', () => {
  it('rate limit: over the bucket → error replies; sustained abuse → the socket is closed', async () => {
    const client = await open();
    for (let i = 0; i < 15; i++) client.send([null, `h${i}`, 'phoenix', 'heartbeat', {}]);
    await client.reply('h14');
    const statuses = client.frames.map((f) => (f[4] as { status: string }).status);
    expect(statuses.filter((s) => s === 'ok').length).toBeGreaterThanOrEqual(10);
    expect(client.frames.find((f) => (f[4] as { status: string }).status === 'error')?.[4]).toEqual({ status: 'error', response: { reason: 'rate limited' } });
    expect(client.closed).toBeNull();

    for (let i = 0; i < 100; i++) client.send([null, `x${i}`, 'phoenix', 'heartbeat', {}]);
    await waitFor(() => client.closed !== null, 2_000, 'the close');
    expect(client.closed).toEqual({ code: 4429, reason: 'rate limit exceeded' });
  });

  it('closes a socket that stays silent past the idle timeout (missed heartbeats)', async () => {
    const silent = await open();
    const chatty = await open();
    const timer = setInterval(() => chatty.send([null, String(Date.now()), 'phoenix', 'heartbeat', {}]), 100);
    try {
      await waitFor(() => silent.closed !== null, 2_000, 'the idle close');
      expect(silent.closed).toEqual({ code: 4408, reason: 'heartbeat timeout' });
      expect(chatty.closed).toBeNull();
    } finally {
      clearInterval(timer);
    }
  });

  it('drops a client that does not read (send buffer over the limit)', async () => {
    const slow = await open();
    slow.send(['1', '1', 'echo:flood', 'phx_join', {}]);
    await slow.reply('1');
    // Stop reading: the kernel buffers fill, then the server's own buffer grows.
    (slow.ws as unknown as { _socket: { pause(): void } })._socket.pause();
    // It keeps heartbeating, so only its unread backlog can get it dropped.
    const heartbeat = setInterval(() => slow.send([null, 'hb', 'phoenix', 'heartbeat', {}]), 100);
    const chunk = 'y'.repeat(3_000);
    try {
      const started = Date.now();
      for (let i = 0; i < 4_000 && rt.hub().socketCount() > 0; i++) {
        await rt.hub().broadcast('echo:flood', 'bulk', { i, chunk });
        if (i % 100 === 0) await sleep(1);
      }
      expect(rt.hub().socketCount()).toBe(0);
      expect(Date.now() - started).toBeLessThan(2_000);
    } finally {
      clearInterval(heartbeat);
    }
  });
});
