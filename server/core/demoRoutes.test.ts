import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify, { type HTTPMethods } from 'fastify';
import { createTestApp, type TestApp } from '../testing/testApp';
import { loadConfig, type AppConfig } from './config';
import { registerDemoRoutes } from './demoRoutes';
import { registerErrorHandling } from './errors';
import { OutboxEmailSender } from '../providers/email/outboxSender';
import { NOT_CONFIGURED_MESSAGES } from '../providers/meta/notConfigured';

interface Route {
  method: HTTPMethods;
  url: string;
}

/** Every route the demo mounts, read from a demo-mode registration's own route table. */
async function demoRouteTable(config: AppConfig, outbox: OutboxEmailSender): Promise<Route[]> {
  const app = Fastify();
  // The app's zod validator compiler (the outbox's query schema is zod).
  registerErrorHandling(app);
  const routes: Route[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method: method as HTTPMethods, url: route.url });
  });
  await registerDemoRoutes(app, config, outbox);
  await app.ready();
  await app.close();
  return routes;
}

/** A concrete URL for a route pattern (`/graph/:version/:id` → `/graph/x1/x1`). */
function concrete(url: string): string {
  return url.replace(/:[^/]+/g, 'x1').replace(/\*$/, 'x1');
}

/** What a production-like `loadConfig` decides: HOST=0.0.0.0 and no DEMO_MODE, META_*, GOOGLE_* or SMTP_URL. */
function productionLike(): Partial<AppConfig> {
  const env = { HOST: '0.0.0.0', PUBLIC_URL: 'https://console.example.com', DATA_DIR: mkdtempSync(path.join(tmpdir(), 'console-prod-')) };
  const { host, publicUrl, demo, devOutbox, seedDemo, smtpUrl, meta, google } = loadConfig(env);
  return { host, publicUrl, demo, devOutbox, seedDemo, smtpUrl, meta, google };
}

describe('demo routes: mounted in demo mode on loopback, 404 in a production-like configuration', () => {
  let demo: TestApp;
  let prod: TestApp;
  let routes: Route[];

  beforeAll(async () => {
    // The demo: what `npm start` on a fresh clone decides (loopback, DEMO_MODE=auto).
    const local = loadConfig({ DATA_DIR: mkdtempSync(path.join(tmpdir(), 'console-demo-')) });
    expect(local.demo).toEqual({ enabled: true, setting: 'auto', servesOtherMachines: false });
    demo = await createTestApp({ config: { host: local.host, demo: local.demo, devOutbox: local.devOutbox } });
    prod = await createTestApp({ config: productionLike() });
    routes = await demoRouteTable(demo.config, new OutboxEmailSender(demo.db, demo.clock));
  });
  afterAll(async () => {
    await demo?.close();
    await prod?.close();
  });

  it('enumerates the fakes and the outbox, all below /dev', () => {
    const paths = new Set(routes.map((r) => `${r.method} ${r.url}`));
    for (const expected of [
      'GET /dev/meta',
      'GET /dev/meta/sdk.js',
      'POST /dev/meta/dialog/login',
      'POST /dev/meta/dialog/embedded_signup',
      'GET /dev/meta/control/state',
      'POST /dev/google/dialog/token',
      'GET /dev/google/tokeninfo',
      'GET /dev/outbox',
      'GET /dev/outbox.json',
    ]) {
      expect(paths, expected).toContain(expected);
    }
    expect(routes.length).toBeGreaterThan(20);
    expect(routes.filter((r) => !r.url.startsWith('/dev/'))).toEqual([]);
  });

  it("matches the apps' own route tables: all of the demo app's /dev routes, none in the production-like app", () => {
    const devRoutes = (table: readonly { method: string; url: string }[]) =>
      [...new Set(table.filter((r) => r.url.startsWith('/dev') && r.method !== 'HEAD').map((r) => `${r.method} ${r.url}`))].sort();
    expect(devRoutes(demo.app.routeAccess)).toEqual(devRoutes(routes));
    expect(prod.app.routeAccess.filter((r) => r.url.startsWith('/dev'))).toEqual([]);
  });

  it('mounts every one of them in demo mode', async () => {
    for (const route of routes) expect(demo.app.hasRoute(route), `${route.method} ${route.url}`).toBe(true);
    expect((await demo.app.inject({ method: 'GET', url: '/dev/outbox.json' })).statusCode).toBe(200);
    expect((await demo.app.inject({ method: 'GET', url: '/dev/meta/control/state' })).statusCode).toBe(200);
  });

  it('answers 404 on every one of them in a production-like configuration', async () => {
    for (const route of routes) {
      const url = concrete(route.url);
      expect(prod.app.hasRoute(route), `${route.method} ${route.url}`).toBe(false);
      const res = await prod.app.inject({ method: route.method, url, payload: route.method === 'GET' || route.method === 'HEAD' ? undefined : { email: 'victim@example.com' } });
      expect(res.statusCode, `${route.method} ${url}`).toBe(404);
    }
    for (const url of ['/dev/', '/dev/meta/', '/dev/anything/else']) expect((await prod.app.inject({ method: 'GET', url })).statusCode, url).toBe(404);
  });

  it('tells the console, social sign-in and channel connection that the providers are not configured', async () => {
    const clientConfig = await prod.app.inject({ method: 'GET', url: '/api/client-config/' });
    expect(clientConfig.json()).toEqual({ facebook: null, google: null });

    for (const [provider, message] of [['facebook', NOT_CONFIGURED_MESSAGES.facebook], ['google', NOT_CONFIGURED_MESSAGES.google]] as const) {
      const res = await prod.app.inject({ method: 'POST', url: `/account/${provider}/`, payload: { access_token: 'any-token' } });
      expect(res.statusCode, provider).toBe(503);
      expect(res.json()).toEqual({ detail: message, code: 'provider_not_configured' });
    }

    const userId = await prod.seed.user({ email: 'admin@prod.test' });
    const companyId = await prod.seed.company('Prod Co');
    await prod.seed.member(companyId, userId, 'admin');
    const { access } = await prod.login('admin@prod.test');
    const headers = prod.headers(access, companyId);
    const connects = [
      { url: '/api/channels/facebook_pages/', payload: { access_token: 'any-token' } },
      { url: '/api/channels/', payload: { platform: 'messenger', page_id: '1', access_token: 'any-token' } },
      { url: '/api/wa-onboard/embedded_signup/', payload: { code: 'c', phone_number_id: '1', waba_id: '2', company: companyId } },
      { url: '/api/wa-onboard/retry/', payload: { external_id: '1' } },
    ];
    for (const { url, payload } of connects) {
      const res = await prod.app.inject({ method: 'POST', url, headers, payload });
      expect(res.statusCode, url).toBe(503);
      expect(res.json(), url).toEqual({ detail: NOT_CONFIGURED_MESSAGES.meta, code: 'provider_not_configured' });
    }
    // The access rule still comes first: no token, no hint about the server's providers.
    expect((await prod.app.inject({ method: 'POST', url: '/api/channels/facebook_pages/', payload: { access_token: 'x' } })).statusCode).toBe(401);
  });
});
