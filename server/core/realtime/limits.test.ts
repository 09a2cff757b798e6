/**
 * Socket connect and join limits (limits.ts) go through the app's shared RateLimiter. The counts are
 * brought to the limit directly on that limiter (the same keys the socket uses), so the tests do not
 * open hundreds of sockets; time moves with the ManualClock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RateRule } from '../auth/rateLimiter';
import { SOCKET_LIMITS } from './limits';
import { connect, disconnect, join, phoenixSocket, startRealtimeApp, type RealtimeTestApp } from './testSupport';

describe('socket connect and join limits', () => {
  let rt: RealtimeTestApp;
  beforeAll(async () => {
    rt = await startRealtimeApp();
  });
  afterAll(() => rt.close());

  const limiter = () => rt.t.app.services.get('RateLimiter');
  async function useUp(key: string, rule: RateRule): Promise<void> {
    for (let i = 0; i < rule.limit; i++) await limiter().hit(key, rule);
  }
  /** To the start of the next minute: every socket window (60 s) starts afresh. */
  const nextMinute = () => rt.t.clock.advance(60_000 - (rt.t.clock.now().getTime() % 60_000));
  const openLongPoll = (remoteAddress = '198.51.100.1', token = rt.access) =>
    rt.t.app.inject({
      method: 'GET',
      url: `/socket/longpoll?vsn=2.0.0&token=${encodeURIComponent(token)}&company_id=${rt.companyId}`,
      remoteAddress,
    });

  it('a user over the connect limit is answered 429 (long-poll body status 500: phoenix.js retries later), then admitted in the next window', async () => {
    nextMinute();
    const before = await openLongPoll();
    expect(before.statusCode).toBe(200);
    expect(before.json().status).toBe(410);

    await useUp(`socket:connect:user:${rt.userId}`, SOCKET_LIMITS.connectPerUser);
    const refused = await openLongPoll('198.51.100.2');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ status: 500 });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);

    const ws = await rt.t.app.inject({ method: 'GET', url: `/socket/websocket?vsn=2.0.0&token=${encodeURIComponent(rt.access)}&company_id=${rt.companyId}` });
    expect(ws.statusCode).toBe(429);
    expect(ws.json()).toEqual({ detail: 'Too many attempts. Please try again later.', code: 'throttled' });

    nextMinute();
    expect((await openLongPoll()).json().status).toBe(410);
  });

  it('one client address over the connect limit is refused before its token is looked at; other addresses are not', async () => {
    nextMinute();
    await useUp('socket:connect:client:203.0.113.9', SOCKET_LIMITS.connectPerClient);
    const refused = await openLongPoll('203.0.113.9', 'not-a-token');
    expect(refused.statusCode).toBe(429);
    expect((await openLongPoll('203.0.113.10', 'not-a-token')).statusCode).toBe(403);
    expect((await openLongPoll('203.0.113.10')).json().status).toBe(410);
  });

  it('joins over the per-user limit are refused with "rate limited"; the socket stays usable', async () => {
    nextMinute();
    const socket = phoenixSocket(rt.endpoint, 'websocket', { token: rt.access, company_id: String(rt.companyId) });
    await connect(socket);
    try {
      expect((await join(socket.channel('echo:first'))).status).toBe('ok');
      await useUp(`socket:join:user:${rt.userId}`, SOCKET_LIMITS.joinPerUser);
      // retry_after: the seconds left in the limit's window, for the client to join again then.
      expect(await join(socket.channel('echo:second'))).toEqual({ status: 'error', response: { reason: 'rate limited', retry_after: expect.any(Number) } });
      nextMinute();
      expect((await join(socket.channel('echo:third'))).status).toBe('ok');
    } finally {
      await disconnect(socket);
    }
  });
});
