/**
 * Room topics (room:{id}): joined paced in the background (subscriptionQueue), the open room at once;
 * every (re)join asks for what was missed since the last message this console has, and the topic's
 * events (messages, statuses, room changes, presence) flow into the state.
 */
import type { RealtimeChannel } from '../../../core/apis';
import { CHAT_EVENTS, CHAT_PAGE_SIZE, JOIN_RATE_LIMITED, ROOM_UNAVAILABLE_REASONS, type JoinRefusal, type Message, type Room } from '../../../../contract/chats';
import { NEW_NOTE_EVENT } from '../../../../contract/notes';
import { lastServerMessageId, mergeMessages } from '../model/messages';
import type { ChatConnection } from './connection';
import type { ChatStore } from './chatStore';
import type { RoomPresence } from './presence';
import type { RoomUpdates } from './roomUpdates';
import { createSubscriptionQueue } from './subscriptionQueue';
import type { Translate } from './types';
import type { UnreadTracking } from './unreadTracking';

/** When a rate-limited join's reply names no wait, and the longest wait taken (the limit's window). */
const DEFAULT_JOIN_RETRY_SECONDS = 10;
const MAX_JOIN_RETRY_SECONDS = 60;

export interface RoomChannels {
  /** Queues rooms for a paced background join. */
  enqueue(roomIds: number[]): void;
  /** Joins the room now (the open room, a room a live message names), out of the queue. */
  joinNow(roomId: number): void;
  /** The room's channel to push on, joined now if it was not; throws "offline" when there is none. */
  channelFor(roomId: number): RealtimeChannel;
  /** Forgets joined and queued rooms (disconnect). */
  reset(): void;
}

export function createRoomChannels(deps: {
  connection: ChatConnection;
  store: ChatStore;
  unread: UnreadTracking;
  rooms: RoomUpdates;
  presence: RoomPresence;
  receiveMessage: (message: Message) => void;
  /** Issue #22: a private note pushed live (`new_note`): into the thread only (./notes.ts). */
  receiveNote: (roomId: number, note: Message) => void;
  t: Translate;
}): RoomChannels {
  const { connection, store, unread, rooms, presence } = deps;
  const { roomChannels } = connection;

  function joinRoom(roomId: number) {
    const socket = connection.socket();
    if (!socket || roomChannels.has(roomId)) return;
    const current = connection.currentRun();
    // The params closure runs on every (re)join: the server answers with what was missed since then.
    // `viewing` only for the open room: background subscriptions must not mark rooms read or show presence.
    const channel = socket.channel(`room:${roomId}`, () => ({
      last_message_id: lastServerMessageId(store.thread(roomId).messages) ?? unread.lastSeen(roomId) ?? null,
      viewing: store.get().selectedRoomId === roomId,
      // This console shows private notes: the server includes them in the room's history (contract/notes.ts).
      notes: true,
    }));
    roomChannels.set(roomId, channel);
    let joinedBefore = false;
    channel.on(CHAT_EVENTS.newMessage, (m: Message) => deps.receiveMessage({ ...m, room_id: m.room_id ?? roomId }));
    channel.on(NEW_NOTE_EVENT, (m: Message) => deps.receiveNote(roomId, m));
    channel.on(CHAT_EVENTS.messageStatus, (m: Message) => {
      if (store.get().threads[roomId]) store.setThread(roomId, { messages: mergeMessages(store.thread(roomId).messages, [{ ...m, room_id: roomId }]) });
    });
    const onRoom = (p: { room: Room }) => p?.room && rooms.replace(p.room);
    channel.on(CHAT_EVENTS.roomInfo, onRoom);
    channel.on(CHAT_EVENTS.blockUser, onRoom);
    channel.on(CHAT_EVENTS.unblockUser, onRoom);
    channel.on('presence_state', (s: unknown) => presence.syncState(roomId, s));
    channel.on('presence_diff', (d: unknown) => presence.syncDiff(roomId, d));
    channel
      .join()
      .receive('ok', (resp: { room?: Room; missed?: Message[] }) => {
        if (!current()) return;
        const room = resp?.room;
        const missed = resp?.missed ?? [];
        const before = unread.lastSeen(roomId) ?? 0;
        if (room) rooms.upsert([room]);
        const incoming = [...(room?.messages ?? []), ...missed];
        rooms.bumpInbound(roomId, incoming);
        const t0 = store.thread(roomId);
        store.setThread(roomId, {
          messages: mergeMessages(t0.messages, incoming),
          hasMore: t0.loaded ? t0.hasMore : (room?.messages.length ?? 0) >= CHAT_PAGE_SIZE,
          loaded: true,
        });
        // On a rejoin, customer messages newer than what we had are unread (no gap, no double count).
        if (joinedBefore) {
          const fresh = missed.filter((m) => m.id > before).sort((a, b) => a.id - b.id);
          for (const m of fresh) deps.receiveMessage(m);
        } else {
          for (const m of incoming) unread.markSeen(roomId, m.id);
        }
        joinedBefore = true;
        if (store.get().unavailableRooms[roomId]) {
          const { [roomId]: _allowedAgain, ...unavailableRooms } = store.get().unavailableRooms;
          store.set({ unavailableRooms });
        }
      })
      .receive('error', (refusal?: JoinRefusal) => {
        // Not allowed or gone: stop phoenix from retrying this room.
        roomChannels.delete(roomId);
        channel.leave();
        // Refused for the joins-per-user limit (every tab of this user counts, e.g. a burst of reloads): joined
        // again once the server allows it, or the room would stay without live messages until a reload.
        if (refusal?.reason === JOIN_RATE_LIMITED) {
          const seconds = Math.min(MAX_JOIN_RETRY_SECONDS, Math.max(1, refusal.retry_after ?? DEFAULT_JOIN_RETRY_SECONDS));
          setTimeout(() => {
            if (current()) joinRoom(roomId);
          }, seconds * 1000);
        } else if (current() && ROOM_UNAVAILABLE_REASONS.includes(refusal?.reason ?? '')) {
          store.set({ unavailableRooms: { ...store.get().unavailableRooms, [roomId]: true } });
        }
      });
  }

  const queue = createSubscriptionQueue(joinRoom);

  return {
    enqueue: (roomIds) => queue.enqueue(roomIds),
    joinNow: (roomId) => queue.now(roomId),
    channelFor(roomId) {
      queue.now(roomId);
      const c = roomChannels.get(roomId);
      if (!c) throw new Error(deps.t('chats.errors.offline'));
      return c;
    },
    reset: () => queue.reset(),
  };
}
