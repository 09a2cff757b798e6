import { useCallback, useSyncExternalStore } from 'react';
import { useApi } from '../../../core';
import { savedRepliesApiRef } from '../api';
import type { SavedRepliesService, SavedRepliesState } from './savedRepliesService';

export function useSavedRepliesService(): SavedRepliesService {
  return useApi(savedRepliesApiRef);
}

export function useSavedReplies(): SavedRepliesState {
  const service = useSavedRepliesService();
  const subscribe = useCallback((onChange: () => void) => service.subscribe(onChange), [service]);
  return useSyncExternalStore(subscribe, service.getState);
}
