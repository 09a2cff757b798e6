import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import type { Room } from '../../../contract/chats';
import { useApi } from '../../core';
import { chatApiRef } from './api';
import { customerWindow, WINDOW_TICK_MS, type CustomerWindow } from './model/window';
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

/** The room's WhatsApp window, re-evaluated every 30 s and at the moment it closes. */
export function useCustomerWindow(room: Pick<Room, 'platform' | 'last_inbound_at'>): CustomerWindow {
  const [now, setNow] = useState(() => Date.now());
  const win = customerWindow(room, now);
  const { applies, closed, closesAt } = win;
  useEffect(() => {
    if (!applies) return;
    // A customer message reopens the window: count from now, not from the last tick.
    setNow(Date.now());
    const tick = setInterval(() => setNow(Date.now()), WINDOW_TICK_MS);
    return () => clearInterval(tick);
  }, [applies, room.last_inbound_at]);
  useEffect(() => {
    if (!applies || closed || closesAt === null) return;
    const atClose = setTimeout(() => setNow(Date.now()), Math.max(0, closesAt - Date.now()) + 1);
    return () => clearTimeout(atClose);
  }, [applies, closed, closesAt]);
  return win;
}
