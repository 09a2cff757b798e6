import type { SessionStore } from '../apis';

export const ACCESS_TOKEN_KEY = 'console.accessToken';
export const REFRESH_TOKEN_KEY = 'console.refreshToken';
/** Spec §4/§9: a token counts as expired when it expires within 30 s. */
export const TOKEN_EXPIRY_MARGIN_MS = 30_000;

/** Reads a JWT's `exp` (seconds) without verifying it: the server verifies, the console only schedules refreshes. */
export function decodeTokenExpiry(token: string): number | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(payload.length / 4) * 4, '=');
    const claims = JSON.parse(atob(base64)) as { exp?: unknown };
    return typeof claims.exp === 'number' ? claims.exp : null;
  } catch {
    return null;
  }
}

export function isTokenExpired(token: string | null, now: number = Date.now()): boolean {
  if (!token) return true;
  const exp = decodeTokenExpiry(token);
  if (exp === null) return true; // undecodable tokens are unusable
  return exp * 1000 - now <= TOKEN_EXPIRY_MARGIN_MS;
}

/** Access and refresh tokens kept in localStorage so a reload keeps the session. */
export function createSessionStore(storage: Storage = localStorage, now: () => number = Date.now): SessionStore {
  return {
    getAccessToken: () => storage.getItem(ACCESS_TOKEN_KEY),
    getRefreshToken: () => storage.getItem(REFRESH_TOKEN_KEY),
    setTokens({ access, refresh }) {
      storage.setItem(ACCESS_TOKEN_KEY, access);
      if (refresh) storage.setItem(REFRESH_TOKEN_KEY, refresh);
    },
    clear() {
      storage.removeItem(ACCESS_TOKEN_KEY);
      storage.removeItem(REFRESH_TOKEN_KEY);
    },
    isExpired: (token) => isTokenExpired(token, now()),
  };
}
