import type { Socket } from 'phoenix';
import type { RealtimeClientFactory } from '../apis';
import { createSharedRealtimeFactory, type RealtimeDeps } from './sharedRealtimeFactory';

/**
 * The core APIs' realtime client: phoenix (26 KB minified) is imported when the factory is first
 * resolved (a page or service that needs the socket), not with the core APIs, so the signed-out
 * pages never fetch it. The shell registers the eager factory (realtimeFactory.ts) over this one;
 * a console without it (tests, PublicPages) calls `loadPhoenix()` before `createSocket()`.
 */
let SocketClass: typeof Socket | undefined;
let loading: Promise<typeof Socket> | undefined;

export function loadPhoenix(): Promise<typeof Socket> {
  loading ??= import('phoenix').then((m) => (SocketClass = m.Socket));
  return loading;
}

export function createLazyRealtimeFactory(deps: RealtimeDeps): RealtimeClientFactory {
  void loadPhoenix();
  return createSharedRealtimeFactory(deps, () => {
    if (!SocketClass) throw new Error('phoenix is still loading: await loadPhoenix() before createSocket()');
    return SocketClass;
  });
}
