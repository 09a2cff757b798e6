/**
 * The company's socket, opened by the entry (src/app/main.tsx) as soon as it runs on a signed-in path, from what the
 * console saved (the access token, the selected company), for the realtime factory's first connect to take
 * (`EarlyOrNewWebSocket`). On a phone the socket used to open only once the shell's chunks had arrived and the
 * inbox had mounted: two round trips (the TCP connection, the upgrade) after that, the open room's join went out
 * and its thread waited on it (issue #26, bench/bundle README). The same idea as startupRequest.ts's early request.
 *
 * A socket is taken only for the URL the factory would open itself (same endpoint, same token, company and protocol
 * version): anything else (a token refreshed meanwhile, another company chosen) is closed and the factory opens its
 * own, as before. One nobody takes is closed after a while. It reads the session and the account with their stores'
 * own small helpers, nothing of phoenix: the entry stays about as light as it was.
 */
import type { CompanyMembership } from '../../../contract/api';
import { loadSavedAccount } from '../account/accountStore';
import { ACCESS_TOKEN_KEY, isTokenExpired } from '../session/sessionStore';
import { socketEndpoint } from './socketEndpoint';

/** The serializer version phoenix's Socket sends (its default): part of the URL the server sees. */
export const PHOENIX_VSN = '2.0.0';

/** An early socket nobody took by then is closed (the slowest first mount seen on a phone takes about 4 s). */
export const UNCLAIMED_SOCKET_MS = 15_000;

/** WebSocket's readyState values (not read from the global: a test's socket class may not be the browser's). */
const CONNECTING = 0;
const OPEN = 1;

type WebSocketClass = new (url: string, protocols?: string | string[]) => WebSocket;

let early: { url: string; socket: WebSocket; timer: ReturnType<typeof setTimeout> } | null = null;

/** The URL phoenix's Socket opens for an endpoint and params (`<endpoint>/websocket?<params>&vsn=…`). */
export function websocketUrl(endpoint: string, params: Record<string, string | number>): string {
  const query = Object.entries({ ...params, vsn: PHOENIX_VSN })
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`)
    .join('&');
  return `${endpoint}/websocket?${query}`;
}

/** Two socket URLs naming the same endpoint and the same params, in any order or escaping. */
export function sameSocketUrl(a: string, b: string): boolean {
  try {
    const [x, y] = [new URL(a), new URL(b)];
    const params = (u: URL) => JSON.stringify([...u.searchParams].sort(([k1], [k2]) => (k1 < k2 ? -1 : k1 > k2 ? 1 : 0)));
    return x.origin === y.origin && x.pathname === y.pathname && params(x) === params(y);
  } catch {
    return false;
  }
}

/**
 * The socket URL the console's first connect will ask for, from what it saved: null when it cannot know it (signed
 * out, an expired token the console will refresh first, no company chosen yet).
 */
export function savedSocketUrl(
  storage: Pick<Storage, 'getItem'>,
  socketDomain: string,
  loc: Pick<Location, 'protocol' | 'host'>,
  /** Whether this membership's pages hold the socket (a socket nobody takes is a connect for nothing). */
  holdsSocket: (company: CompanyMembership) => boolean = () => true,
): string | null {
  try {
    const token = storage.getItem(ACCESS_TOKEN_KEY);
    if (!token || isTokenExpired(token)) return null;
    const { user, companyId } = loadSavedAccount(storage);
    const company = companyId === null ? undefined : user?.companies?.find((c) => c.id === companyId);
    if (!company || !holdsSocket(company)) return null;
    // As the realtime factory chooses it (sharedRealtimeFactory.ts).
    const endpoint = socketEndpoint(company.translator_domain || socketDomain, loc);
    return websocketUrl(endpoint, { token, company_id: company.id });
  } catch {
    return null; // unreadable storage: the factory connects as before
  }
}

/** Opens the socket for `url` now, for the factory's first connect to take. */
export function openEarlySocket(url: string, Socket: WebSocketClass = WebSocket, unclaimedMs = UNCLAIMED_SOCKET_MS): void {
  if (early) return;
  try {
    const socket = new Socket(url);
    const timer = setTimeout(() => {
      if (early?.socket !== socket) return;
      early = null;
      socket.close(1000, 'unclaimed');
    }, unclaimedMs);
    early = { url, socket, timer };
  } catch {
    early = null; // a URL the browser refuses: the factory's own connect will say so
  }
}

/**
 * The early socket if it was opened for this URL and is still connecting or open (taken once: a reconnect opens a
 * new one), else null; a socket opened for another URL is closed.
 */
export function takeEarlySocket(url: string): WebSocket | null {
  const taken = early;
  if (!taken) return null;
  early = null;
  clearTimeout(taken.timer);
  const usable = taken.socket.readyState === CONNECTING || taken.socket.readyState === OPEN;
  if (usable && sameSocketUrl(taken.url, url)) return taken.socket;
  if (usable) taken.socket.close(1000, 'not needed');
  return null;
}

/**
 * A phoenix transport (its `transport` option): the early socket when it was opened for the URL asked, else a new
 * WebSocket. phoenix sets its handlers right after construction; a socket that is already open is announced to them
 * with an `open` event of its own, since the browser's came before anyone listened.
 */
export function createEarlyOrNewWebSocket(Socket: WebSocketClass = WebSocket): WebSocketClass {
  function EarlyOrNewWebSocket(url: string, protocols?: string | string[]): WebSocket {
    const taken = protocols === undefined ? takeEarlySocket(url) : null;
    if (!taken) return new Socket(url, protocols);
    if (taken.readyState === OPEN) queueMicrotask(() => taken.dispatchEvent(new Event('open')));
    return taken;
  }
  return EarlyOrNewWebSocket as unknown as WebSocketClass;
}
