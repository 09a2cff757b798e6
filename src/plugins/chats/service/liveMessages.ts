/** A message pushed live (page or room topic): into its thread and its room's preview, counted once. */
import type { Message } from '../../../../contract/chats';
import { mergeMessages } from '../model/messages';
import { withNewMessage } from '../model/rooms';
import type { ChatConnection } from './connection';
import type { ChatStore } from './chatStore';
import type { UnreadTracking } from './unreadTracking';

export interface LiveMessages {
  receive(message: Message): void;
}

export function createLiveMessages(deps: { store: ChatStore; connection: ChatConnection; unread: UnreadTracking; joinRoomNow: (roomId: number) => void }): LiveMessages {
  const { store, unread } = deps;
  return {
    receive(message) {
      const roomId = message.room_id;
      const isNew = unread.markSeen(roomId, message.id);
      // Page and room topics both deliver a message: merging deduplicates by id and client_id.
      if (store.get().threads[roomId]) store.setThread(roomId, { messages: mergeMessages(store.thread(roomId).messages, [message]) });
      const room = store.get().rooms[roomId];
      if (room) {
        const updated = withNewMessage(room, message);
        if (updated !== room) {
          store.addToList(roomId);
          store.set({ rooms: { ...store.get().rooms, [roomId]: updated } });
        }
      } else if (deps.connection.socket()) {
        // A room we have not loaded yet: its channel join brings the room into the list.
        deps.joinRoomNow(roomId);
      }
      if (isNew) unread.announce(message);
    },
  };
}
