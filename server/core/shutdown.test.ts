/**
 * The drain on SIGTERM (core/shutdown.ts, run by server/main.ts), on the real app listening on a port: the
 * readiness flips to draining, sockets are closed with the reconnect hint, the listener stops accepting, a
 * request in flight finishes, and only then do the shutdown hooks (the plugins' background jobs) run; a
 * request that outlives the grace has its connection cut and the close goes on.
 */
import type { Socket } from 'phoenix';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/testApp';
import { access } from './access';
import { drainApp } from './shutdown';
import { connect, phoenixSocket, waitFor } from './realtime/testSupport';
import { CLOSE } from './realtime/hub';

interface Harness {
  t: TestApp;
  baseUrl: string;
  /** What happened, in order: the slow request starting, the shutdown hooks running. */
  events: string[];
  release(): void;
}

async function start(): Promise<Harness> {
  const events: string[] = [];
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const t = await createTestApp({
    onBuild(app) {
      // A request the test holds in flight for as long as it wants.
      app.get('/api/test/slow/', { config: { access: access.public('test only: a request in flight during the drain') } }, async () => {
        events.push('request started');
        await gate;
        return { done: true };
      });
      // Registered after the plugins' own: stands for their background jobs' stop hooks.
      app.addHook('onClose', async () => void events.push('shutdown hooks'));
    },
  });
  const baseUrl = await t.listen();
  return { t, baseUrl, events, release };
}

describe('drain on SIGTERM (drainApp)', () => {
  let h: Harness | undefined;
  let socket: Socket | undefined;
  afterEach(async () => {
    socket?.disconnect();
    socket = undefined;
    h?.release();
    // The app is closed by the drain; the database is closed here.
    await h?.t.close();
    h = undefined;
  });

  it('flips readiness, closes sockets with a reconnect hint, stops accepting, finishes the request in flight, then runs the shutdown hooks', async () => {
    h = await start();
    const { t, baseUrl, events } = h;
    const userId = await t.seed.user({ email: 'agent@example.com' });
    const companyId = await t.seed.company('Acme');
    await t.seed.member(companyId, userId);
    const { access: token } = await t.login('agent@example.com');
    const closes: { code: number; reason: string }[] = [];
    // No reconnect during the test: the hint is the close code itself (1001 going away: phoenix.js reconnects on anything but a clean 1000).
    socket = phoenixSocket(`${baseUrl.replace('http', 'ws')}/socket`, 'websocket', { token, company_id: String(companyId) }, { reconnectAfterMs: () => 60_000 });
    socket.onClose((event: unknown) => void closes.push(event as { code: number; reason: string }));
    await connect(socket);

    const inFlight = fetch(`${baseUrl}/api/test/slow/`);
    await waitFor(() => events.includes('request started'), 10_000, 'the slow request to start');

    const drained = drainApp(t.app, { graceMs: 60_000 });
    expect(t.app.readiness.isDraining).toBe(true);
    await waitFor(() => closes.length > 0, 10_000, 'the socket to close');
    expect(closes[0]).toMatchObject({ code: CLOSE.GOING_AWAY, reason: 'server shutting down' });
    await waitFor(() => !t.app.server.listening, 10_000, 'the listener to close');
    await expect(fetch(`${baseUrl}/api/health/`)).rejects.toThrow();
    // The request is still running, so the background jobs have not been stopped.
    expect(events).toEqual(['request started']);

    h.release();
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ done: true });
    expect(res.headers.get('connection')).toBe('close');
    expect(await drained).toEqual({ cut: false });
    expect(events).toEqual(['request started', 'shutdown hooks']);
  });

  it('cuts a request still running at the end of the grace, and the close goes on', async () => {
    h = await start();
    const { t, baseUrl, events } = h;
    const inFlight = fetch(`${baseUrl}/api/test/slow/`);
    await waitFor(() => events.includes('request started'), 10_000, 'the slow request to start');
    expect(await drainApp(t.app, { graceMs: 50 })).toEqual({ cut: true });
    await expect(inFlight).rejects.toThrow();
    expect(events).toEqual(['request started', 'shutdown hooks']);
  });
});
