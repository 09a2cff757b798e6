/**
 * Revocation closes open sockets, and the connect-time identity cache never outlives it:
 * - logout, a password change (other sessions), refresh-token reuse → every socket of the revoked
 *   sessions is closed and a reconnect with the old token is refused;
 * - a member removed from the company (or whose role changed) → their sockets for that company
 *   are closed; a removed member cannot reconnect, a re-roled one reconnects with the new role;
 * - the cache: repeated connects read the database once per TTL, an invalidation drops the entry
 *   and refuses a connect that was admitted before it;
 * - with Redis, a disconnect issued by one process closes the sockets held by another.
 */
import { authStatements } from '../auth/requireUser';
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Socket } from 'phoenix';
import { ConnectIdentityCache, type MemberIdentity } from './identityCache';
import { CLOSE, type PhoenixHub } from './hub';
import { connect, disconnect, join, phoenixSocket, sleep, startRealtimeApp, waitFor, type RealtimeTestApp, type TransportName } from './testSupport';
import { TEST_PASSWORD } from '../../testing/testApp';

describe('ConnectIdentityCache', () => {
  const member = (userId = 1, companyId = 2): MemberIdentity => ({
    userId,
    companyId,
    email: 'a@example.com',
    firstName: 'Ada',
    role: 'agent',
    permissions: {},
  });

  it('keeps sessions and members for the TTL only, and only for the right user', () => {
    let now = 0;
    const cache = new ConnectIdentityCache(10_000, 100, () => now);
    cache.rememberSession('s1', 1, cache.begin());
    cache.rememberMember(member(), cache.begin());
    expect(cache.hasSession('s1', 1)).toBe(true);
    expect(cache.hasSession('s1', 99)).toBe(false);
    expect(cache.member(1, 2)).toMatchObject({ userId: 1, companyId: 2 });
    expect(cache.member(1, 3)).toBeUndefined();
    now = 9_999;
    expect(cache.hasSession('s1', 1)).toBe(true);
    now = 10_000;
    expect(cache.hasSession('s1', 1)).toBe(false);
    expect(cache.member(1, 2)).toBeUndefined();
    expect(cache.size()).toEqual({ sessions: 0, members: 0 });
  });

  it('drops invalidated entries, never stores a lookup that raced an invalidation, and reports it stale', () => {
    const cache = new ConnectIdentityCache(10_000, 100, () => 0);
    cache.rememberSession('s1', 1, cache.begin());
    cache.rememberMember(member(), cache.begin());

    const since = cache.begin(); // a lookup starts…
    cache.invalidateSessions(['s1']); // …the session is revoked meanwhile…
    cache.rememberSession('s1', 1, since); // …its (stale) result is not kept
    expect(cache.hasSession('s1', 1)).toBe(false);
    expect(cache.isStale(since, 's1', 1, 2)).toBe(true);
    expect(cache.isStale(cache.begin(), 's1', 1, 2)).toBe(false);
    // The membership entry is untouched by a session revocation.
    expect(cache.member(1, 2)).toBeDefined();

    const before = cache.begin();
    cache.invalidateMember(1, 2);
    expect(cache.member(1, 2)).toBeUndefined();
    expect(cache.isStale(before, 'other', 1, 2)).toBe(true);
    expect(cache.isStale(before, 'other', 1, 3)).toBe(false);
    cache.rememberMember(member(), before);
    expect(cache.member(1, 2)).toBeUndefined();
  });

  it('stays bounded, and a TTL of 0 disables it', () => {
    const small = new ConnectIdentityCache(10_000, 3, () => 0);
    for (let i = 0; i < 10; i++) small.rememberSession(`s${i}`, i, small.begin());
    expect(small.size().sessions).toBe(3);
    expect(small.hasSession('s9', 9)).toBe(true);
    expect(small.hasSession('s0', 0)).toBe(false);

    const off = new ConnectIdentityCache(0);
    off.rememberSession('s1', 1, off.begin());
    expect(off.hasSession('s1', 1)).toBe(false);
  });

  it('still refuses a connect admitted before an invalidation it has since forgotten', () => {
    let now = 0;
    const cache = new ConnectIdentityCache(10_000, 100, () => now);
    const since = cache.begin();
    cache.invalidateSessions(['s1']);
    now = 120_000;
    cache.invalidateSessions(['s2']); // prunes the first mark
    expect(cache.isStale(since, 's1', 1, 2)).toBe(true);
    expect(cache.isStale(cache.begin(), 's1', 1, 2)).toBe(false);
  });
});

interface Watched {
  socket: Socket;
  closes: number[];
  errors: number;
  opens: number;
}

function watch(socket: Socket): Watched {
  const w: Watched = { socket, closes: [], errors: 0, opens: 0 };
  socket.onOpen(() => void w.opens++);
  socket.onError(() => void w.errors++);
  socket.onClose((event: unknown) => void w.closes.push((event as { code?: number } | undefined)?.code ?? 0));
  return w;
}

describe('revocation closes sockets (one process)', () => {
  let rt: RealtimeTestApp;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    rt = await startRealtimeApp();
  });
  afterAll(async () => rt.close());
  afterEach(async () => {
    await Promise.all(sockets.splice(0).map(disconnect));
    await waitFor(() => rt.hub().socketCount() === 0, 3_000, 'sockets to close');
    vi.restoreAllMocks();
  });

  async function newUser(role: 'agent' | 'admin' = 'agent'): Promise<{ email: string; userId: number; access: string; refresh: string }> {
    const email = `rev-${randomBytes(4).toString('hex')}@example.com`;
    const userId = await rt.t.seed.user({ email, firstName: 'Rev' });
    await rt.t.seed.member(rt.companyId, userId, role);
    const { access, refresh } = await rt.t.login(email);
    return { email, userId, access, refresh };
  }

  async function open(access: string, transport: TransportName = 'websocket'): Promise<Watched> {
    const socket = phoenixSocket(rt.endpoint, transport, { token: access, company_id: String(rt.companyId) });
    sockets.push(socket);
    const watched = watch(socket);
    await connect(socket);
    return watched;
  }

  /** Closed by the server, then every reconnect attempt refused (the client keeps trying every 50 ms). */
  async function expectClosedForGood(w: Watched, code?: number): Promise<void> {
    await waitFor(() => w.closes.length > 0, 3_000, 'the server to close the socket');
    if (code !== undefined) expect(w.closes[0]).toBe(code);
    const errorsAtClose = w.errors;
    await waitFor(() => w.errors >= errorsAtClose + 3, 3_000, 'refused reconnect attempts');
    expect(w.opens).toBe(1);
    expect(w.socket.isConnected()).toBe(false);
  }

  it('repeated connects read the session and the membership once, then use the cache', async () => {
    const user = await newUser();
    const sessions = rt.t.app.services.get('SessionService');
    const isActive = vi.spyOn(sessions, 'isActive');
    // The first connect reads session, user and membership in one statement (connect.ts).
    const lookup = vi.spyOn(authStatements(rt.t.app.services.get('Database')).member, 'execute');
    for (let i = 0; i < 3; i++) await open(user.access);
    expect(lookup).toHaveBeenCalledTimes(1);
    expect(isActive).not.toHaveBeenCalled();
    const hub = rt.hub() as PhoenixHub;
    expect(hub.identities.member(user.userId, rt.companyId)).toMatchObject({ userId: user.userId, email: user.email, role: 'agent' });
  });

  for (const transport of ['websocket', 'longpoll'] as TransportName[]) {
    it(`logout closes the sockets of the session and a reconnect with the old token is refused (${transport})`, async () => {
      const user = await newUser();
      const w = await open(user.access, transport);
      const channel = w.socket.channel('echo:logout', {});
      expect((await join(channel)).status).toBe('ok');
      // A second socket (its connect served by the cache): the logout must close it too.
      const second = await open(user.access, transport);

      const res = await rt.t.app.inject({ method: 'POST', url: '/account/logout/', headers: rt.t.headers(user.access), payload: {} });
      expect(res.statusCode, res.body).toBe(200);
      const code = transport === 'websocket' ? CLOSE.REVOKED : undefined;
      await Promise.all([expectClosedForGood(w, code), expectClosedForGood(second, code)]);
      expect(rt.hub().socketCount()).toBe(0);
    });
  }

  it('a password change closes the sockets of the other sessions only', async () => {
    const user = await newUser();
    const other = await rt.t.login(user.email); // a second device
    const here = await open(user.access);
    const there = await open(other.access);
    const res = await rt.t.app.inject({
      method: 'POST',
      url: '/account/password/change/',
      headers: rt.t.headers(user.access),
      payload: { old_password: TEST_PASSWORD, new_password1: 'Another-Horse-Battery-7', new_password2: 'Another-Horse-Battery-7' },
    });
    expect(res.statusCode, res.body).toBe(200);
    await expectClosedForGood(there, CLOSE.REVOKED);
    expect(here.closes).toEqual([]);
    expect(here.socket.isConnected()).toBe(true);
  });

  it('refresh-token reuse revokes the session and closes its sockets', async () => {
    const user = await newUser();
    const w = await open(user.access);
    const refresh = (token: string) => rt.t.app.inject({ method: 'POST', url: '/account/token/refresh/', payload: { refresh: token } });
    expect((await refresh(user.refresh)).statusCode).toBe(200);
    expect(w.closes).toEqual([]);
    expect((await refresh(user.refresh)).statusCode).toBe(401); // reuse: the whole session dies
    await expectClosedForGood(w, CLOSE.REVOKED);
  });

  it('removing a member closes their sockets for the company; they cannot reconnect', async () => {
    const admin = await newUser('admin');
    const agent = await newUser();
    const w = await open(agent.access);
    const adminSocket = await open(admin.access);
    const list = await rt.t.app.inject({ method: 'GET', url: `/api/members/?page_size=100`, headers: rt.t.headers(admin.access, rt.companyId) });
    const membership = (list.json() as { results: { id: number; user_id: number }[] }).results.find((m) => m.user_id === agent.userId)!;
    const res = await rt.t.app.inject({ method: 'DELETE', url: `/api/members/${membership.id}/`, headers: rt.t.headers(admin.access, rt.companyId) });
    expect(res.statusCode, res.body).toBeLessThan(300);
    await expectClosedForGood(w, CLOSE.MEMBERSHIP_CHANGED);
    expect(adminSocket.socket.isConnected()).toBe(true);
  });

  it('a role change closes their sockets; they reconnect by themselves with the new role', async () => {
    const admin = await newUser('admin');
    const agent = await newUser();
    const w = await open(agent.access);
    const channel = w.socket.channel('echo:role', {});
    const first = await join(channel);
    expect(first.response).toMatchObject({ role: 'agent' });
    const list = await rt.t.app.inject({ method: 'GET', url: `/api/members/?page_size=100`, headers: rt.t.headers(admin.access, rt.companyId) });
    const membership = (list.json() as { results: { id: number; user_id: number }[] }).results.find((m) => m.user_id === agent.userId)!;
    const res = await rt.t.app.inject({
      method: 'PATCH',
      url: `/api/members/${membership.id}/`,
      headers: rt.t.headers(admin.access, rt.companyId),
      payload: { role_id: 'manager' },
    });
    expect(res.statusCode, res.body).toBe(200);
    await waitFor(() => w.closes.length > 0, 3_000, 'the socket to close');
    expect(w.closes[0]).toBe(CLOSE.MEMBERSHIP_CHANGED);
    await waitFor(() => w.socket.isConnected() && w.opens === 2, 3_000, 'the reconnect');
    // The channel rejoins by itself; a fresh join answers with the new role.
    const again = await join(w.socket.channel('echo:role-after', {}));
    expect(again.response).toMatchObject({ role: 'manager' });
  });

  it("a change to a role's permissions closes the sockets of that role's members only; they reconnect with the new permissions", async () => {
    const admin = await newUser('admin');
    const agent = await newUser();
    const w = await open(agent.access);
    const adminSocket = await open(admin.access);
    const res = await rt.t.app.inject({
      method: 'PATCH',
      url: '/api/permissions/agent/',
      headers: rt.t.headers(admin.access, rt.companyId),
      payload: { permissions: { can_manage_chats: false } },
    });
    expect(res.statusCode, res.body).toBe(200);
    await waitFor(() => w.closes.length > 0, 3_000, 'the socket to close');
    expect(w.closes[0]).toBe(CLOSE.MEMBERSHIP_CHANGED);
    expect(adminSocket.closes).toEqual([]);
    await waitFor(() => w.socket.isConnected() && w.opens === 2, 3_000, 'the reconnect');
    const again = await join(w.socket.channel('echo:permissions-after', {}));
    expect(again.response).toMatchObject({ role: 'agent' });
  });

  it('refuses a socket whose admission raced the revocation', async () => {
    const user = await newUser();
    const hub = rt.hub() as PhoenixHub;
    const claims = await rt.t.app.services.get('TokenService').verify(user.access, 'access');
    const admitted = { since: hub.identities.begin(), sessionId: claims.sessionId, identity: { userId: user.userId, companyId: rt.companyId } };
    await hub.disconnect({ sessionId: claims.sessionId });
    expect(hub.isStale(admitted as Parameters<PhoenixHub['isStale']>[0])).toBe(true);
    expect(hub.isStale({ ...admitted, since: hub.identities.begin() } as Parameters<PhoenixHub['isStale']>[0])).toBe(false);
  });
});

const redisUrl = process.env.TEST_REDIS_URL;
(redisUrl ? describe : describe.skip)(
  redisUrl ? 'revocation across processes through Redis (TEST_REDIS_URL)' : 'revocation across processes: skipped because TEST_REDIS_URL is not set',
  () => {
    let a: RealtimeTestApp;
    let b: RealtimeTestApp;
    const sockets: Socket[] = [];

    beforeAll(async () => {
      const realtime = { redisPrefix: `test-rev-${randomBytes(4).toString('hex')}` };
      [a, b] = await Promise.all([startRealtimeApp({ redisUrl, realtime }), startRealtimeApp({ redisUrl, realtime })]);
    });
    afterAll(async () => {
      await Promise.all(sockets.map(disconnect));
      await Promise.all([a?.close(), b?.close()]);
    });

    async function openOnB(): Promise<Watched> {
      const socket = phoenixSocket(b.endpoint, 'websocket', { token: b.access, company_id: String(b.companyId) });
      sockets.push(socket);
      const w = watch(socket);
      await connect(socket);
      return w;
    }

    it('a session disconnect issued on A closes the socket held by B and clears B’s cache', async () => {
      const w = await openOnB();
      const hubB = b.hub() as PhoenixHub;
      const { sessionId } = await b.t.app.services.get('TokenService').verify(b.access, 'access');
      expect(hubB.identities.hasSession(sessionId, b.userId)).toBe(true);
      await a.hub().disconnect({ sessionId });
      await waitFor(() => w.closes.length > 0, 3_000, 'B to close the socket');
      expect(w.closes[0]).toBe(CLOSE.REVOKED);
      expect(hubB.identities.hasSession(sessionId, b.userId)).toBe(false);
      // B's session is still open in B's database: the client reconnects (read from the database again).
      await waitFor(() => w.socket.isConnected(), 3_000, 'the reconnect');
    });

    it('a member disconnect issued on A closes that member’s sockets on B, and only theirs', async () => {
      const w = await openOnB();
      const otherCompany = await b.t.seed.company('Other Co');
      await b.t.seed.member(otherCompany, b.userId, 'agent');
      const elsewhere = phoenixSocket(b.endpoint, 'websocket', { token: b.access, company_id: String(otherCompany) });
      sockets.push(elsewhere);
      const we = watch(elsewhere);
      await connect(elsewhere);

      await a.hub().disconnect({ userId: b.userId, companyId: b.companyId });
      await waitFor(() => w.closes.length > 0, 3_000, 'B to close the socket');
      expect(w.closes[0]).toBe(CLOSE.MEMBERSHIP_CHANGED);
      await sleep(200);
      expect(we.closes).toEqual([]);
    });
  },
);
