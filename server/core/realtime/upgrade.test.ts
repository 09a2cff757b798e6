/**
 * The websocket upgrade admitted before Fastify's router (./upgrade.ts): what it reads of the raw request as
 * Fastify would (the query, the client's address), and the HTTP answers of a refused or foreign upgrade.
 */
import type { IncomingMessage } from 'node:http';
import { request } from 'node:http';
import fc from 'fast-check';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { clientAddress, parseQuery } from './upgrade';
import { startRealtimeApp, type RealtimeTestApp } from './testSupport';

function rawRequest(remoteAddress: string, forwardedFor?: string): IncomingMessage {
  return { socket: { remoteAddress }, connection: { remoteAddress }, headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {} } as unknown as IncomingMessage;
}

describe('what the upgrade reads of the raw request', () => {
  it('parses the query as Fastify does: a repeated key is a list', () => {
    expect(parseQuery('token=a&vsn=2.0.0&token=b&token=c')).toEqual({ token: ['a', 'b', 'c'], vsn: '2.0.0' });
    expect(parseQuery('')).toEqual({});
    // Object's own properties are keys like any other; a malformed escape stays as sent.
    expect(Object.entries(parseQuery('constructor=a&__proto__=b&toString=c'))).toEqual([['constructor', 'a'], ['__proto__', 'b'], ['toString', 'c']]);
    expect(parseQuery('token=%E0%A4%A&vsn=%zz')).toEqual({ token: '%E0%A4%A', vsn: '%zz' });
  });

  it('reads any query string as a routed request reads request.query', async () => {
    const app = Fastify();
    app.get('/q', async (request) => ({ query: request.query }));
    const port = await app.listen({ port: 0, host: '127.0.0.1' }).then((url) => Number(new URL(url).port));
    const routed = (raw: string) =>
      new Promise<unknown>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path: `/q?${raw}` }, (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => resolve((JSON.parse(body) as { query: unknown }).query));
        });
        req.on('error', reject);
        req.end();
      });
    // Keys and values of the characters a request line may carry unescaped, escapes well-formed and not, and the names of Object's own properties.
    const part = fc.oneof(
      fc.constantFrom('token', 'vsn', 'company_id', 'constructor', '__proto__', 'toString', 'hasOwnProperty', ''),
      fc.stringMatching(/^[A-Za-z0-9._~!$'()*+,;:@/?=-]{0,6}$/),
      fc.constantFrom('%20', '%2B', '%26', '%3D', '%C3%A9', '%E0%A4%A', '%zz', '%', '%%', '%F0%9F%98%80', '%00'),
    );
    const pair = fc.tuple(fc.array(part, { minLength: 1, maxLength: 3 }), fc.option(fc.array(part, { maxLength: 3 }), { nil: undefined }));
    const queryString = fc.array(pair, { maxLength: 5 }).map((pairs) => pairs.map(([key, value]) => (value === undefined ? key.join('') : `${key.join('')}=${value.join('')}`)).join('&'));
    try {
      await fc.assert(
        fc.asyncProperty(queryString, async (raw) => {
          expect(JSON.parse(JSON.stringify(parseQuery(raw)))).toEqual(await routed(raw));
        }),
        { numRuns: 300 },
      );
    } finally {
      await app.close();
    }
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
