import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientConfig } from '../../../contract/channels';
import { createTestApp, type TestApp } from '../../testing/testApp';
import Fastify from 'fastify';
import { providerConfig, testConfig } from '../../core/config';
import { registerLocalProviderFakes } from './fake/mountFakes';
import { clientConfigOf } from './clientConfigRoute';
import { HttpGoogleIdentity } from '../google/google';
import { HttpMetaGraph } from './graphClient';

describe('GET /api/client-config/ in local mode', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers without login with the local fakes', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/client-config/' });
    expect(res.statusCode).toBe(200);
    expect(res.json<ClientConfig>()).toEqual({
      facebook: {
        app_id: 'local-fake-app',
        config_id: 'local-fake-config',
        sdk_url: '/dev/meta/sdk.js',
        version: 'v23.0',
        page_scopes: ['pages_show_list', 'pages_messaging', 'pages_manage_metadata', 'pages_read_engagement', 'instagram_basic', 'instagram_manage_messages', 'business_management'],
        login_scopes: ['email', 'public_profile'],
      },
      google: { client_id: 'local-fake-google-client', script_url: '/dev/google/gsi-client.js' },
    });
    expect(res.body).not.toContain(t.config.meta.appSecret);
  });

  it('registers the HTTP adapters and mounts the fakes, under the console CSP', async () => {
    expect(t.app.services.get('MetaGraph')).toBeInstanceOf(HttpMetaGraph);
    expect(t.app.services.get('GoogleIdentity')).toBeInstanceOf(HttpGoogleIdentity);
    const sdk = await t.app.inject({ method: 'GET', url: '/dev/meta/sdk.js' });
    expect(sdk.statusCode).toBe(200);
    expect(sdk.body).toContain('window.FB');
    const demo = await t.app.inject({ method: 'GET', url: '/dev/meta/' });
    expect(demo.body).toContain('<script src="/dev/meta/demo.js"></script>');
    expect(demo.headers['content-security-policy']).toContain("script-src 'self'");
    expect((await t.app.inject({ method: 'GET', url: '/dev/meta/demo.js' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/dev/google/gsi-client.js' })).body).toContain('initTokenClient');
    const graph = await t.app.inject({ method: 'GET', url: '/dev/meta/graph/v23.0/me', headers: { authorization: 'Bearer nope' } });
    expect(graph.json()).toMatchObject({ error: { code: 190, type: 'OAuthException' } });
    const tokenInfo = await t.app.inject({ method: 'GET', url: '/dev/google/tokeninfo?access_token=nope' });
    expect(tokenInfo.json()).toEqual({ error: 'invalid_token', error_description: 'Invalid Value' });
  });

  it("posts the fake's webhooks to the app's own port once it listens", async () => {
    const base = await t.listen();
    const post = async (url: string, body: unknown) =>
      (await fetch(base + url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json() as Promise<any>;
    const signup = await post('/dev/meta/dialog/embedded_signup', { business_name: 'Local Co' });
    const inbound = await post('/dev/meta/control/inbound', { phone_number_id: signup.phone_number_id, from: '15550009999', text: 'hello' });
    // Whatever the webhook route answers for an unknown number, the request reached it.
    expect(inbound.webhook_status).toEqual(expect.any(Number));
  });
});

describe('live mode', () => {
  it('points at Meta and Google and mounts no fake', async () => {
    // Demo mode or not: configured providers are always the real ones.
    const live = providerConfig({ META_APP_ID: '1234', META_APP_SECRET: 's3cret', META_CONFIG_ID: 'cfg', GOOGLE_CLIENT_ID: 'gid' }, 8080, () => 'derived', true);
    expect(clientConfigOf(live)).toMatchObject({
      facebook: { app_id: '1234', config_id: 'cfg', sdk_url: 'https://connect.facebook.net/en_US/sdk.js' },
      google: { client_id: 'gid', script_url: 'https://accounts.google.com/gsi/client' },
    });
    // The fakes' mounting alone (a whole second app would only repeat the migrations).
    const app = Fastify();
    await registerLocalProviderFakes(app, testConfig(live));
    try {
      expect((await app.inject({ method: 'GET', url: '/dev/meta/sdk.js' })).statusCode).toBe(404);
      expect((await app.inject({ method: 'GET', url: '/dev/google/gsi-client.js' })).statusCode).toBe(404);
    } finally {
      await app.close();
    }
  });
});

describe('off (neither configured nor in demo mode)', () => {
  it('tells the console neither provider is configured, and mounts no fake', async () => {
    const off = providerConfig({}, 8080, () => 'derived', false);
    expect(off.meta.mode).toBe('off');
    expect(off.google.mode).toBe('off');
    expect(clientConfigOf(off)).toEqual({ facebook: null, google: null });
    // Nothing points at a fake that is not there.
    expect(JSON.stringify(off)).not.toContain('/dev/');
    const app = Fastify();
    await registerLocalProviderFakes(app, testConfig(off));
    try {
      expect((await app.inject({ method: 'GET', url: '/dev/meta/sdk.js' })).statusCode).toBe(404);
    } finally {
      await app.close();
    }
  });

  it('mounts no fake outside demo mode even when a hand-built config says local', async () => {
    const app = Fastify();
    await registerLocalProviderFakes(app, testConfig({ demo: { enabled: false, setting: 'false', servesOtherMachines: true } }));
    try {
      expect((await app.inject({ method: 'GET', url: '/dev/meta/sdk.js' })).statusCode).toBe(404);
      expect((await app.inject({ method: 'GET', url: '/dev/google/gsi-client.js' })).statusCode).toBe(404);
    } finally {
      await app.close();
    }
  });
});
