import type { ClientConfig } from '../../../contract/channels';
import { SocialSdkUnavailableError, type ConsoleConfig, type HttpProvider, type SocialApi } from '../apis';
import { createClientConfigSource } from './clientConfig';
import { createFacebookSdk, facebookEmbeddedSignup, facebookLogin, sdkOrigin, type FacebookSettings } from './facebook';
import { createGoogleSdk, googleLogin, type GoogleSettings } from './google';
import { defaultScriptLoader, type ScriptLoader } from './scriptLoader';

type Env = Record<string, string | boolean | undefined>;

export interface SocialApiDeps {
  http: HttpProvider;
  config: Pick<ConsoleConfig, 'apiBase'>;
  /** Build-time settings for the VITE_* fallback (import.meta.env by default). */
  env?: Env;
  loader?: ScriptLoader;
  win?: Window;
  /** How long the embedded signup's ids may trail the login callback's code. */
  embeddedSignupGraceMs?: number;
}

/**
 * A script URL as the browser should load it: absolute URLs as they are, root-relative ones
 * ('/dev/meta/sdk.js', the server's local fake) on the API's base when the API lives elsewhere.
 */
export function resolveScriptUrl(url: string, apiBase: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('//')) return url;
  if (url.startsWith('/') && apiBase) return `${apiBase.replace(/\/+$/, '')}${url}`;
  return url;
}

/** The social SDKs (Facebook: login, page scopes, WhatsApp embedded signup; Google: login). */
export function createSocialApi(deps: SocialApiDeps): SocialApi {
  const win = deps.win ?? window;
  const loader = deps.loader ?? defaultScriptLoader;
  const resolveUrl = (url: string) => resolveScriptUrl(url, deps.config.apiBase);
  const clientConfig: () => Promise<ClientConfig> = createClientConfigSource(deps.http, deps.env ?? import.meta.env);

  const facebookSettings = async (): Promise<FacebookSettings> => {
    const settings = (await clientConfig()).facebook;
    if (!settings) throw new SocialSdkUnavailableError('facebook', 'Facebook is not configured');
    return settings;
  };
  const googleSettings = async (): Promise<GoogleSettings> => {
    const settings = (await clientConfig()).google;
    if (!settings) throw new SocialSdkUnavailableError('google', 'Google sign-in is not configured');
    return settings;
  };

  const facebook = createFacebookSdk({ win, loader, settings: facebookSettings, resolveUrl });
  const google = createGoogleSdk({ win, loader, settings: googleSettings, resolveUrl });

  return {
    clientConfig,
    async facebookLogin(scopes) {
      const { FB, settings } = await facebook();
      return facebookLogin(FB, settings, scopes);
    },
    async facebookEmbeddedSignup() {
      const { FB, settings } = await facebook();
      if (!settings.config_id) throw new SocialSdkUnavailableError('facebook', 'The embedded signup configuration id is not set');
      // The local fake SDK posts its messages from its own origin; Meta's come from facebook.com.
      const own = sdkOrigin(resolveUrl(settings.sdk_url), win.location.href);
      return facebookEmbeddedSignup(FB, settings, { win, extraOrigins: own ? [own] : [], idsGraceMs: deps.embeddedSignupGraceMs });
    },
    async googleLogin() {
      const { google: sdk, settings } = await google();
      return googleLogin(sdk, settings);
    },
  };
}
