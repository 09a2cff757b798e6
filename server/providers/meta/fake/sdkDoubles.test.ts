/**
 * The SDK doubles run in a browser-like page (jsdom, scripts loaded from the fakes over HTTP) and
 * answer through the same callbacks and message events as Meta's and Google's scripts.
 */
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGoogle, type StartedFakeGoogle } from '../../google/fake/fakeGoogle';
import type { StartedFakeMeta } from './fakeMeta';
import { graphFor, startTestFakeMeta } from './testSupport';

/** jsdom's window, loosely typed: the server's type check has no DOM types. */
type Page = Record<string, any>;
type JSDOMClass = new (html: string, options: Record<string, unknown>) => { window: Page };
// jsdom ships without type declarations here; only its constructor is needed.
const { JSDOM } = createRequire(import.meta.url)('jsdom') as { JSDOM: JSDOMClass };

let meta: StartedFakeMeta;
let google: StartedFakeGoogle;

beforeAll(async () => {
  [meta, google] = await Promise.all([startTestFakeMeta(), startFakeGoogle()]);
});
afterAll(async () => {
  await Promise.all([meta.close(), google.close()]);
});

/** A page on the fake's origin loading `script`; resolves once the script called the page's init hook. */
async function pageWith(origin: string, script: string, initHook: 'fbAsyncInit' | 'onGoogleLibraryLoad'): Promise<Page> {
  let loaded!: () => void;
  const ready = new Promise<void>((resolve) => (loaded = resolve));
  const dom = new JSDOM(`<!doctype html><html><body><script src="${origin}${script}"></script></body></html>`, {
    url: `${origin}/console`,
    runScripts: 'dangerously',
    resources: 'usable',
    beforeParse(window: Page) {
      window.fetch = fetch;
      window[initHook] = () => loaded();
    },
  });
  await ready;
  return dom.window;
}

function click(page: Page, testId: string): void {
  const button = page.document.querySelector(`[data-testid="${testId}"]`);
  if (!button) throw new Error(`no ${testId} in the page`);
  button.click();
}

function fill(page: Page, testId: string, value: string): void {
  page.document.querySelector(`[data-testid="${testId}"]`).value = value;
}

describe('Facebook SDK double', () => {
  it('runs the WhatsApp embedded signup: FINISH message event, then the code', async () => {
    const page = await pageWith(meta.url, '/sdk.js', 'fbAsyncInit');
    page.FB.init({ appId: 'test-app-id', version: 'v23.0', xfbml: false });
    const events: MessageEvent[] = [];
    page.addEventListener('message', (e: MessageEvent) => events.push(e));

    const answer = new Promise<any>((resolve) =>
      page.FB.login(resolve, { config_id: 'cfg', response_type: 'code', override_default_response_type: true, extras: { setup: {}, sessionInfoVersion: '3' } }),
    );
    expect(page.document.body.textContent).toContain('Facebook (local test double)');
    fill(page, 'fake-facebook-business-name', 'Corner Bakery');
    fill(page, 'fake-facebook-phone', '+1 555-010-4242');
    click(page, 'fake-facebook-continue');
    const response = await answer;

    expect(response).toEqual({ status: 'connected', authResponse: { code: expect.any(String), userID: '', expiresIn: 0 } });
    expect(events).toHaveLength(1);
    expect(events[0].origin).toBe('https://www.facebook.com');
    const data = JSON.parse(events[0].data as string);
    expect(data).toEqual({ type: 'WA_EMBEDDED_SIGNUP', event: 'FINISH', data: { phone_number_id: expect.any(String), waba_id: expect.any(String) }, version: 3 });
    expect(page.document.querySelector('[data-testid="fake-facebook-dialog"]')).toBeNull();

    // The code is what the server exchanges for the business token.
    const graph = graphFor(meta);
    const { accessToken } = await graph.exchangeCode(response.authResponse.code);
    expect(await graph.phoneNumber(data.data.phone_number_id, accessToken)).toMatchObject({ display_phone_number: '+1 555-010-4242', verified_name: 'Corner Bakery' });
  });

  it('posts the CANCEL event when the signup is cancelled', async () => {
    const page = await pageWith(meta.url, '/sdk.js', 'fbAsyncInit');
    page.FB.init({ appId: 'test-app-id', version: 'v23.0' });
    const events: MessageEvent[] = [];
    page.addEventListener('message', (e: MessageEvent) => events.push(e));
    const answer = new Promise((resolve) => page.FB.login(resolve, { config_id: 'cfg', response_type: 'code' }));
    click(page, 'fake-facebook-cancel');
    expect(await answer).toEqual({ status: 'unknown', authResponse: null });
    expect(JSON.parse(events[0].data as string)).toEqual({ type: 'WA_EMBEDDED_SIGNUP', event: 'CANCEL', data: { current_step: 'PHONE_NUMBER_SETUP' }, version: 3 });
  });

  it('logs in with the asked scopes and gives a working user token', async () => {
    const page = await pageWith(meta.url, '/sdk.js', 'fbAsyncInit');
    page.FB.init({ appId: 'test-app-id', version: 'v23.0' });
    const answer = new Promise<any>((resolve) => page.FB.login(resolve, { scope: 'email,pages_show_list,pages_messaging', return_scopes: true }));
    fill(page, 'fake-facebook-first-name', 'Rosa');
    fill(page, 'fake-facebook-last-name', 'Parks');
    fill(page, 'fake-facebook-email', 'rosa@example.com');
    click(page, 'fake-facebook-continue');
    const response = await answer;
    expect(response).toEqual({
      status: 'connected',
      authResponse: { accessToken: expect.stringMatching(/^EAA/), userID: expect.any(String), expiresIn: expect.any(Number), grantedScopes: 'public_profile,email,pages_show_list,pages_messaging' },
    });
    const status = await new Promise<any>((resolve) => page.FB.getLoginStatus(resolve));
    expect(status.status).toBe('connected');

    const graph = graphFor(meta);
    expect(await graph.profile(response.authResponse.accessToken)).toMatchObject({ email: 'rosa@example.com', first_name: 'Rosa' });
    expect((await graph.managedPages(response.authResponse.accessToken)).map((p) => p.name)).toEqual(["Rosa's Shop"]);

    const cancelled = new Promise((resolve) => page.FB.login(resolve, { scope: 'email' }));
    click(page, 'fake-facebook-cancel');
    expect(await cancelled).toEqual({ status: 'unknown', authResponse: null });
  });
});

describe('Google Identity Services double', () => {
  it('gives an access token for the client id through the callback, or popup_closed', async () => {
    const page = await pageWith(google.url, '/gsi-client.js', 'onGoogleLibraryLoad');
    let resolveToken!: (value: any) => void;
    let resolveError!: (value: any) => void;
    const token = new Promise<any>((resolve) => (resolveToken = resolve));
    const error = new Promise<any>((resolve) => (resolveError = resolve));
    const client = page.google.accounts.oauth2.initTokenClient({ client_id: 'cid', scope: 'openid email profile', callback: resolveToken, error_callback: resolveError });

    client.requestAccessToken();
    fill(page, 'fake-google-email', 'alan@example.com');
    click(page, 'fake-google-continue');
    expect(await token).toEqual({ access_token: expect.stringMatching(/^ya29\./), expires_in: 3599, scope: 'openid email profile', token_type: 'Bearer' });
    const info = await (await fetch(`${google.tokenInfoUrl}?access_token=${(await token).access_token}`)).json();
    expect(info).toMatchObject({ aud: 'cid', email: 'alan@example.com' });

    client.requestAccessToken();
    click(page, 'fake-google-cancel');
    expect(await error).toEqual({ type: 'popup_closed', message: 'Popup window closed' });
  });
});
