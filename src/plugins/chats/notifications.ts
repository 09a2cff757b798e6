/**
 * Desktop notification and title badge for customer messages that arrive while the tab is hidden.
 * Permission is asked politely, once: only after the agent chooses "Enable" in the inbox.
 */
import { useEffect, useState } from 'react';
import type { ChatService } from './service/chatService';
import { playNewMessageSound, soundEnabled } from './sound';

export const NOTIFY_PROMPT_KEY = 'chats.notifyPrompted';

export function badgeTitle(base: string, count: number): string {
  const clean = base.replace(/^\(\d+\)\s*/, '');
  return count > 0 ? `(${count}) ${clean}` : clean;
}

function notificationApi(): typeof Notification | null {
  return typeof window !== 'undefined' && 'Notification' in window ? window.Notification : null;
}

/** Show the "enable notifications" prompt? Only when the browser would ask and we never asked. */
export function shouldPrompt(): boolean {
  const api = notificationApi();
  if (!api || api.permission !== 'default') return false;
  try {
    return localStorage.getItem(NOTIFY_PROMPT_KEY) !== '1';
  } catch {
    return false;
  }
}

export function useNotificationPrompt() {
  const [visible, setVisible] = useState(shouldPrompt);
  const remember = () => {
    try {
      localStorage.setItem(NOTIFY_PROMPT_KEY, '1');
    } catch {
      /* ignore */
    }
    setVisible(false);
  };
  return {
    visible,
    allow: () => {
      remember();
      void notificationApi()?.requestPermission();
    },
    dismiss: remember,
  };
}

/**
 * While the tab is hidden, customer messages raise the title badge "(N) …" and a desktop notification. A
 * customer message in a conversation assigned to me also plays a short sound when the agent turned it on
 * (./sound.ts), unless it is the conversation open in a visible tab.
 */
export function useBackgroundAlerts(
  service: ChatService,
  titleFor: (name: string) => string,
  sound: { myId: number | null; openRoomId: () => number | null; play?: () => void } = { myId: null, openRoomId: () => null },
) {
  const { myId, openRoomId, play = playNewMessageSound } = sound;
  useEffect(() => {
    let count = 0;
    const base = document.title.replace(/^\(\d+\)\s*/, '');
    const reset = () => {
      if (!document.hidden && count) {
        count = 0;
        document.title = badgeTitle(document.title, 0);
      }
    };
    const off = service.onCustomerMessage((room, message) => {
      const watching = !document.hidden && openRoomId() === message.room_id;
      if (myId !== null && room?.assignee?.id === myId && !watching && soundEnabled()) play();
      if (!document.hidden) return;
      count += 1;
      document.title = badgeTitle(document.title || base, count);
      const api = notificationApi();
      if (api?.permission === 'granted') {
        try {
          const n = new api(titleFor(room?.name ?? ''), { body: message.text ?? '', tag: `room-${message.room_id}` });
          n.onclick = () => {
            window.focus();
            n.close();
          };
        } catch {
          /* some browsers only allow notifications from a service worker */
        }
      }
    });
    document.addEventListener('visibilitychange', reset);
    return () => {
      off();
      document.removeEventListener('visibilitychange', reset);
      document.title = badgeTitle(document.title, 0);
    };
  }, [service, titleFor, myId, openRoomId, play]);
}
