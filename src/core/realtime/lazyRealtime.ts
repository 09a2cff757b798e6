import type { Socket } from 'phoenix';
import type { AccountStore, ConsoleConfig, RealtimeClientFactory, SessionStore } from '../apis';
import { socketEndpoint } from './socketEndpoint';

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

export function createLazyRealtimeFactory(deps: { config: ConsoleConfig; session: SessionStore; account: AccountStore }): RealtimeClientFactory {
  void loadPhoenix();
  return {
    createSocket() {
      if (!SocketClass) throw new Error('phoenix is still loading: await loadPhoenix() before createSocket()');
      const domain = deps.account.getCompany()?.translator_domain || deps.config.socketDomain;
      return new SocketClass(socketEndpoint(domain), {
        params: () => ({ token: deps.session.getAccessToken() ?? '', company_id: deps.account.getCompanyId() ?? '' }),
      });
    },
  };
}
