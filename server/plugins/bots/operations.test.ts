import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mappingFromSample, parseCurl, renderTemplate, runOperation, valueAtPath, type OperationRunOptions, type RunnableOperation } from './operations';

/** A local HTTP server standing in for a customer's API (loopback: allowed only when configured). */
let server: http.Server;
let base: string;
const seen: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      if (req.url!.startsWith('/slow')) return; // never answers
      if (req.url!.startsWith('/huge')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ data: 'x'.repeat(10_000) }));
        return;
      }
      if (req.url!.startsWith('/redirect')) {
        res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
        res.end();
        return;
      }
      if (req.url!.startsWith('/fail')) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end('{"status":"broken"}');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ order: { id: 42, status: 'shipped', items: [{ sku: 'A1' }] }, echo: body ? JSON.parse(body) : null }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const allowLoopback: OperationRunOptions = { timeoutMs: 1000, maxBytes: 4096, allowIps: ['127.0.0.1'] };
const op = (over: Partial<RunnableOperation>): RunnableOperation => ({ method: 'GET', url: `${base}/orders`, headers: {}, body: null, response_mapping: [], ...over });

describe('runOperation', () => {
  it('calls the URL with the variables (URL-encoded in the path and query, JSON-escaped in a JSON body) and maps the response', async () => {
    const result = await runOperation(
      op({
        method: 'POST',
        url: `${base}/orders/{{order_no}}?who={{customer.name}}`,
        headers: { Authorization: 'Bearer {{token}}' },
        body: '{"name": "{{customer.name}}", "note": "{{note}}"}',
        response_mapping: [
          { variable: 'status', path: 'order.status' },
          { variable: 'order_id', path: 'order.id' },
          { variable: 'sku', path: 'order.items.0.sku' },
          { variable: 'missing', path: 'order.nothing' },
        ],
      }),
      { order_no: 'A/1', 'customer.name': 'Zoë "Z" & co', token: 't0k\r\nX-Injected: 1', note: 'line\nbreak' },
      allowLoopback,
    );
    expect(result).toMatchObject({ ok: true, status: 200, error: null, variables: { status: 'shipped', order_id: '42', sku: 'A1' } });
    const last = seen[seen.length - 1];
    expect(last.method).toBe('POST');
    expect(last.url).toBe('/orders/A%2F1?who=Zo%C3%AB%20%22Z%22%20%26%20co');
    expect(last.headers.authorization).toBe('Bearer t0k  X-Injected: 1');
    expect(last.headers['x-injected']).toBeUndefined();
    expect(last.headers['content-type']).toBe('application/json');
    expect(JSON.parse(last.body)).toEqual({ name: 'Zoë "Z" & co', note: 'line\nbreak' });
  });

  it('refuses loopback and private addresses unless they are configured', async () => {
    const count = seen.length;
    const refused = await runOperation(op({}), {}, { ...allowLoopback, allowIps: [] });
    expect(refused).toMatchObject({ ok: false, status: 0, error: 'the address is private or reserved and not allowed' });
    const metadata = await runOperation(op({ url: 'http://169.254.169.254/latest/meta-data/' }), {}, { ...allowLoopback, allowIps: [] });
    expect(metadata).toMatchObject({ ok: false, error: 'the address is private or reserved and not allowed' });
    const byName = await runOperation(op({ url: base.replace('127.0.0.1', 'localhost') }), {}, { ...allowLoopback, allowIps: [] });
    expect(byName.ok).toBe(false);
    expect(seen.length).toBe(count);
  });

  it('does not follow redirects, stops at the timeout and at the size cap, reports HTTP errors without mapping', async () => {
    const redirect = await runOperation(op({ url: `${base}/redirect` }), {}, allowLoopback);
    expect(redirect).toMatchObject({ ok: false, status: 302, error: 'HTTP 302' });
    const slow = await runOperation(op({ url: `${base}/slow` }), {}, { ...allowLoopback, timeoutMs: 200 });
    expect(slow).toMatchObject({ ok: false, status: 0, error: 'timed out after 200 ms' });
    const huge = await runOperation(op({ url: `${base}/huge` }), {}, allowLoopback);
    expect(huge).toMatchObject({ ok: false, error: 'response larger than 4096 bytes' });
    const failed = await runOperation(op({ url: `${base}/fail`, response_mapping: [{ variable: 's', path: 'status' }] }), {}, allowLoopback);
    expect(failed).toMatchObject({ ok: false, status: 500, variables: {}, error: 'HTTP 500', response: { status: 'broken' } });
    expect(await runOperation(op({ url: 'http://user:pw@example.com/' }), {}, allowLoopback)).toMatchObject({ ok: false, error: 'credentials in the URL are not allowed' });
  });
});

describe('templates and examples', () => {
  it('renders variables per context and reads dotted paths', () => {
    expect(renderTemplate('Hi {{ name }}, {{unknown}}!', { name: 'Ann' })).toBe('Hi Ann, !');
    expect(renderTemplate('{"a":"{{v}}"}', { v: 'x"y' }, 'json')).toBe('{"a":"x\\"y"}');
    expect(renderTemplate('/q?x={{v}}', { v: 'a b&c' }, 'url')).toBe('/q?x=a%20b%26c');
    expect(valueAtPath({ a: [{ b: 1 }] }, 'a.0.b')).toBe(1);
    expect(valueAtPath({ a: 1 }, '__proto__.polluted')).toBeUndefined();
  });

  it('reads curl commands', () => {
    expect(parseCurl(`curl 'https://api.example.com/x?a=1&b=2'`)).toEqual({ method: 'GET', url: 'https://api.example.com/x?a=1&b=2', headers: {}, body: null });
    expect(parseCurl('curl -XPUT api.example.com/x --json \'{"a":1}\' -s')).toEqual({
      method: 'PUT',
      url: 'https://api.example.com/x',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: '{"a":1}',
    });
    expect(parseCurl('curl --request=DELETE --url https://api.example.com/x/$ID -H "X-Token: $TOKEN"')).toEqual({
      method: 'DELETE',
      url: 'https://api.example.com/x/$ID',
      headers: { 'X-Token': '$TOKEN' },
      body: null,
    });
  });

  it('maps sample responses to variables', () => {
    expect(mappingFromSample({ a: { b: 1, c: [1, 2] }, '9x': 3, 'bad key': 4 })).toEqual([
      { variable: 'a_b', path: 'a.b' },
      { variable: 'a_c_0', path: 'a.c.0' },
      { variable: 'v_9x', path: '9x' },
    ]);
    expect(mappingFromSample('')).toEqual([]);
  });
});
