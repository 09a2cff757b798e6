import { Socket } from 'phoenix';
import { accountApiRef, configApiRef, realtimeApiRef, sessionApiRef } from '../apis';
import type { RealtimeClientFactory } from '../apis';
import { createApiFactory } from '../di/apiRef';
import { createSharedRealtimeFactory, type RealtimeDeps } from './sharedRealtimeFactory';
import { socketEndpoint } from './socketEndpoint';

export { socketEndpoint };

/** The realtime client with phoenix imported statically (the shell: its chats service imports phoenix anyway). */
export function createRealtimeFactory(deps: RealtimeDeps): RealtimeClientFactory {
  return createSharedRealtimeFactory(deps, () => Socket);
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
