/**
 * How adapters call outside HTTP services: the part of `fetch` they use (`HttpCall`, answered by an
 * `HttpAnswer`), so a test can still hand an adapter `fetch` itself or a fake of it, while the server
 * sends through undici's `request` (`undiciCall`).
 *
 * Why not the global `fetch` on hot paths: its WHATWG objects (Request, Headers, Response, web streams) cost
 * about three times the heap of `request` per call (measured: 15,000 calls of 150 ms, +104 MB of V8 heap with
 * fetch against +37 MB with undici's request and +29 MB with node:http). At 1,000 broadcast sends a second
 * those objects outlive the young generation and are promoted, and V8 keeps the old space it grew for them
 * (bench/broadcast/README.md). `request` is the API Node's own fetch is built on, from the same maintainers.
 */
import { Agent, request } from 'undici';

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

// One pool of keep-alive connections per origin for the whole process (undici's default limits: no cap on connections).
const agent = new Agent({ keepAliveTimeout: 10_000 });

export const undiciCall: HttpCall = async (url, init = {}) => {
  const answer = await request(url, {
    method: (init.method ?? 'GET') as 'GET',
    headers: init.headers,
    body: init.body,
    signal: init.signal,
    dispatcher: agent,
  });
  const status = answer.statusCode;
  const headers = answer.headers;
  return {
    ok: status >= 200 && status < 300,
    status,
    headers: {
      get(name: string) {
        const value = headers[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
      },
    },
    text: () => answer.body.text(),
    arrayBuffer: () => answer.body.arrayBuffer(),
  };
};
