/**
 * The company's channels: the lobby (page:lobby) lists them with fetch_pages, and each page topic
 * (page:{id}) announces new rooms and new messages of rooms this console has not joined yet.
 */
import type { RealtimeChannel } from '../../../core/apis';
import { CHAT_EVENTS, type Message, type PageInfo, type Room } from '../../../../contract/chats';
import { pushAsync } from './channelPush';
import type { ChatConnection } from './connection';
import type { ChatStore } from './chatStore';
import type { RoomList } from './roomList';
import type { RoomUpdates } from './roomUpdates';
import type { UnreadTracking } from './unreadTracking';

export interface PageChannels {
  /** Joins the lobby; each (re)join lists the channels again (a reconnect may bring new ones; known ones rejoin on their own). */
  joinLobby(lobby: RealtimeChannel): void;
}

export function createPageChannels(deps: {
  store: ChatStore;
  connection: ChatConnection;
  unread: UnreadTracking;
  rooms: RoomUpdates;
  roomList: RoomList;
  subscribeRooms: (roomIds: number[]) => void;
  receiveMessage: (message: Message) => void;
}): PageChannels {
  const { store, connection, unread } = deps;

  function joinPage(page: PageInfo) {
    const socket = connection.socket();
    if (!socket || connection.pageChannels.has(page.id)) return;
    const current = connection.currentRun();
    const channel = socket.channel(`page:${page.id}`, {});
    connection.pageChannels.set(page.id, channel);
    let joinedBefore = false;
    channel.on(CHAT_EVENTS.newRoom, (p: { room: Room }) => {
      if (!p?.room) return;
      const last = p.room.messages[p.room.messages.length - 1];
      const isNew = !!last && unread.markSeen(p.room.id, last.id);
      deps.rooms.upsert([p.room]);
      deps.subscribeRooms([p.room.id]);
      if (isNew) unread.announce({ ...last, room_id: p.room.id });
    });
    // A room's status or assignee changed (issue #22): every list watching the page sees it at once, so a
    // resolved room leaves the open view and a re-opened one (a snooze that ended) enters it, joined or not.
    channel.on(CHAT_EVENTS.roomInfo, (p: { room: Room }) => {
      if (!p?.room) return;
      const known = store.get().rooms[p.room.id];
      if (!known) {
        deps.rooms.upsert([p.room]);
        deps.subscribeRooms([p.room.id]);
      } else if (known.status !== p.room.status || known.assignee?.id !== p.room.assignee?.id || known.snoozed_until !== p.room.snoozed_until) {
        store.set({ rooms: { ...store.get().rooms, [p.room.id]: { ...known, status: p.room.status, snoozed_until: p.room.snoozed_until, assignee: p.room.assignee, tags: p.room.tags } } });
      }
    });
    channel.on(CHAT_EVENTS.newMessage, (p: { room_id: number; message: Message }) => {
      if (p?.message) deps.receiveMessage({ ...p.message, room_id: p.message.room_id ?? p.room_id });
    });
    channel.join().receive('ok', () => {
      if (!current()) return;
      // After a reconnect the list re-syncs on its own.
      if (joinedBefore) deps.roomList.resync();
      joinedBefore = true;
    });
  }

  function loadPages(lobby: RealtimeChannel) {
    const current = connection.currentRun();
    pushAsync<{ page_ids: number[]; pages: PageInfo[] }>(lobby, CHAT_EVENTS.fetchPages, {})
      .then((resp) => {
        if (!current()) return;
        const pages = resp?.pages ?? (resp?.page_ids ?? []).map((id) => ({ id, name: String(id), platform: 'sandbox' as const, external_id: String(id) }));
        const first = connection.pageChannels.size === 0;
        store.set({ pages, pagesLoaded: true });
        pages.forEach(joinPage);
        // Pushes made before a join completes are buffered by the channel and sent once joined.
        if (first) deps.roomList.fetchFirstPage();
      })
      .catch(() => {
        if (current()) store.set({ pagesLoaded: true, roomsLoaded: true });
      });
  }

  return {
    joinLobby(lobby) {
      const current = connection.currentRun();
      lobby.join().receive('ok', () => {
        if (current()) loadPages(lobby);
      });
    },
  };
}
