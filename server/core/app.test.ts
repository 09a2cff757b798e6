import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestApp, type TestApp } from '../testing/testApp';
import { DEMO } from './seed';
import { redactQuerySecrets } from './app';
import type { EmailSender } from '../providers/email/types';

function builtConsole(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'console-dist-'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><html><body><div id="root"></div><script type="module" src="/assets/app-1a2b.js"></script></body></html>');
  writeFileSync(path.join(dir, 'assets', 'app-1a2b.js'), 'console.log("app")');
  writeFileSync(path.join(dir, 'assets', 'app-1a2b.js.map'), '{"version":3,"sources":["../src/secret-business-logic.ts"],"mappings":""}');
  return dir;
}

describe('console static files and security headers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { staticDir: builtConsole() } });
  });
  afterAll(() => t.close());

  it('serves index.html with a CSP that allows no inline scripts', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toContain('<div id="root">');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self' https://connect.facebook.net");
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(csp).toContain("img-src 'self' data: blob: https:");
    expect(csp).toContain("connect-src 'self' ws: wss:");
    expect(csp).toContain("frame-src 'self' https://www.facebook.com");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('falls back to index.html for console deep links', async () => {
    // `/account` is both the console's account page and the prefix of the account API (`/account/…/`).
    for (const url of ['/chats/42', '/auth/reset-password/some-token', '/company/select?x=1', '/account', '/account?tab=1']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain('<div id="root">');
      expect(res.headers['content-security-policy']).toBeDefined();
    }
  });

  it('answers the health check with a database round trip', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health/' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', database: 'ok' });
  });

  it('serves hashed assets as immutable', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/assets/app-1a2b.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toContain('immutable');
  });

  it('answers JSON 404s for server paths and non-GET requests', async () => {
    for (const [method, url] of [
      ['GET', '/api/unknown/'],
      ['GET', '/account/nothing/'],
      ['GET', '/dev/nothing'],
      ['GET', '/socket/unknown'],
      ['POST', '/chats'],
    ] as const) {
      const res = await t.app.inject({ method, url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual({ detail: 'Not found.', code: 'not_found' });
    }
  });
});

describe('source maps', () => {
  const served = (t: TestApp, url: string) => t.app.inject({ method: 'GET', url });

  it('are not served outside demo mode (404, not the console)', async () => {
    const t = await createTestApp({ config: { staticDir: builtConsole(), demo: { enabled: false, setting: 'auto', servesOtherMachines: true } } });
    try {
      for (const url of ['/assets/app-1a2b.js.map', '/assets/APP-1a2b.js.MAP', '/assets/app-1a2b.js.map?v=1', '/assets/missing.js.map']) {
        const res = await served(t, url);
        expect(res.statusCode, url).toBe(404);
        expect(res.body, url).not.toContain('secret-business-logic');
        expect(res.body, url).not.toContain('<div id="root">');
      }
      // The bundles themselves still are.
      expect((await served(t, '/assets/app-1a2b.js')).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('are served in demo mode', async () => {
    const t = await createTestApp({ config: { staticDir: builtConsole() } });
    try {
      const res = await served(t, '/assets/app-1a2b.js.map');
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('secret-business-logic');
    } finally {
      await t.close();
    }
  });
});

describe('console not built', () => {
  it('answers 503 with a hint when dist is missing', async () => {
    const t = await createTestApp({ config: { staticDir: path.join(tmpdir(), 'no-such-dist-dir') } });
    try {
      const res = await t.app.inject({ method: 'GET', url: '/dashboard' });
      expect(res.statusCode).toBe(503);
      expect(res.body).toBe('Console not built: run npm run build');
    } finally {
      await t.close();
    }
  });
});

describe('error handling', () => {
  let t: TestApp;
  const failingSender: EmailSender = {
    async send() {
      throw new Error('SMTP exploded at /secret/path');
    },
  };
  beforeAll(async () => {
    t = await createTestApp({ overrides: { EmailSender: failingSender } });
  });
  afterAll(() => t.close());

  it('maps unknown errors to a 500 without internals (and overrides replace services)', async () => {
    await t.seed.user({ email: 'someone@example.com' });
    const res = await t.app.inject({ method: 'POST', url: '/account/reset-password/', payload: { email: 'someone@example.com' } });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ detail: 'Internal server error', code: 'internal' });
    expect(res.body).not.toContain('secret');
  });

  it('maps malformed JSON and wrong content types to the error shape', async () => {
    const badJson = await t.app.inject({ method: 'POST', url: '/account/login/', headers: { 'content-type': 'application/json' }, payload: '{"email":' });
    expect(badJson.statusCode).toBe(400);
    expect(badJson.json()).toMatchObject({ code: 'parse_error', detail: expect.any(String) });
    const text = await t.app.inject({ method: 'POST', url: '/account/login/', headers: { 'content-type': 'text/xml' }, payload: '<x/>' });
    expect(text.statusCode).toBe(415);
    expect(text.json()).toMatchObject({ code: 'unsupported_media_type' });
  });

  it('reports a body that is not an object under non_field_errors', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/account/login/', payload: [1, 2] as unknown as object });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json())).toEqual(['non_field_errors']);
  });
});

describe('dev outbox', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await t.seed.user({ email: 'reader@example.com' });
  });
  afterAll(() => t.close());

  it('lists sent e-mails newest first as JSON, optionally for one recipient', async () => {
    await t.app.inject({ method: 'POST', url: '/api/onboarding-request/submit/', payload: { email: 'first@example.com' } });
    t.clock.advance(1000);
    await t.app.inject({ method: 'POST', url: '/account/reset-password/', payload: { email: 'reader@example.com' } });

    const all = (await t.app.inject({ method: 'GET', url: '/dev/outbox.json' })).json();
    expect(all.map((e: { to: string }) => e.to)).toEqual(['reader@example.com', 'first@example.com']);
    expect(Object.keys(all[0]).sort()).toEqual(['created_at', 'html', 'id', 'subject', 'text', 'to']);
    expect(all[0].text).toContain('http://console.test/auth/reset-password/');

    const filtered = (await t.app.inject({ method: 'GET', url: '/dev/outbox.json?to=First@Example.com' })).json();
    expect(filtered).toHaveLength(1);
    expect(filtered[0].subject).toBe('Verify your e-mail address');
  });

  it('renders an HTML page with clickable links and no scripts', async () => {
    await t.app.inject({ method: 'POST', url: '/api/onboarding-request/submit/', payload: { email: '<b>x</b>@example.com' } });
    const res = await t.app.inject({ method: 'GET', url: '/dev/outbox' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toMatch(/<a href="http:\/\/console\.test\/auth\/signup\/verify-account-email\?token=[\w-]+">/);
    expect(res.body).not.toContain('<script');
    expect(res.body).not.toContain('<b>x</b>');
    expect(res.headers['content-security-policy']).toBeDefined();
  });

  it('is not served when SMTP is configured', async () => {
    const smtp = await createTestApp({ config: { smtpUrl: 'smtp://127.0.0.1:1' }, overrides: { EmailSender: { send: async () => {} }, Outbox: null } });
    try {
      expect((await smtp.app.inject({ method: 'GET', url: '/dev/outbox.json' })).statusCode).toBe(404);
    } finally {
      await smtp.close();
    }
  });
});

describe('demo seed', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    expect(await t.seed.demo()).toBe(true);
  });
  afterAll(() => t.close());

  it('seeds only an empty database', async () => {
    expect(await t.seed.demo()).toBe(false);
  });

  it('creates the admin and the agent in Demo Company and Northwind Shop', async () => {
    const admin = await t.login(DEMO.admin.email, t.config.demoPassword);
    expect(admin.user).toMatchObject({ first_name: 'Ada', last_name: 'Admin' });
    expect(admin.user.companies.map((c) => [c.name, c.role.id, c.subscription_plan_name])).toEqual([
      ['Demo Company', 'admin', 'Growth'],
      ['Northwind Shop', 'admin', null],
    ]);

    const agent = await t.login(DEMO.agent.email, t.config.demoPassword);
    expect(agent.user).toMatchObject({ first_name: 'Alex', last_name: 'Agent' });
    const [demo, northwind] = agent.user.companies;
    expect(demo.role.id).toBe('agent');
    expect(demo.permissions.can_view_your_account).toBe(true);
    // Northwind overrides the agent role: no company account page.
    expect(northwind.permissions.can_view_your_account).toBe(false);
    expect(northwind.permissions.can_manage_your_account).toBe(false);
    expect(northwind.permissions.can_view_chats).toBe(true);

    const patch = await t.app.inject({ method: 'PATCH', url: `/api/companies/${northwind.id}/`, headers: t.headers(agent.access, northwind.id), payload: { name: 'Mine' } });
    expect(patch.statusCode).toBe(403);
  });
});

describe('request log', () => {
  it('replaces the values of secret query parameters and keeps the rest of the URL', () => {
    expect(redactQuerySecrets('/dev/meta/graph/v23.0/oauth/access_token?client_id=app&client_secret=s3cr3t&code=AQz')).toBe(
      '/dev/meta/graph/v23.0/oauth/access_token?client_id=app&client_secret=[redacted]&code=[redacted]',
    );
    expect(redactQuerySecrets('/x?fields=id&appsecret_proof=48ba&access_token=EAA1#f')).toBe('/x?fields=id&appsecret_proof=[redacted]&access_token=[redacted]#f');
    expect(redactQuerySecrets('/bot-service/api/bots/?access_key=bk_1&page=2')).toBe('/bot-service/api/bots/?access_key=[redacted]&page=2');
    expect(redactQuerySecrets('/socket/longpoll?token=eyJ&vsn=2.0.0')).toBe('/socket/longpoll?token=[redacted]&vsn=2.0.0');
    expect(redactQuerySecrets('/api/chats/?postcode=75001&barcode=1')).toBe('/api/chats/?postcode=75001&barcode=1');
  });
});
