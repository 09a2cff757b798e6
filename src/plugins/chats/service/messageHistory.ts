/** A room's older history (fetch_messages before the oldest loaded message) and fresh media URLs. */
import { CHAT_EVENTS, CHAT_PAGE_SIZE, type Message } from '../../../../contract/chats';
import { mergeMessages } from '../model/messages';
import { pushAsync } from './channelPush';
import type { ChatConnection } from './connection';
import type { ChatStore } from './chatStore';
import type { RoomUpdates } from './roomUpdates';
import type { ChatService, FailureAlert } from './types';

/** A message's media is asked for again at most this often (refreshMedia). */
export const MEDIA_REFRESH_INTERVAL_MS = 60_000;

/** The page that ends just after a message: the server compares strictly, hence +1 ms (and the caller's id). */
function pageBefore(message: Message, beforeId: number) {
  return { before_timestamp: new Date(Date.parse(message.created_at) + 1).toISOString(), before_id: beforeId };
}

export function createMessageHistory(deps: { store: ChatStore; connection: ChatConnection; rooms: RoomUpdates; alertFailure: FailureAlert }): Pick<ChatService, 'loadOlder' | 'refreshMedia'> {
  const { store, connection } = deps;
  /** When each message's media was last asked for again (refreshMedia). */
  const mediaRefreshedAt = new Map<number, number>();

  return {
    async loadOlder(roomId) {
      const th = store.thread(roomId);
      if (th.loadingOlder || !th.hasMore) return;
      const oldest = th.messages.find((m) => !m.local);
      const channel = connection.roomChannels.get(roomId);
      if (!channel || !oldest) return;
      // before_id with the timestamp so messages sharing the oldest one's millisecond are neither skipped nor repeated.
      const before = pageBefore(oldest, oldest.id);
      store.setThread(roomId, { loadingOlder: true });
      const current = connection.currentRun();
      try {
        const resp = await pushAsync<{ messages: Message[]; has_more: boolean }>(channel, CHAT_EVENTS.fetchMessages, before);
        if (!current()) return;
        const older = resp?.messages ?? [];
        store.setThread(roomId, { messages: mergeMessages(store.thread(roomId).messages, older), hasMore: resp?.has_more ?? older.length >= CHAT_PAGE_SIZE, loadingOlder: false });
        deps.rooms.bumpInbound(roomId, older);
      } catch (err) {
        if (!current()) return;
        store.setThread(roomId, { loadingOlder: false });
        deps.alertFailure('chats.errors.history', err);
      }
    },
    async refreshMedia(roomId, messageId) {
      const message = store.thread(roomId).messages.find((m) => m.id === messageId && !m.local);
      const channel = connection.roomChannels.get(roomId);
      const now = Date.now();
      if (!message || !channel || now - (mediaRefreshedAt.get(messageId) ?? -Infinity) < MEDIA_REFRESH_INTERVAL_MS) return;
      mediaRefreshedAt.set(messageId, now);
      // The newest page ending at this message (id + 1: the message itself is included).
      const at = pageBefore(message, message.id + 1);
      const current = connection.currentRun();
      try {
        const resp = await pushAsync<{ messages: Message[] }>(channel, CHAT_EVENTS.fetchMessages, at);
        if (!current()) return;
        store.setThread(roomId, { messages: mergeMessages(store.thread(roomId).messages, resp?.messages ?? []) });
      } catch {
        // The broken picture stays; the next failure after the interval tries again.
      }
    },
  };
}
