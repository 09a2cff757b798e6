/**
 * The websocket upgrade admitted before Fastify's router (./upgrade.ts): what it reads of the raw request as
 * Fastify would (the query, the client's address), and the HTTP answers of a refused or foreign upgrade.
 */
import type { IncomingMessage } from 'node:http';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { clientAddress, parseQuery } from './upgrade';
import { startRealtimeApp, type RealtimeTestApp } from './testSupport';

function rawRequest(remoteAddress: string, forwardedFor?: string): IncomingMessage {
  return { socket: { remoteAddress }, connection: { remoteAddress }, headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {} } as unknown as IncomingMessage;
}

describe('what the upgrade reads of the raw request', () => {
  it('parses the query as Fastify does: a repeated key is a list', () => {
    expect(parseQuery(new URLSearchParams('token=a&vsn=2.0.0&token=b&token=c'))).toEqual({ token: ['a', 'b', 'c'], vsn: '2.0.0' });
    expect(parseQuery(new URLSearchParams(''))).toEqual({});
  });

  it('reads the client address under each trustProxy setting, as request.ip does', () => {
    const behindProxy = rawRequest('10.0.0.2', '203.0.113.7, 10.0.0.9');
    expect(clientAddress(false)(behindProxy)).toBe('10.0.0.2');
    expect(clientAddress(true)(behindProxy)).toBe('203.0.113.7');
    // One hop believed (the load balancer): the address it saw.
    expect(clientAddress(1)(behindProxy)).toBe('10.0.0.9');
    expect(clientAddress(['10.0.0.0/8'])(behindProxy)).toBe('203.0.113.7');
    expect(clientAddress(['loopback'])(behindProxy)).toBe('10.0.0.2');
  });
});

describe('the HTTP answers of an upgrade', () => {
  let rt: RealtimeTestApp;
  beforeAll(async () => {
    rt = await startRealtimeApp();
  });
  afterAll(async () => rt.close());

  /** An upgrade request whose answer is not a 101: its status, headers and JSON body. */
  function refusedUpgrade(path: string): Promise<{ status: number; headers: Record<string, unknown>; body: unknown }> {
    return new Promise((resolve, reject) => {
      // The path as given (a URL string would have its dot segments resolved by the client).
      const { hostname, port } = new URL(rt.baseUrl);
      const req = request({
        hostname,
        port,
        path,
        headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==' },
      });
      req.on('upgrade', () => reject(new Error('upgraded')));
      req.on('response', (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text) }));
      });
      req.on('error', reject);
      req.end();
    });
  }

  it('a refused connect is the API error it was, as JSON, and the socket is closed', async () => {
    const refused = await refusedUpgrade(`/socket/websocket?vsn=2.0.0&company_id=${rt.companyId}&token=not-a-token`);
    expect(refused.status).toBe(403);
    expect(refused.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(refused.headers.connection).toBe('close');
    expect(refused.body).toEqual({ detail: expect.any(String), code: expect.any(String) });
  });

  it('the socket path spelled otherwise is still the socket: admitted as the URL parser reads it', async () => {
    for (const path of ['/socket/websocket?vsn=1.0.0', '/socket/elsewhere/../websocket?vsn=1.0.0', '/socket/./websocket?vsn=1.0.0']) {
      const refused = await refusedUpgrade(path);
      expect(refused.status, path).toBe(400);
      expect(refused.body, path).toMatchObject({ code: 'unsupported_vsn' });
    }
  });

  it('an upgrade to another path is routed by Fastify: the API 404', async () => {
    const notFound = await refusedUpgrade('/socket/elsewhere');
    expect(notFound.status).toBe(404);
    expect(notFound.body).toEqual({ detail: 'Not found.', code: 'not_found' });
  });

  it('an admitted upgrade is a socket; a plain GET of the path is told to upgrade', async () => {
    const socket = new WebSocket(`${rt.endpoint}/websocket?vsn=2.0.0&company_id=${rt.companyId}&token=${rt.access}`);
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    socket.close();
    const plain = await fetch(`${rt.baseUrl}/socket/websocket?vsn=2.0.0&company_id=${rt.companyId}&token=${rt.access}`);
    expect(plain.status).toBe(400);
    expect(await plain.json()).toEqual({ detail: 'Expected a websocket upgrade.', code: 'upgrade_required' });
  });
});
