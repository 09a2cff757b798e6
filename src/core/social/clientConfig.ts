import { GRAPH_API_VERSION, type ClientConfig } from '../../../contract/channels';
import type { HttpProvider } from '../apis';
import { isHttpError } from '../http/HttpError';
import { CLIENT_CONFIG_PATH, rememberedStartupConfig } from '../features/startupRequest';

export { CLIENT_CONFIG_PATH };
export const DEFAULT_FACEBOOK_SDK_URL = 'https://connect.facebook.net/en_US/sdk.js';
export const DEFAULT_GOOGLE_SCRIPT_URL = 'https://accounts.google.com/gsi/client';

type Env = Record<string, string | boolean | undefined>;

function envString(env: Env, key: string): string {
  const value = env[key];
  return typeof value === 'string' ? value.trim() : '';
}

function scopes(value: string): string[] {
  return value
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * The build-time settings used when the backend does not serve GET /api/client-config/:
 * VITE_FACEBOOK_APP_ID, VITE_FACEBOOK_CONFIG_ID, VITE_FACEBOOK_SDK_URL, VITE_FACEBOOK_VERSION,
 * VITE_FACEBOOK_PAGE_SCOPES, VITE_FACEBOOK_LOGIN_SCOPES, VITE_GOOGLE_CLIENT_ID, VITE_GOOGLE_SCRIPT_URL.
 * A provider without an app / client id is null.
 */
export function fallbackClientConfig(env: Env): ClientConfig {
  const appId = envString(env, 'VITE_FACEBOOK_APP_ID');
  const clientId = envString(env, 'VITE_GOOGLE_CLIENT_ID');
  return {
    facebook: appId
      ? {
          app_id: appId,
          config_id: envString(env, 'VITE_FACEBOOK_CONFIG_ID'),
          sdk_url: envString(env, 'VITE_FACEBOOK_SDK_URL') || DEFAULT_FACEBOOK_SDK_URL,
          version: envString(env, 'VITE_FACEBOOK_VERSION') || GRAPH_API_VERSION,
          page_scopes: scopes(envString(env, 'VITE_FACEBOOK_PAGE_SCOPES')),
          login_scopes: scopes(envString(env, 'VITE_FACEBOOK_LOGIN_SCOPES') || 'email,public_profile'),
        }
      : null,
    google: clientId ? { client_id: clientId, script_url: envString(env, 'VITE_GOOGLE_SCRIPT_URL') || DEFAULT_GOOGLE_SCRIPT_URL } : null,
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v.length > 0) : [];
}

/** The server's answer, defensively: a provider is kept only with its id; missing fields take the defaults. */
export function normalizeClientConfig(raw: unknown): ClientConfig {
  const body = isObject(raw) ? raw : {};
  const fb = isObject(body.facebook) ? body.facebook : null;
  const google = isObject(body.google) ? body.google : null;
  const str = (o: Record<string, unknown>, key: string) => (typeof o[key] === 'string' ? (o[key] as string) : '');
  return {
    facebook:
      fb && str(fb, 'app_id')
        ? {
            app_id: str(fb, 'app_id'),
            config_id: str(fb, 'config_id'),
            sdk_url: str(fb, 'sdk_url') || DEFAULT_FACEBOOK_SDK_URL,
            version: str(fb, 'version') || GRAPH_API_VERSION,
            page_scopes: stringList(fb.page_scopes),
            login_scopes: stringList(fb.login_scopes),
          }
        : null,
    google:
      google && str(google, 'client_id')
        ? { client_id: str(google, 'client_id'), script_url: str(google, 'script_url') || DEFAULT_GOOGLE_SCRIPT_URL }
        : null,
  };
}

/**
 * GET /api/client-config/ (no login), cached once answered; the answer the shell read at start-up when there is one
 * (startupRequest.ts), so a signed-in page does not ask twice. When the backend does not serve it
 * (404, or no JSON object) the VITE_* fallback is cached instead; other failures (offline, 5xx)
 * use the fallback for this call only, so a later call asks the server again.
 */
export function createClientConfigSource(http: HttpProvider, env: Env): () => Promise<ClientConfig> {
  let cached: Promise<ClientConfig> | null = null;
  return () => {
    if (cached) return cached;
    const atStartUp = rememberedStartupConfig();
    if (atStartUp) {
      cached = Promise.resolve(normalizeClientConfig(atStartUp));
      return cached;
    }
    const attempt = http.get<unknown>(CLIENT_CONFIG_PATH, { auth: false }).then(
      (body) => {
        if (!isObject(body)) return fallbackClientConfig(env);
        return normalizeClientConfig(body);
      },
      (error: unknown) => {
        if (!(isHttpError(error) && error.status === 404)) cached = null;
        return fallbackClientConfig(env);
      },
    );
    cached = attempt;
    return attempt;
  };
}
