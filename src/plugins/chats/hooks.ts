import { startTransition, useEffect, useLayoutEffect, useReducer, useRef, useState } from 'react';
import type { Room } from '../../../contract/chats';
import { useApi } from '../../core';
import { chatApiRef } from './api';
import { customerWindow, WINDOW_TICK_MS, type CustomerWindow } from './model/window';
import type { ChatService, ChatState } from './service/chatService';

export function useChatService(): ChatService {
  return useApi(chatApiRef);
}

/**
 * A slice of the chat store; the selector must return a stored value (not a new object). It is read as the component
 * renders, and a change of it re-renders the component in a transition.
 *
 * Why not useSyncExternalStore: React renders its updates synchronously and in one piece, and this store changes
 * with what the server sends (the rooms' first page, the counts, every message): the first page of rooms re-rendered
 * the inbox in one 149 ms task at 4× CPU (bench/bundle README). In a transition React renders in slices, and a
 * keystroke or a click is handled first. The price: while a transition renders, two components may show different
 * moments of the store for an instant; each shows the newest when it is done.
 */
export function useChatState<T>(selector: (s: ChatState) => T): T {
  const service = useChatService();
  const value = selector(service.getState());
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const shown = useRef({ selector, value });
  useLayoutEffect(() => {
    shown.current = { selector, value };
  });
  useEffect(() => {
    const check = () => {
      const { selector: select, value: current } = shown.current;
      if (!Object.is(select(service.getState()), current)) startTransition(rerender);
    };
    check(); // a change between the render and this subscription
    return service.subscribe(check);
  }, [service]);
  return value;
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
