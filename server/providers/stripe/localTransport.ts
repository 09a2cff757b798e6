/**
 * The SDK's transport to the fake Stripe mounted on this server (demo mode): the SDK builds every
 * request for host/port/protocol as configured; this client adds the fake's path prefix
 * (/dev/stripe, since the SDK has no base-path option) and sends it over HTTP to the port the app
 * listens on. A test app that never listens (app.inject only) gets the same request through
 * app.inject instead, so the SDK's code path is the same.
 */
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import Stripe from 'stripe';

export function localStripeHttpClient(app: FastifyInstance, prefix: string): Stripe.HttpClient {
  const fetchFn = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input.toString() : input.url);
    const path = `${prefix}${url.pathname}${url.search}`;
    const address = app.server.listening ? (app.server.address() as AddressInfo | string | null) : null;
    if (address && typeof address === 'object') {
      return fetch(`http://127.0.0.1:${address.port}${path}`, init);
    }
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, key) => (headers[key] = value));
    const res = await app.inject({
      method: (init?.method ?? 'GET') as 'GET',
      url: path,
      headers,
      ...(typeof init?.body === 'string' ? { payload: init.body } : {}),
    });
    const out = new Headers();
    for (const [key, value] of Object.entries(res.headers)) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) out.append(key, String(v));
    }
    return new Response(new Uint8Array(res.rawPayload), { status: res.statusCode, headers: out });
  };
  return Stripe.createFetchHttpClient(fetchFn as typeof fetch);
}
