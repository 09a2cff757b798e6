/** How rooms the server sends (fetch_rooms, joins, replies to commands) enter the state. */
import type { Message, Room } from '../../../../contract/chats';
import { mergeMessages } from '../model/messages';
import { laterTime, mergeRoom, withInbound } from '../model/rooms';
import type { ChatStore } from './chatStore';
import type { UnreadTracking } from './unreadTracking';

export interface RoomUpdates {
  /** Merges fetched rooms into the state and the list, counting what came unseen as unread. */
  upsert(rooms: Room[]): void;
  /** Replaces the room (block/unblock, update_user, tags, room_info): the server's copy wins. */
  replace(room: Room): void;
  /** Loaded messages (join catch-up, older history): the customer's move last_inbound_at forward. */
  bumpInbound(roomId: number, messages: Message[]): void;
}

export function createRoomUpdates(deps: { store: ChatStore; unread: UnreadTracking }): RoomUpdates {
  const { store, unread } = deps;
  return {
    upsert(rooms) {
      if (!rooms.length) return;
      const next = { ...store.get().rooms };
      for (const r of rooms) {
        next[r.id] = mergeRoom(next[r.id], r);
        store.addToList(r.id);
      }
      const counts = unread.withFirstSight(rooms);
      store.set({ rooms: next });
      unread.setUnread(counts);
    },
    replace(room) {
      const state = store.get();
      const known = state.rooms[room.id];
      const merged = mergeRoom(undefined, room);
      // Keep a newer live preview than the reply carries.
      const keep = known && known.messages[0] && (!merged.messages[0] || known.messages[0].id > merged.messages[0].id);
      const inbound = laterTime(known?.last_inbound_at ?? null, merged.last_inbound_at);
      store.set({ rooms: { ...state.rooms, [room.id]: { ...(keep ? { ...merged, messages: known.messages, last_message_at: known.last_message_at } : merged), last_inbound_at: inbound } } });
      if (room.messages.length && store.get().threads[room.id]) store.setThread(room.id, { messages: mergeMessages(store.thread(room.id).messages, room.messages) });
    },
    bumpInbound(roomId, messages) {
      const state = store.get();
      const room = state.rooms[roomId];
      if (!room) return;
      const next = withInbound(room, messages);
      if (next !== room) store.set({ rooms: { ...state.rooms, [roomId]: next } });
    },
  };
}
