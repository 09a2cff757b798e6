// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { createAccountStore } from '../account/accountStore';
import { membership, testUser } from '../account/testUsers';
import { createConfig } from '../config/config';
import { createSessionStore } from '../session/sessionStore';
import { createRealtimeFactory, socketEndpoint } from './realtimeFactory';
import { createLazyRealtimeFactory, loadPhoenix } from './lazyRealtime';
import { Socket, type SocketConnectOption } from 'phoenix';
import { createSharedRealtimeFactory } from './sharedRealtimeFactory';
import { reconnectAfterMs } from './reconnect';

describe('socketEndpoint', () => {
  const https = { protocol: 'https:', host: 'console.example.com' };
  it('uses the domain, converting http(s) to ws(s), else the page origin', () => {
    expect(socketEndpoint('https://chat.example.com/', https)).toBe('wss://chat.example.com/socket');
    expect(socketEndpoint('http://localhost:4000', https)).toBe('ws://localhost:4000/socket');
    expect(socketEndpoint('wss://rt.example.com', https)).toBe('wss://rt.example.com/socket');
    expect(socketEndpoint('rt.example.com', https)).toBe('wss://rt.example.com/socket');
    expect(socketEndpoint('', https)).toBe('wss://console.example.com/socket');
    expect(socketEndpoint(null, { protocol: 'http:', host: 'localhost:8080' })).toBe('ws://localhost:8080/socket');
  });
});

describe('realtime factory', () => {
  beforeEach(() => localStorage.clear());

  it("prefers the company's translator_domain and sends token and company id as params", () => {
    const session = createSessionStore();
    const account = createAccountStore();
    session.setTokens({ access: 'tok' });
    account.setUser(testUser([membership(2, {}, { translator_domain: 'https://chat.acme.test' })]));
    account.selectCompany(2);
    const factory = createRealtimeFactory({ config: createConfig({}, { socketDomain: 'wss://default.test' }), session, account });
    const socket = factory.createSocket();
    expect(socket.endPointURL()).toContain('wss://chat.acme.test/socket/websocket?token=tok&company_id=2');
    account.setUser(testUser([membership(2)]));
    expect(factory.createSocket().endPointURL()).toContain('wss://default.test/socket/websocket');
  });
});

describe('one socket per company', () => {
  beforeEach(() => localStorage.clear());

  it("gives every consumer of a company a hold on one phoenix socket, with the spec's back-off, and another company its own", () => {
    const session = createSessionStore();
    const account = createAccountStore();
    session.setTokens({ access: 'tok' });
    account.setUser(testUser([membership(2), membership(3)]));
    account.selectCompany(2);
    const built: { endpoint: string; options?: Partial<SocketConnectOption> }[] = [];
    class CountedSocket extends Socket {
      constructor(endpoint: string, options?: Partial<SocketConnectOption>) {
        super(endpoint, options);
        built.push({ endpoint, options });
      }
    }
    const factory = createSharedRealtimeFactory({ config: createConfig({}, { socketDomain: 'wss://default.test' }), session, account }, () => CountedSocket);
    const bell = factory.createSocket();
    const inbox = factory.createSocket();
    expect(built).toHaveLength(1);
    // Spec §9: reconnect after 1, 2, 5, then every 10 s.
    expect(built[0].options?.reconnectAfterMs).toBe(reconnectAfterMs);
    expect(reconnectAfterMs(1)).toBe(1000);
    expect([2, 3, 4, 9].map(reconnectAfterMs)).toEqual([2000, 5000, 10000, 10000]);
    expect(inbox.endPointURL()).toBe(bell.endPointURL());
    account.selectCompany(3);
    expect(factory.createSocket().endPointURL()).toContain('company_id=3');
    expect(built).toHaveLength(2);
  });
});

describe('the core APIs’ lazy realtime factory', () => {
  beforeEach(() => localStorage.clear());

  it('builds the same socket once phoenix is loaded', async () => {
    const session = createSessionStore();
    const account = createAccountStore();
    session.setTokens({ access: 'tok' });
    const factory = createLazyRealtimeFactory({ config: createConfig({}, { socketDomain: 'wss://default.test' }), session, account });
    await loadPhoenix();
    expect(factory.createSocket().endPointURL()).toContain('wss://default.test/socket/websocket?token=tok');
  });
});
