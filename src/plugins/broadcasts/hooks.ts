import { useEffect, useSyncExternalStore } from 'react';
import { normalizeRole } from '../../../contract/permissions';
import { useAccount, useApi } from '../../core';
import { liveBroadcastsApiRef } from './api';
import type { LiveState } from './model/liveService';

/** The live broadcast state (last event per broadcast, resync counter). */
export function useLiveBroadcasts(): LiveState {
  const live = useApi(liveBroadcastsApiRef);
  return useSyncExternalStore(live.subscribe, live.getState);
}

/** Watches the channels' broadcast events while mounted (the ids as a sorted, comma-joined key keeps joins stable). */
export function useWatchChannels(channelIds: readonly number[]) {
  const live = useApi(liveBroadcastsApiRef);
  const key = [...new Set(channelIds)].sort((a, b) => a - b).join(',');
  useEffect(() => {
    if (!key) return;
    return live.watch(key.split(',').map(Number));
  }, [live, key]);
}

/** Calls `onResync` when a channel rejoined after a disconnection (events may have been missed). */
export function useOnResync(onResync: () => void) {
  const { resyncs } = useLiveBroadcasts();
  useEffect(() => {
    if (resyncs > 0) onResync();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a new resync triggers it
  }, [resyncs]);
}

/** Admins and managers send, pause, cancel, retry and delete broadcasts; agents look (the server's rule). */
export function useCanSend(): boolean {
  const { company } = useAccount();
  const role = normalizeRole(company?.role?.id ?? company?.role?.name);
  return role === 'admin' || role === 'manager';
}
