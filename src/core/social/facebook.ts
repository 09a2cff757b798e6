import { GRAPH_API_VERSION, type ClientConfig } from '../../../contract/channels';
import { SocialDialogClosedError, SocialSdkUnavailableError, type EmbeddedSignupResult } from '../apis';
import type { ScriptLoader } from './scriptLoader';

export type FacebookSettings = NonNullable<ClientConfig['facebook']>;

/** The part of Meta's JS SDK (`window.FB`) the console uses. */
export interface FacebookAuthResponse {
  accessToken?: string;
  code?: string;
  userID?: string;
  grantedScopes?: string;
}
export interface FacebookLoginResponse {
  status?: string;
  authResponse: FacebookAuthResponse | null;
}
export interface FacebookSdk {
  init(params: { appId: string; version: string; cookie?: boolean; xfbml?: boolean; autoLogAppEvents?: boolean }): void;
  login(callback: (response: FacebookLoginResponse) => void, options?: Record<string, unknown>): void;
}
export interface FacebookWindow {
  FB?: FacebookSdk;
  fbAsyncInit?: () => void;
}

/** How long the WA_EMBEDDED_SIGNUP message may trail the login callback's code. */
export const EMBEDDED_SIGNUP_IDS_GRACE_MS = 10_000;

/** Messages of the embedded signup come from Facebook's own pages (www., web., m.facebook.com). */
export function isFacebookOrigin(origin: string): boolean {
  try {
    const url = new URL(origin);
    return url.protocol === 'https:' && (url.hostname === 'facebook.com' || url.hostname.endsWith('.facebook.com'));
  } catch {
    return false;
  }
}

/** The origin of a script URL, or null when it is Meta's CDN (its messages come from facebook.com). */
export function sdkOrigin(sdkUrl: string, base: string): string | null {
  try {
    const url = new URL(sdkUrl, base);
    if (url.hostname.endsWith('facebook.net') || url.hostname.endsWith('facebook.com')) return null;
    return url.origin;
  } catch {
    return null;
  }
}

/**
 * Loads Meta's SDK and calls FB.init once. The SDK calls `window.fbAsyncInit` once it has
 * loaded, which may come before or after the script's load event: both paths init once.
 */
export function createFacebookSdk(deps: { win: Window; loader: ScriptLoader; settings: () => Promise<FacebookSettings>; resolveUrl: (url: string) => string }) {
  const win = deps.win as Window & FacebookWindow;
  let ready: Promise<{ FB: FacebookSdk; settings: FacebookSettings }> | null = null;
  const initialized = new WeakSet<FacebookSdk>();

  function init(settings: FacebookSettings): FacebookSdk | null {
    const FB = win.FB;
    if (!FB) return null;
    if (!initialized.has(FB)) {
      initialized.add(FB);
      FB.init({ appId: settings.app_id, version: settings.version || GRAPH_API_VERSION, cookie: true, xfbml: false });
    }
    return FB;
  }

  return function load() {
    ready ??= (async () => {
      const settings = await deps.settings();
      win.fbAsyncInit = () => {
        init(settings);
      };
      let FB = init(settings); // already on the page (another loader, a test)
      if (!FB) {
        await deps.loader.load(deps.resolveUrl(settings.sdk_url), 'facebook');
        FB = init(settings);
      }
      if (!FB) throw new SocialSdkUnavailableError('facebook', 'The Facebook SDK loaded without defining FB');
      return { FB, settings };
    })().catch((error: unknown) => {
      ready = null;
      throw error;
    });
    return ready;
  };
}

/** FB.login with the login or page scopes → the user's access token. A closed dialog → SocialDialogClosedError. */
export function facebookLogin(FB: FacebookSdk, settings: FacebookSettings, scopes: 'login' | 'pages'): Promise<string> {
  const scope = (scopes === 'pages' ? settings.page_scopes : settings.login_scopes).join(',');
  return new Promise((resolve, reject) => {
    FB.login(
      (response) => {
        const token = response?.authResponse?.accessToken;
        if (token) resolve(token);
        else reject(new SocialDialogClosedError('facebook'));
      },
      { scope, return_scopes: true },
    );
  });
}

interface EmbeddedSignupMessage {
  type?: unknown;
  event?: unknown;
  data?: { phone_number_id?: unknown; waba_id?: unknown; error_message?: unknown; current_step?: unknown } | null;
}

function parseMessage(data: unknown): { json: EmbeddedSignupMessage } | { raw: unknown } {
  if (typeof data === 'string') {
    try {
      const parsed: unknown = JSON.parse(data);
      return typeof parsed === 'object' && parsed !== null ? { json: parsed as EmbeddedSignupMessage } : { raw: data };
    } catch {
      return { raw: data };
    }
  }
  if (typeof data === 'object' && data !== null) return { json: data as EmbeddedSignupMessage };
  return { raw: data };
}

const text = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');

/**
 * The WhatsApp embedded signup: listens to the `message` events of Facebook's dialog (JSON of type
 * WA_EMBEDDED_SIGNUP: FINISH / FINISH_ONLY_WABA carry phone_number_id and waba_id, CANCEL means
 * the user left; anything that is not JSON is kept as non_json_data), runs FB.login with the
 * embedded-signup configuration and resolves once both the code and the ids arrived. Listeners
 * are removed afterwards.
 */
export function facebookEmbeddedSignup(
  FB: FacebookSdk,
  settings: FacebookSettings,
  options: { win: Window; extraOrigins?: string[]; idsGraceMs?: number },
): Promise<EmbeddedSignupResult> {
  const { win } = options;
  const graceMs = options.idsGraceMs ?? EMBEDDED_SIGNUP_IDS_GRACE_MS;
  const allowed = (origin: string) => isFacebookOrigin(origin) || (options.extraOrigins ?? []).includes(origin);

  return new Promise<EmbeddedSignupResult>((resolve, reject) => {
    let code: string | null = null;
    let ids: { phone_number_id: string; waba_id: string } | null = null;
    let nonJson: unknown = undefined;
    let done = false;
    let graceTimer: ReturnType<typeof setTimeout> | undefined;

    const finish = (error: Error | null) => {
      if (done) return;
      done = true;
      clearTimeout(graceTimer);
      win.removeEventListener('message', onMessage);
      if (error) reject(error);
      else {
        const result: EmbeddedSignupResult = { code: code!, phone_number_id: ids!.phone_number_id, waba_id: ids!.waba_id };
        if (nonJson !== undefined) result.non_json_data = nonJson;
        resolve(result);
      }
    };
    const settle = () => {
      if (code && ids) finish(null);
    };

    function onMessage(event: MessageEvent) {
      if (done || !allowed(event.origin)) return;
      const parsed = parseMessage(event.data);
      if ('raw' in parsed) {
        nonJson = parsed.raw;
        return;
      }
      const message = parsed.json;
      if (message.type !== 'WA_EMBEDDED_SIGNUP') return;
      if (message.event === 'FINISH' || message.event === 'FINISH_ONLY_WABA') {
        ids = { phone_number_id: text(message.data?.phone_number_id), waba_id: text(message.data?.waba_id) };
        settle();
      } else if (message.event === 'CANCEL') {
        const reason = text(message.data?.error_message);
        finish(reason ? new Error(reason) : new SocialDialogClosedError('facebook'));
      }
    }

    win.addEventListener('message', onMessage);
    try {
      FB.login(
        (response) => {
          if (done) return;
          const received = response?.authResponse?.code;
          if (!received) return finish(new SocialDialogClosedError('facebook'));
          code = received;
          settle();
          if (!done) {
            graceTimer = setTimeout(
              () => finish(new Error('The embedded signup finished without a WhatsApp Business Account')),
              graceMs,
            );
          }
        },
        {
          config_id: settings.config_id,
          response_type: 'code',
          override_default_response_type: true,
          extras: { setup: {}, featureType: '', sessionInfoVersion: '3' },
        },
      );
    } catch (error) {
      finish(error instanceof Error ? error : new Error(String(error)));
    }
  });
}
