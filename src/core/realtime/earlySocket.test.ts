// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Socket } from 'phoenix';
import { createAccountStore } from '../account/accountStore';
import { membership, testUser } from '../account/testUsers';
import { createConfig } from '../config/config';
import { createSessionStore } from '../session/sessionStore';
import { tokenValidFor } from '../session/testTokens';
import { createEarlyOrNewWebSocket, openEarlySocket, sameSocketUrl, savedSocketUrl, takeEarlySocket, websocketUrl } from './earlySocket';
import { createSharedRealtimeFactory } from './sharedRealtimeFactory';

/** A WebSocket that connects when told to, and calls its `on…` handlers for dispatched events as a browser's does. */
class FakeWebSocket extends EventTarget {
  static made: FakeWebSocket[] = [];
  readyState = 0;
  binaryType = 'blob';
  bufferedAmount = 0;
  sent: string[] = [];
  closed: { code?: number; reason?: string } | null = null;
  onopen: ((event: Event) => void) | null = null;
  onclose: ((event: Event) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  constructor(
    readonly url: string,
    readonly protocols?: string | string[],
  ) {
    super();
    FakeWebSocket.made.push(this);
  }
  override dispatchEvent(event: Event): boolean {
    (this as unknown as Record<string, ((e: Event) => void) | null>)[`on${event.type}`]?.(event);
    return super.dispatchEvent(event);
  }
  opens() {
    this.readyState = 1;
    this.dispatchEvent(new Event('open'));
  }
  send(data: string) {
    this.sent.push(data);
  }
  close(code?: number, reason?: string) {
    this.closed = { code, reason };
    this.readyState = 3;
  }
}

const loc = { protocol: 'https:', host: 'console.example.com' };

describe('the saved socket URL', () => {
  beforeEach(() => localStorage.clear());

  function signedIn(companies = [membership(2)], companyId = 2, token = tokenValidFor(600)) {
    createSessionStore().setTokens({ access: token });
    const account = createAccountStore();
    account.setUser(testUser(companies));
    account.selectCompany(companyId);
    return token;
  }

  it('is the one phoenix opens for the saved token and company, on the company translator_domain or the configured one', () => {
    const token = signedIn([membership(2, {}, { translator_domain: 'https://chat.acme.test' }), membership(3)]);
    expect(savedSocketUrl(localStorage, 'wss://default.test', loc)).toBe(`wss://chat.acme.test/socket/websocket?token=${token}&company_id=2&vsn=2.0.0`);
    createAccountStore().selectCompany(3);
    expect(savedSocketUrl(localStorage, 'wss://default.test', loc)).toBe(`wss://default.test/socket/websocket?token=${token}&company_id=3&vsn=2.0.0`);
    expect(savedSocketUrl(localStorage, '', loc)).toContain('wss://console.example.com/socket/websocket?');
  });

  it("is none for a membership whose pages hold no socket (the app's say)", () => {
    signedIn([membership(2, { can_view_chats: false })]);
    const holds = (company: { permissions?: Record<string, unknown> | null }) => company.permissions?.can_view_chats !== false;
    expect(savedSocketUrl(localStorage, '', loc, holds)).toBeNull();
    signedIn([membership(2, { can_view_chats: true })]);
    expect(savedSocketUrl(localStorage, '', loc, holds)).not.toBeNull();
  });

  it('is unknown signed out, with an expired token (the console refreshes it first) or without a company', () => {
    expect(savedSocketUrl(localStorage, '', loc)).toBeNull();
    signedIn([membership(2)], 2, tokenValidFor(10));
    expect(savedSocketUrl(localStorage, '', loc)).toBeNull();
    localStorage.clear();
    signedIn([membership(2)], 5);
    expect(savedSocketUrl(localStorage, '', loc)).toBeNull();
    localStorage.setItem('console.account', '{not json');
    expect(savedSocketUrl(localStorage, '', loc)).toBeNull();
  });

  it("names the URL of the realtime factory's own connect", () => {
    signedIn([membership(2, {}, { translator_domain: 'chat.acme.test' })]);
    const factory = createSharedRealtimeFactory({ config: createConfig({}, { socketDomain: '' }), session: createSessionStore(), account: createAccountStore() }, () => Socket);
    const phoenixUrl = factory.createSocket().endPointURL();
    const saved = savedSocketUrl(localStorage, '', location);
    expect(saved).not.toBeNull();
    expect(sameSocketUrl(saved!, phoenixUrl)).toBe(true);
  });
});

describe('sameSocketUrl', () => {
  it('compares the endpoint and the params, not their order or escaping', () => {
    expect(sameSocketUrl('wss://a.test/socket/websocket?token=t%2B1&company_id=2&vsn=2.0.0', 'wss://a.test/socket/websocket?vsn=2.0.0&company_id=2&token=t%2B1')).toBe(true);
    expect(sameSocketUrl('wss://a.test/socket/websocket?token=t1&company_id=2', 'wss://a.test/socket/websocket?token=t2&company_id=2')).toBe(false);
    expect(sameSocketUrl('wss://a.test/socket/websocket?token=t1', 'wss://b.test/socket/websocket?token=t1')).toBe(false);
    expect(sameSocketUrl('not a url', 'not a url')).toBe(false);
  });
});

describe('the early socket', () => {
  const url = websocketUrl('wss://a.test/socket', { token: 'tok', company_id: 2 });
  const Early = FakeWebSocket as unknown as typeof WebSocket;

  beforeEach(() => {
    FakeWebSocket.made = [];
    takeEarlySocket('wss://nothing.test/');
  });
  afterEach(() => vi.useRealTimers());

  it("is phoenix's connection when opened for its URL: an open socket is announced to phoenix, and the joins go out on it", async () => {
    openEarlySocket(url, Early);
    const early = FakeWebSocket.made[0];
    early.opens(); // before phoenix runs: its open event is gone by then
    const socket = new Socket('wss://a.test/socket', { params: { token: 'tok', company_id: 2 }, transport: createEarlyOrNewWebSocket(Early) });
    const opened = vi.fn();
    socket.onOpen(opened);
    socket.connect();
    socket.channel('room:1', {}).join();
    await Promise.resolve();
    expect(FakeWebSocket.made).toHaveLength(1);
    expect(opened).toHaveBeenCalledTimes(1);
    expect(early.sent.map((frame) => JSON.parse(frame)[3])).toContain('phx_join');

    // A reconnect is a new socket: the early one is taken once.
    expect(takeEarlySocket(url)).toBeNull();
  });

  it('still connecting, is taken and opens for phoenix', () => {
    openEarlySocket(url, Early);
    const socket = new Socket('wss://a.test/socket', { params: { token: 'tok', company_id: 2 }, transport: createEarlyOrNewWebSocket(Early) });
    const opened = vi.fn();
    socket.onOpen(opened);
    socket.connect();
    expect(FakeWebSocket.made).toHaveLength(1);
    FakeWebSocket.made[0].opens();
    expect(opened).toHaveBeenCalledTimes(1);
  });

  it('opened for another URL (a token refreshed meanwhile), is closed and phoenix opens its own', () => {
    openEarlySocket(websocketUrl('wss://a.test/socket', { token: 'old', company_id: 2 }), Early);
    const socket = new Socket('wss://a.test/socket', { params: { token: 'tok', company_id: 2 }, transport: createEarlyOrNewWebSocket(Early) });
    socket.connect();
    expect(FakeWebSocket.made).toHaveLength(2);
    expect(FakeWebSocket.made[0].closed).toEqual({ code: 1000, reason: 'not needed' });
    expect(FakeWebSocket.made[1].url).toBe(socket.endPointURL());
  });

  it('closed by the server before phoenix ran (a revoked session), is not taken', () => {
    openEarlySocket(url, Early);
    FakeWebSocket.made[0].readyState = 3;
    expect(takeEarlySocket(url)).toBeNull();
    const Transport = createEarlyOrNewWebSocket(Early);
    expect(new Transport(url)).toBe(FakeWebSocket.made[1]);
  });

  it('is closed when nobody takes it', () => {
    vi.useFakeTimers();
    openEarlySocket(url, Early, 15_000);
    vi.advanceTimersByTime(14_999);
    expect(FakeWebSocket.made[0].closed).toBeNull();
    vi.advanceTimersByTime(1);
    expect(FakeWebSocket.made[0].closed).toEqual({ code: 1000, reason: 'unclaimed' });
    expect(takeEarlySocket(url)).toBeNull();
  });
});
