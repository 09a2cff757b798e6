import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callDeadline } from './deadline';
import { nodeHttpCall } from './transport';

let server: http.Server;
let base: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/slow') return void setTimeout(() => res.end('late'), 2_000);
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      res.statusCode = req.url === '/limited' ? 429 : 200;
      res.setHeader('retry-after', '7');
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ method: req.method, auth: req.headers.authorization ?? null, body }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.closeAllConnections(); // the /slow answer is not waited for
  return new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('nodeHttpCall', () => {
  it('answers as fetch does: status, ok, headers by any case, the body as text', async () => {
    const answer = await nodeHttpCall(`${base}/echo`, { method: 'POST', headers: { authorization: 'Bearer t', 'content-type': 'application/json' }, body: '{"a":1}' });
    expect(answer.ok).toBe(true);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('Retry-After')).toBe('7');
    expect(answer.headers.get('x-none')).toBeNull();
    expect(JSON.parse(await answer.text())).toEqual({ method: 'POST', auth: 'Bearer t', body: '{"a":1}' });
  });

  it('is not ok outside 2xx', async () => {
    const answer = await nodeHttpCall(new URL('/limited', base));
    expect([answer.ok, answer.status]).toEqual([false, 429]);
    expect(await answer.text()).toContain('"method":"GET"');
  });

  it('gives up at its deadline with a TimeoutError, as AbortSignal.timeout does', async () => {
    const deadline = callDeadline(100);
    const failure = await nodeHttpCall(`${base}/slow`, { signal: deadline.signal }).catch((err: Error) => err);
    deadline.done();
    expect((failure as Error).name).toBe('TimeoutError');
  });
});

describe("the process's fetch", () => {
  it('still sends a Content-Length it is given (the npm undici, once imported here, took over its dispatcher and refused it)', async () => {
    const answer = await fetch(`${base}/echo`, { method: 'POST', headers: { 'content-length': '3', 'content-type': 'text/plain' }, body: 'a=1' });
    expect(answer.status).toBe(200);
  });
});

describe('callDeadline', () => {
  it('never fires once done', async () => {
    const deadline = callDeadline(20);
    deadline.done();
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(deadline.signal.aborted).toBe(false);
  });
});
