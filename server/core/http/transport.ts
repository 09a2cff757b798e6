/**
 * How adapters call outside HTTP services: the part of `fetch` they use (`HttpCall`, answered by an
 * `HttpAnswer`), so a test can still hand an adapter `fetch` itself or a fake of it, while the server
 * sends through `node:http` / `node:https` with keep-alive agents (`nodeHttpCall`).
 *
 * Why not the global `fetch` on hot paths: its WHATWG objects (Request, Headers, Response, web streams) cost
 * about three times the heap per call (measured: 15,000 calls of 150 ms, +104 MB of V8 heap with fetch,
 * +37 MB with undici's request, +29 MB with node:http). At 1,000 broadcast sends a second those objects
 * outlive the young generation and are promoted, and V8 keeps the old space it grew for them
 * (bench/broadcast/README.md).
 * Why not undici's `request`, the library: importing the npm undici installs its Agent as the process's global
 * dispatcher, which Node 20's built-in fetch then uses, and the two versions disagree (fetch with a
 * Content-Length header failed with "invalid content-length header": the local Stripe's SDK calls broke).
 * Hence this small client on node's own modules, which fetch does not share.
 */
import http from 'node:http';
import https from 'node:https';

export interface HttpAnswer {
  ok: boolean;
  status: number;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
  arrayBuffer(): Promise<ArrayBuffer>;
}

export interface HttpCallInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  signal?: AbortSignal;
}

/** `fetch` fits this type, so tests may pass it (or a fake of it) wherever an adapter takes an HttpCall. */
export type HttpCall = (url: URL | string, init?: HttpCallInit) => Promise<HttpAnswer>;

// Keep-alive connections per origin for the whole process.
const agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };

export const nodeHttpCall: HttpCall = (url, init = {}) =>
  new Promise((resolve, reject) => {
    const target = typeof url === 'string' ? new URL(url) : url;
    const secure = target.protocol === 'https:';
    const { signal } = init;
    // An aborted call fails with the signal's reason (a TimeoutError from callDeadline), as fetch does.
    const failed = (err: unknown) => (signal?.aborted ? signal.reason : err);
    const request = (secure ? https : http).request(target, { method: init.method ?? 'GET', headers: init.headers, agent: secure ? agents.https : agents.http, signal }, (response) => {
      // The body is read at once (the connection goes back to the pool); text() and arrayBuffer() wait for it.
      const chunks: Buffer[] = [];
      const body = new Promise<Buffer>((done, fail) => {
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => done(Buffer.concat(chunks)));
        response.on('error', (err) => fail(failed(err)));
        response.on('aborted', () => fail(failed(new Error('the answer was cut off'))));
      });
      body.catch(() => {}); // read or not, a cut-off body is reported by text()/arrayBuffer() only
      const status = response.statusCode ?? 0;
      resolve({
        ok: status >= 200 && status < 300,
        status,
        headers: {
          get(name: string) {
            const value = response.headers[name.toLowerCase()];
            return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
          },
        },
        text: async () => (await body).toString('utf8'),
        arrayBuffer: async () => {
          const bytes = await body;
          return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
        },
      });
    });
    request.on('error', (err) => reject(failed(err)));
    request.end(init.body);
  });
