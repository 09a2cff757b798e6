// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HttpError } from '../http/HttpError';
import { createFakeHttp } from '../testing/fakeHttp';
import { SocialDialogClosedError, SocialSdkUnavailableError, type RequestOptions } from '../apis';
import type { ClientConfig } from '../../../contract/channels';
import { createSocialApi, resolveScriptUrl } from './socialApi';
import { fallbackClientConfig } from './clientConfig';
import { rememberStartupConfig } from '../features/startupRequest';
import { isFacebookOrigin, type FacebookLoginResponse } from './facebook';
import type { GoogleTokenClientConfig } from './google';
import type { ScriptLoader } from './scriptLoader';

const SERVER_CONFIG: ClientConfig = {
  facebook: {
    app_id: 'app-1',
    config_id: 'cfg-1',
    sdk_url: 'https://connect.facebook.net/en_US/sdk.js',
    version: 'v23.0',
    page_scopes: ['pages_show_list', 'pages_messaging'],
    login_scopes: ['email', 'public_profile'],
  },
  google: { client_id: 'g-1', script_url: 'https://accounts.google.com/gsi/client' },
};

type Win = Window & { FB?: unknown; fbAsyncInit?: () => void; google?: unknown };
const w = () => window as Win;

/** A fake FB: `onLogin` decides what FB.login's callback gets (and may post messages first). */
function fakeFB(onLogin: (options: Record<string, unknown>, callback: (r: FacebookLoginResponse) => void) => void) {
  return {
    init: vi.fn(),
    login: vi.fn((callback: (r: FacebookLoginResponse) => void, options: Record<string, unknown> = {}) => onLogin(options, callback)),
  };
}

/** A loader that "loads" by running `install` (defining window.FB / window.google), or fails. */
function fakeLoader(install: (url: string) => void = () => undefined, fail = false): ScriptLoader & { urls: string[] } {
  const urls: string[] = [];
  return {
    urls,
    async load(url, provider) {
      urls.push(url);
      if (fail) throw new SocialSdkUnavailableError(provider, 'offline');
      install(url);
    },
  };
}

function http(answer: (path: string, options: RequestOptions) => unknown = () => SERVER_CONFIG) {
  return createFakeHttp((_m, path, options) => answer(path, options));
}

function post(data: unknown, origin = 'https://www.facebook.com') {
  window.dispatchEvent(new MessageEvent('message', { data, origin }));
}

const finish = (phone = 'pn-1', waba = 'waba-1', event = 'FINISH') =>
  JSON.stringify({ type: 'WA_EMBEDDED_SIGNUP', event, data: { phone_number_id: phone, waba_id: waba } });

beforeEach(() => {
  rememberStartupConfig(null);
  delete w().FB;
  delete w().fbAsyncInit;
  delete w().google;
});
afterEach(() => {
  vi.useRealTimers();
  rememberStartupConfig(null);
});

describe('clientConfig', () => {
  it('reads GET /api/client-config/ without login, once', async () => {
    const h = http();
    const api = createSocialApi({ http: h, config: { apiBase: '' }, env: {}, loader: fakeLoader() });
    expect(await api.clientConfig()).toEqual(SERVER_CONFIG);
    await api.clientConfig();
    expect(h.calls).toHaveLength(1);
    expect(h.calls[0]).toMatchObject({ method: 'GET', path: '/api/client-config/', options: { auth: false } });
  });

  it('takes the answer the shell read at start-up: no second request', async () => {
    rememberStartupConfig({ ...SERVER_CONFIG, features: ['branching_flows'] });
    const h = http();
    const api = createSocialApi({ http: h, config: { apiBase: '' }, env: {}, loader: fakeLoader() });
    expect(await api.clientConfig()).toEqual(SERVER_CONFIG);
    expect(h.calls).toHaveLength(0);
  });

  it('falls back to the VITE_* settings when the backend does not serve it (404), and caches that', async () => {
    const h = http(() => {
      throw new HttpError(404, null, 'Not Found');
    });
    const env = { VITE_FACEBOOK_APP_ID: 'vite-app', VITE_FACEBOOK_CONFIG_ID: 'vite-cfg', VITE_GOOGLE_CLIENT_ID: 'vite-g' };
    const api = createSocialApi({ http: h, config: { apiBase: '' }, env, loader: fakeLoader() });
    const config = await api.clientConfig();
    expect(config.facebook).toMatchObject({ app_id: 'vite-app', config_id: 'vite-cfg', sdk_url: 'https://connect.facebook.net/en_US/sdk.js', version: 'v23.0' });
    expect(config.google).toEqual({ client_id: 'vite-g', script_url: 'https://accounts.google.com/gsi/client' });
    await api.clientConfig();
    expect(h.calls).toHaveLength(1);
  });

  it('uses the fallback for a network failure but asks the server again next time', async () => {
    let fail = true;
    const h = http(() => {
      if (fail) throw new TypeError('Failed to fetch');
      return SERVER_CONFIG;
    });
    const api = createSocialApi({ http: h, config: { apiBase: '' }, env: {}, loader: fakeLoader() });
    expect(await api.clientConfig()).toEqual({ facebook: null, google: null });
    fail = false;
    expect(await api.clientConfig()).toEqual(SERVER_CONFIG);
  });

  it('fallback: custom URLs and no provider without its id', () => {
    expect(fallbackClientConfig({})).toEqual({ facebook: null, google: null });
    const config = fallbackClientConfig({
      VITE_FACEBOOK_APP_ID: 'a',
      VITE_FACEBOOK_SDK_URL: '/dev/meta/sdk.js',
      VITE_GOOGLE_CLIENT_ID: 'g',
      VITE_GOOGLE_SCRIPT_URL: '/dev/google/gsi-client.js',
    });
    expect(config.facebook?.sdk_url).toBe('/dev/meta/sdk.js');
    expect(config.google?.script_url).toBe('/dev/google/gsi-client.js');
  });
});

describe('script URLs', () => {
  it('keeps absolute URLs and puts root-relative ones on the API base', () => {
    expect(resolveScriptUrl('https://connect.facebook.net/en_US/sdk.js', 'https://api.example.com')).toBe('https://connect.facebook.net/en_US/sdk.js');
    expect(resolveScriptUrl('/dev/meta/sdk.js', '')).toBe('/dev/meta/sdk.js');
    expect(resolveScriptUrl('/dev/meta/sdk.js', 'https://api.example.com/')).toBe('https://api.example.com/dev/meta/sdk.js');
  });

  it('accepts only https facebook.com origins', () => {
    expect(isFacebookOrigin('https://www.facebook.com')).toBe(true);
    expect(isFacebookOrigin('https://web.facebook.com')).toBe(true);
    expect(isFacebookOrigin('https://facebook.com')).toBe(true);
    expect(isFacebookOrigin('https://evilfacebook.com')).toBe(false);
    expect(isFacebookOrigin('http://www.facebook.com')).toBe(false);
    expect(isFacebookOrigin('https://facebook.com.evil.io')).toBe(false);
  });
});

describe('Facebook SDK', () => {
  it('loads the SDK once and calls FB.init once with v23.0 (load event first)', async () => {
    const FB = fakeFB((_o, cb) => cb({ authResponse: { accessToken: 'tok' } }));
    const loader = fakeLoader(() => {
      w().FB = FB;
    });
    const api = createSocialApi({ http: http(), config: { apiBase: '' }, env: {}, loader });
    await api.facebookLogin('login');
    w().fbAsyncInit?.(); // the SDK's own call after our init: no second init
    await api.facebookLogin('pages');
    expect(loader.urls).toEqual(['https://connect.facebook.net/en_US/sdk.js']);
    expect(FB.init).toHaveBeenCalledTimes(1);
    expect(FB.init).toHaveBeenCalledWith({ appId: 'app-1', version: 'v23.0', cookie: true, xfbml: false });
  });

  it('inits from window.fbAsyncInit when the SDK calls it before the load event', async () => {
    const FB = fakeFB((_o, cb) => cb({ authResponse: { accessToken: 'tok' } }));
    const loader = fakeLoader(() => {
      w().FB = FB;
      w().fbAsyncInit?.();
      expect(FB.init).toHaveBeenCalledTimes(1);
    });
    const api = createSocialApi({ http: http(), config: { apiBase: '' }, env: {}, loader });
    await api.facebookLogin('login');
    expect(FB.init).toHaveBeenCalledTimes(1);
  });

  it('facebookLogin asks the login or page scopes and returns the access token', async () => {
    const FB = fakeFB((_o, cb) => cb({ authResponse: { accessToken: 'user-token' } }));
    const api = createSocialApi({ http: http(), config: { apiBase: '' }, env: {}, loader: fakeLoader(() => (w().FB = FB)) });
    expect(await api.facebookLogin('login')).toBe('user-token');
    expect(FB.login.mock.calls[0][1]).toEqual({ scope: 'email,public_profile', return_scopes: true });
    await api.facebookLogin('pages');
    expect(FB.login.mock.calls[1][1]).toEqual({ scope: 'pages_show_list,pages_messaging', return_scopes: true });
  });

  it('a closed login dialog is SocialDialogClosedError', async () => {
    const FB = fakeFB((_o, cb) => cb({ status: 'unknown', authResponse: null }));
    const api = createSocialApi({ http: http(), config: { apiBase: '' }, env: {}, loader: fakeLoader(() => (w().FB = FB)) });
    const error = await api.facebookLogin('login').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SocialDialogClosedError);
    expect((error as SocialDialogClosedError).provider).toBe('facebook');
  });

  it('an SDK that cannot load is SocialSdkUnavailableError, and a later call tries again', async () => {
    let fail = true;
    const FB = fakeFB((_o, cb) => cb({ authResponse: { accessToken: 't' } }));
    const loader: ScriptLoader = {
      async load(_url, provider) {
        if (fail) throw new SocialSdkUnavailableError(provider, 'offline');
        w().FB = FB;
      },
    };
    const api = createSocialApi({ http: http(), config: { apiBase: '' }, env: {}, loader });
    await expect(api.facebookEmbeddedSignup()).rejects.toBeInstanceOf(SocialSdkUnavailableError);
    fail = false;
    expect(await api.facebookLogin('login')).toBe('t');
  });

  it('is unavailable when Facebook is not configured', async () => {
    const api = createSocialApi({ http: http(() => ({ facebook: null, google: null })), config: { apiBase: '' }, env: {}, loader: fakeLoader() });
    await expect(api.facebookLogin('login')).rejects.toBeInstanceOf(SocialSdkUnavailableError);
    await expect(api.googleLogin()).rejects.toBeInstanceOf(SocialSdkUnavailableError);
  });
});

describe('WhatsApp embedded signup', () => {
  function setup(onLogin: Parameters<typeof fakeFB>[0], config: ClientConfig = SERVER_CONFIG, graceMs = 50) {
    const FB = fakeFB(onLogin);
    const api = createSocialApi({
      http: http(() => config),
      config: { apiBase: '' },
      env: {},
      loader: fakeLoader(() => (w().FB = FB)),
      embeddedSignupGraceMs: graceMs,
    });
    return { FB, api };
  }

  it('runs FB.login with the configuration and resolves with the code and the message ids', async () => {
    const add = vi.spyOn(window, 'addEventListener');
    const remove = vi.spyOn(window, 'removeEventListener');
    const { FB, api } = setup((_o, cb) => {
      post('cb=f1234&domain=localhost'); // not JSON: kept
      post(finish());
      cb({ authResponse: { code: 'the-code' } });
    });
    const result = await api.facebookEmbeddedSignup();
    expect(result).toEqual({ code: 'the-code', phone_number_id: 'pn-1', waba_id: 'waba-1', non_json_data: 'cb=f1234&domain=localhost' });
    expect(FB.login.mock.calls[0][1]).toEqual({
      config_id: 'cfg-1',
      response_type: 'code',
      override_default_response_type: true,
      extras: { setup: {}, featureType: '', sessionInfoVersion: '3' },
    });
    const listener = add.mock.calls.find((c) => c[0] === 'message')?.[1];
    expect(remove).toHaveBeenCalledWith('message', listener);
    add.mockRestore();
    remove.mockRestore();
  });

  it('waits for the ids when the code comes first (web.facebook.com, FINISH_ONLY_WABA)', async () => {
    const { api } = setup((_o, cb) => {
      cb({ authResponse: { code: 'c2' } });
      setTimeout(() => post(finish('', 'waba-9', 'FINISH_ONLY_WABA'), 'https://web.facebook.com'), 5);
    }, SERVER_CONFIG, 1000);
    expect(await api.facebookEmbeddedSignup()).toEqual({ code: 'c2', phone_number_id: '', waba_id: 'waba-9' });
  });

  it('ignores messages from other origins', async () => {
    const { api } = setup((_o, cb) => {
      post(finish('evil', 'evil'), 'https://evil.example');
      post(finish());
      cb({ authResponse: { code: 'c' } });
    });
    expect(await api.facebookEmbeddedSignup()).toMatchObject({ phone_number_id: 'pn-1', waba_id: 'waba-1' });
  });

  it('accepts the messages of a local fake SDK from its own origin', async () => {
    const local: ClientConfig = { ...SERVER_CONFIG, facebook: { ...SERVER_CONFIG.facebook!, sdk_url: '/dev/meta/sdk.js' } };
    const { api } = setup((_o, cb) => {
      post(finish('local-pn', 'local-waba'), window.location.origin);
      cb({ authResponse: { code: 'c' } });
    }, local);
    expect(await api.facebookEmbeddedSignup()).toMatchObject({ phone_number_id: 'local-pn' });
  });

  it('a dialog closed without a code is SocialDialogClosedError, and the listener goes', async () => {
    const remove = vi.spyOn(window, 'removeEventListener');
    const { api } = setup((_o, cb) => cb({ authResponse: null }));
    await expect(api.facebookEmbeddedSignup()).rejects.toBeInstanceOf(SocialDialogClosedError);
    expect(remove.mock.calls.some((c) => c[0] === 'message')).toBe(true);
    remove.mockRestore();
  });

  it('CANCEL is a closed dialog; CANCEL with an error message is that error', async () => {
    const cancel = (data: unknown) => JSON.stringify({ type: 'WA_EMBEDDED_SIGNUP', event: 'CANCEL', data });
    let { api } = setup(() => post(cancel({ current_step: 'PHONE_NUMBER_SETUP' })));
    await expect(api.facebookEmbeddedSignup()).rejects.toBeInstanceOf(SocialDialogClosedError);
    delete w().FB;
    ({ api } = setup(() => post(cancel({ error_message: 'Number already registered', error_id: '1' }))));
    const error = await api.facebookEmbeddedSignup().catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(SocialDialogClosedError);
    expect((error as Error).message).toBe('Number already registered');
  });

  it('fails when the ids never arrive after the code', async () => {
    const { api } = setup((_o, cb) => cb({ authResponse: { code: 'c' } }), SERVER_CONFIG, 20);
    const error = await api.facebookEmbeddedSignup().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(SocialDialogClosedError);
  });

  it('is unavailable without a configuration id', async () => {
    const noConfig: ClientConfig = { ...SERVER_CONFIG, facebook: { ...SERVER_CONFIG.facebook!, config_id: '' } };
    const { api } = setup(() => undefined, noConfig);
    await expect(api.facebookEmbeddedSignup()).rejects.toBeInstanceOf(SocialSdkUnavailableError);
  });
});

describe('Google sign-in', () => {
  function setup(behave: (config: GoogleTokenClientConfig) => void) {
    const initTokenClient = vi.fn((config: GoogleTokenClientConfig) => ({ requestAccessToken: () => behave(config) }));
    const loader = fakeLoader(() => (w().google = { accounts: { oauth2: { initTokenClient } } }));
    const api = createSocialApi({ http: http(), config: { apiBase: '' }, env: {}, loader });
    return { api, initTokenClient, loader };
  }

  it('loads GIS once and returns the token client access token', async () => {
    const { api, initTokenClient, loader } = setup((c) => c.callback({ access_token: 'g-token' }));
    expect(await api.googleLogin()).toBe('g-token');
    expect(await api.googleLogin()).toBe('g-token');
    expect(loader.urls).toEqual(['https://accounts.google.com/gsi/client']);
    expect(initTokenClient.mock.calls[0][0]).toMatchObject({ client_id: 'g-1', scope: 'openid email profile' });
  });

  it('popup_closed is SocialDialogClosedError; other errors are plain errors', async () => {
    let { api } = setup((c) => c.error_callback?.({ type: 'popup_closed' }));
    const closed = await api.googleLogin().catch((e: unknown) => e);
    expect(closed).toBeInstanceOf(SocialDialogClosedError);
    expect((closed as SocialDialogClosedError).provider).toBe('google');
    delete w().google;
    ({ api } = setup((c) => c.error_callback?.({ type: 'popup_failed_to_open', message: 'Failed to open popup window' })));
    const failed = await api.googleLogin().catch((e: unknown) => e);
    expect(failed).not.toBeInstanceOf(SocialDialogClosedError);
    expect((failed as Error).message).toBe('Failed to open popup window');
    delete w().google;
    ({ api } = setup((c) => c.callback({ error: 'access_denied' })));
    await expect(api.googleLogin()).rejects.toThrow('access_denied');
  });
});
