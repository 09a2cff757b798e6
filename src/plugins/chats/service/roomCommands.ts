/** What an agent does to a room over its channel (bot pause, block, tags) and a new room on a page channel. */
import type { RealtimeChannel } from '../../../core/apis';
import { CHAT_EVENTS, type Room } from '../../../../contract/chats';
import { newClientId } from '../model/messages';
import { togglePause } from '../model/rooms';
import { pushAsync } from './channelPush';
import type { ChatConnection } from './connection';
import type { ChatStore } from './chatStore';
import type { RoomUpdates } from './roomUpdates';
import type { ChatService, FailureAlert, Translate } from './types';
import type { UnreadTracking } from './unreadTracking';

export type RoomCommands = Pick<ChatService, 'togglePause' | 'setBlocked' | 'addTag' | 'removeTag' | 'createRoom'>;

export function createRoomCommands(deps: {
  store: ChatStore;
  connection: ChatConnection;
  rooms: RoomUpdates;
  unread: UnreadTracking;
  channelFor: (roomId: number) => RealtimeChannel;
  alertFailure: FailureAlert;
  t: Translate;
}): RoomCommands {
  const { store, rooms, alertFailure } = deps;

  return {
    async togglePause(roomId, days) {
      const room = store.get().rooms[roomId];
      if (!room) return;
      const pausedUntil = togglePause(room, days);
      try {
        const resp = await pushAsync<{ room: Room }>(deps.channelFor(roomId), CHAT_EVENTS.updateUser, { user: { paused_until: pausedUntil } });
        if (resp?.room) rooms.replace(resp.room);
        else store.set({ rooms: { ...store.get().rooms, [roomId]: { ...room, paused_until: pausedUntil } } });
      } catch (err) {
        alertFailure('chats.errors.pause', err);
      }
    },
    async setBlocked(roomId, blocked) {
      try {
        const resp = await pushAsync<{ room: Room }>(deps.channelFor(roomId), blocked ? CHAT_EVENTS.blockUser : CHAT_EVENTS.unblockUser, {});
        if (resp?.room) rooms.replace(resp.room);
      } catch (err) {
        alertFailure(blocked ? 'chats.errors.block' : 'chats.errors.unblock', err);
      }
    },
    async addTag(roomId, tag) {
      try {
        const resp = await pushAsync<{ room: Room }>(deps.channelFor(roomId), CHAT_EVENTS.addTag, { tag: tag.trim() });
        if (resp?.room) {
          rooms.replace(resp.room);
          const tags = store.get().tags;
          const known = new Set(tags.map((x) => x.name));
          const added = resp.room.tags.filter((x) => !known.has(x.name));
          if (added.length) store.set({ tags: [...tags, ...added] });
        }
      } catch (err) {
        alertFailure('chats.errors.tag', err);
      }
    },
    async removeTag(roomId, tag) {
      try {
        const resp = await pushAsync<{ room: Room }>(deps.channelFor(roomId), CHAT_EVENTS.removeTag, { tag });
        if (resp?.room) rooms.replace(resp.room);
      } catch (err) {
        alertFailure('chats.errors.tag', err);
      }
    },
    async createRoom(input) {
      const channel = deps.connection.pageChannels.get(input.pageId);
      const page = store.get().pages.find((p) => p.id === input.pageId);
      if (!channel || !page) throw new Error(deps.t('chats.errors.offline'));
      const text = input.text?.trim();
      const resp = await pushAsync<{ room: Room }>(channel, CHAT_EVENTS.createNewChatRoom, {
        user_id: input.userId.trim(),
        page_id: input.pageId,
        platform: page.platform,
        messages: text ? [{ text, client_id: newClientId() }] : [],
        name: input.name.trim(),
      });
      rooms.upsert([resp.room]);
      for (const m of resp.room.messages) deps.unread.markSeen(resp.room.id, m.id);
      return resp.room;
    },
  };
}
