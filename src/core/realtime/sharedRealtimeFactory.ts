import type { Socket } from 'phoenix';
import type { AccountStore, ConsoleConfig, RealtimeClientFactory, SessionStore } from '../apis';
import { createEarlyOrNewWebSocket } from './earlySocket';
import { reconnectAfterMs } from './reconnect';
import { createSocketSharing } from './sharedSocket';
import { socketEndpoint } from './socketEndpoint';

export interface RealtimeDeps {
  config: ConsoleConfig;
  session: SessionStore;
  account: AccountStore;
}

/**
 * The realtime API over a phoenix Socket class: one socket per endpoint and company, shared by its consumers
 * (sharedSocket.ts). Apart from realtimeFactory.ts so the core's lazy factory can use it without importing phoenix.
 */
export function createSharedRealtimeFactory(deps: RealtimeDeps, socketClass: () => typeof Socket): RealtimeClientFactory {
  const sharing = createSocketSharing();
  return {
    createSocket() {
      const domain = deps.account.getCompany()?.translator_domain || deps.config.socketDomain;
      const endpoint = socketEndpoint(domain);
      return sharing.acquire(`${endpoint} ${deps.account.getCompanyId() ?? ''}`, () => {
        const PhoenixSocket = socketClass();
        // params is a function so a reconnect sends the current token and company.
        return new PhoenixSocket(endpoint, {
          params: () => ({ token: deps.session.getAccessToken() ?? '', company_id: deps.account.getCompanyId() ?? '' }),
          reconnectAfterMs,
          // The first connect takes the socket the entry opened while the shell downloaded, when it is for this URL.
          ...(typeof WebSocket === 'undefined' ? {} : { transport: createEarlyOrNewWebSocket() }),
        });
      });
    },
  };
}
