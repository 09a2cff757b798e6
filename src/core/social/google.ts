import type { ClientConfig } from '../../../contract/channels';
import { SocialDialogClosedError, SocialSdkUnavailableError } from '../apis';
import type { ScriptLoader } from './scriptLoader';

export type GoogleSettings = NonNullable<ClientConfig['google']>;

export const GOOGLE_SCOPE = 'openid email profile';

/** The part of Google Identity Services (`window.google.accounts.oauth2`) the console uses. */
export interface GoogleTokenResponse {
  access_token?: string;
  error?: string;
  error_description?: string;
}
export interface GoogleClientError {
  /** 'popup_closed', 'popup_failed_to_open' or 'unknown'. */
  type: string;
  message?: string;
}
export interface GoogleTokenClientConfig {
  client_id: string;
  scope: string;
  callback: (response: GoogleTokenResponse) => void;
  error_callback?: (error: GoogleClientError) => void;
}
export interface GoogleIdentity {
  accounts: { oauth2: { initTokenClient(config: GoogleTokenClientConfig): { requestAccessToken(overrides?: Record<string, unknown>): void } } };
}
export interface GoogleWindow {
  google?: GoogleIdentity;
}

/** Loads the GIS script (once) and returns `window.google`. */
export function createGoogleSdk(deps: { win: Window; loader: ScriptLoader; settings: () => Promise<GoogleSettings>; resolveUrl: (url: string) => string }) {
  const win = deps.win as Window & GoogleWindow;
  let ready: Promise<{ google: GoogleIdentity; settings: GoogleSettings }> | null = null;
  return function load() {
    ready ??= (async () => {
      const settings = await deps.settings();
      if (!win.google?.accounts?.oauth2) await deps.loader.load(deps.resolveUrl(settings.script_url), 'google');
      const google = win.google;
      if (!google?.accounts?.oauth2) throw new SocialSdkUnavailableError('google', 'Google Identity Services loaded without google.accounts.oauth2');
      return { google, settings };
    })().catch((error: unknown) => {
      ready = null;
      throw error;
    });
    return ready;
  };
}

/** A token client's access token; a closed popup → SocialDialogClosedError('google'), other errors → Error. */
export function googleLogin(google: GoogleIdentity, settings: GoogleSettings): Promise<string> {
  return new Promise((resolve, reject) => {
    const client = google.accounts.oauth2.initTokenClient({
      client_id: settings.client_id,
      scope: GOOGLE_SCOPE,
      callback: (response) => {
        if (response?.access_token) resolve(response.access_token);
        else reject(new Error(response?.error_description || response?.error || 'Google sign-in failed'));
      },
      error_callback: (error) => {
        if (error?.type === 'popup_closed') reject(new SocialDialogClosedError('google'));
        else reject(new Error(error?.message || error?.type || 'Google sign-in failed'));
      },
    });
    client.requestAccessToken();
  });
}
