import { useCallback, useSyncExternalStore } from 'react';
import { useApi } from '../../core';
import { chatApiRef } from './api';
import type { ChatService, ChatState } from './service/chatService';

export function useChatService(): ChatService {
  return useApi(chatApiRef);
}

/** A slice of the chat store; the selector must return a stored value (not a new object). */
export function useChatState<T>(selector: (s: ChatState) => T): T {
  const service = useChatService();
  const subscribe = useCallback((onChange: () => void) => service.subscribe(onChange), [service]);
  return useSyncExternalStore(subscribe, () => selector(service.getState()));
}
