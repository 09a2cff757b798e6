/**
 * Issue #22: `/chats/{room}?message={id}` (a search result, a mention's notification) opens the room at
 * that message: older pages load until it is in the thread (at most MAX_PAGES of them); the room view
 * then mounts its list afresh opened at that message (MessageList's openAtMessageId), which outlines it.
 * A scroll issued to an already positioned list lost to Virtuoso's own positioning after a prepend, so
 * the list is opened there instead of scrolled there.
 */
import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { ChatService, Thread } from '../service/chatService';

const MAX_PAGES = 40;

export function useMessageFocus(roomId: number, thread: Thread | undefined, service: Pick<ChatService, 'loadOlder'>): number | null {
  const [params] = useSearchParams();
  const raw = params.get('message');
  const messageId = raw && /^\d{1,9}$/.test(raw) ? Number(raw) : null;
  const pages = useRef(0);

  useEffect(() => {
    pages.current = 0;
  }, [roomId, messageId]);

  useEffect(() => {
    if (messageId === null || !thread?.loaded || thread.messages.some((m) => m.id === messageId)) return;
    if (thread.hasMore && !thread.loadingOlder && pages.current < MAX_PAGES) {
      pages.current += 1;
      void service.loadOlder(roomId);
    }
  }, [messageId, thread, roomId, service]);

  return messageId;
}
