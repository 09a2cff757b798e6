import type { AccountStore, ConsoleConfig, HttpProvider, RequestOptions, SessionStore } from '../apis';
import { HttpError } from './HttpError';

export const REFRESH_PATH = '/account/token/refresh/';

export interface HttpProviderDeps {
  config: ConsoleConfig;
  session: SessionStore;
  account: AccountStore;
  /** Translates the "not authenticated" message (i18n key core.errors.notAuthenticated). */
  translate: (key: string) => string;
  fetch?: typeof fetch;
}

function buildQuery(query: RequestOptions['query']): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.append(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

function encodeBody(body: unknown): { body?: BodyInit; json: boolean } {
  if (body === undefined) return { json: false };
  if (typeof FormData !== 'undefined' && body instanceof FormData) return { body, json: false };
  if (typeof Blob !== 'undefined' && body instanceof Blob) return { body, json: false };
  return { body: JSON.stringify(body), json: true };
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * fetch-based client for the spec's REST API (§7): bearer token + Company header on authenticated
 * calls, a single-flight token refresh before calls made with an expired access token, sign-out on
 * refresh failure or on a 401 answered while an access token was stored.
 */
export function createHttpProvider(deps: HttpProviderDeps): HttpProvider {
  const { config, session, account, translate } = deps;
  const doFetch = deps.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  let refreshing: Promise<string> | null = null;
  const failureListeners = new Set<(error: HttpError) => void>();
  const failed = (error: HttpError): HttpError => {
    for (const listener of failureListeners) {
      try {
        listener(error);
      } catch {
        // a listener's bug never changes the caller's error
      }
    }
    return error;
  };

  const signOut = () => {
    session.clear();
    account.clear(); // emits signedOut: the app navigates to /auth/login
  };

  const notAuthenticated = () => new HttpError(401, { detail: translate('core.errors.notAuthenticated') }, 'Unauthorized');

  async function send<T>(method: string, path: string, options: RequestOptions, token: string | null): Promise<T> {
    const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
    const { body, json } = encodeBody(options.body);
    if (json) headers['Content-Type'] = 'application/json';
    if (options.auth !== false) {
      if (token) headers.Authorization = `Bearer ${token}`;
      const companyId = account.getCompanyId();
      if (companyId !== null) headers.Company = String(companyId);
    }
    const url = `${options.baseUrl ?? config.apiBase}${path}${buildQuery(options.query)}`;
    const response = await doFetch(url, { method, headers, body, signal: options.signal });
    if (response.status === 204) return undefined as T;
    const parsed = await readBody(response);
    if (!response.ok) {
      if (response.status === 401 && options.auth !== false && session.getAccessToken()) signOut();
      throw failed(new HttpError(response.status, parsed, response.statusText));
    }
    return parsed as T;
  }

  function refresh(refreshToken: string): Promise<string> {
    // Single flight: concurrent calls with an expired token share one refresh request.
    refreshing ??= send<{ access: string; refresh?: string }>('POST', REFRESH_PATH, { body: { refresh: refreshToken }, auth: false }, null)
      .then((tokens) => {
        session.setTokens({ access: tokens.access, refresh: tokens.refresh });
        return tokens.access;
      })
      .catch((error: unknown) => {
        // The server refused the refresh token: the session is over. No answer at all (offline, the
        // page being left) keeps it, so the next call tries again.
        if (error instanceof HttpError) signOut();
        throw error;
      })
      .finally(() => {
        refreshing = null;
      });
    return refreshing;
  }

  /** The token to send: the stored one while valid, else a refreshed one, else empty (spec §4). */
  async function accessToken(): Promise<string | null> {
    const access = session.getAccessToken();
    const refreshToken = session.getRefreshToken();
    if (!access && !refreshToken) throw notAuthenticated();
    if (access && !session.isExpired(access)) return access;
    if (refreshToken && !session.isExpired(refreshToken)) return refresh(refreshToken);
    return null;
  }

  async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const token = options.auth === false ? null : await accessToken();
    return send<T>(method.toUpperCase(), path, options, token);
  }

  return {
    request,
    get: (path, options) => request('GET', path, options),
    post: (path, body, options) => request('POST', path, { ...options, body }),
    put: (path, body, options) => request('PUT', path, { ...options, body }),
    patch: (path, body, options) => request('PATCH', path, { ...options, body }),
    delete: (path, options) => request('DELETE', path, options),
    onFailure(listener) {
      failureListeners.add(listener);
      return () => failureListeners.delete(listener);
    },
  };
}
