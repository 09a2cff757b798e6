import { Socket } from 'phoenix';
import { accountApiRef, configApiRef, realtimeApiRef, sessionApiRef } from '../apis';
import type { AccountStore, ConsoleConfig, RealtimeClientFactory, SessionStore } from '../apis';
import { createApiFactory } from '../di/apiRef';
import { socketEndpoint } from './socketEndpoint';

export { socketEndpoint };

/** The realtime client with phoenix imported statically (the shell: its chats service imports phoenix anyway). */
export function createRealtimeFactory(deps: { config: ConsoleConfig; session: SessionStore; account: AccountStore }): RealtimeClientFactory {
  return {
    createSocket() {
      const domain = deps.account.getCompany()?.translator_domain || deps.config.socketDomain;
      // params is a function so a reconnect sends the current token and company.
      return new Socket(socketEndpoint(domain), {
        params: () => ({ token: deps.session.getAccessToken() ?? '', company_id: deps.account.getCompanyId() ?? '' }),
      });
    },
  };
}

/**
 * Registered by the shell (src/app/App.tsx) over the core APIs' lazy default (lazyRealtime.ts):
 * the core APIs are in the signed-out pages' chunks, which need no socket.
 */
export const realtimeApiFactory = createApiFactory({
  api: realtimeApiRef,
  deps: { config: configApiRef, session: sessionApiRef, account: accountApiRef },
  factory: (deps) => createRealtimeFactory(deps),
});
