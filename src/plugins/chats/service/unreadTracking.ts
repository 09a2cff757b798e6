/**
 * Read state: which messages this console has already seen (a message counts as new, for the
 * unread count and the customer-message listeners, only once), and the unread counts saved per company.
 */
import type { Message, Room } from '../../../../contract/chats';
import type { AccountStore } from '../../../core/apis';
import { addUnread, clearUnread, countsAsUnread, saveUnread, type UnreadMap } from '../model/unread';
import type { ChatStore } from './chatStore';
import type { CustomerMessageListener } from './types';

export interface UnreadTracking {
  /** Records the message id as seen; true when it is newer than anything seen in its room. */
  markSeen(roomId: number, id: number): boolean;
  /** The highest message id seen in the room. */
  lastSeen(roomId: number): number | undefined;
  /**
   * Rooms fetched or joined: the unread map once those seen for the first time are counted (their
   * latest message becomes the room's last seen).
   */
  withFirstSight(rooms: Room[]): UnreadMap;
  setUnread(unread: UnreadMap): void;
  clearRoom(roomId: number): void;
  /** A message seen for the first time: unread count and customer-message listeners. */
  announce(message: Message): void;
  onCustomerMessage(listener: CustomerMessageListener): () => void;
  /** Forgets what was seen (disconnect): the next connection counts afresh from the server. */
  forgetSeen(): void;
}

export function createUnreadTracking(deps: { store: ChatStore; account: AccountStore }): UnreadTracking {
  const { store } = deps;
  /** Highest message id seen per room. */
  const seen = new Map<number, number>();
  const customerListeners = new Set<CustomerMessageListener>();

  const tracking: UnreadTracking = {
    markSeen(roomId, id) {
      if (id <= 0) return false;
      const prev = seen.get(roomId) ?? 0;
      if (id <= prev) return false;
      seen.set(roomId, id);
      return true;
    },
    lastSeen: (roomId) => seen.get(roomId),
    withFirstSight(rooms) {
      const state = store.get();
      let unread = state.unread;
      for (const r of rooms) {
        const last = r.messages[r.messages.length - 1];
        if (!last || seen.has(r.id)) continue;
        // What a fetched room already shows is not new (no notification), but customer messages that
        // came while this console was closed or still subscribing are unread: the server counts them
        // from this member's read marker; the local count wins when it is higher.
        const missed = (r.unread ?? 0) - (unread[r.id] ?? 0);
        if (missed > 0 && r.id !== state.selectedRoomId) unread = addUnread(unread, r.id, missed);
        seen.set(r.id, last.id);
      }
      return unread;
    },
    setUnread(unread) {
      if (unread === store.get().unread) return;
      saveUnread(deps.account.getCompanyId(), unread);
      store.set({ unread });
    },
    clearRoom(roomId) {
      tracking.setUnread(clearUnread(store.get().unread, roomId));
    },
    announce(message) {
      const state = store.get();
      if (countsAsUnread(message, state.selectedRoomId)) tracking.setUnread(addUnread(state.unread, message.room_id));
      if (message.origin === 'user') customerListeners.forEach((l) => l(store.get().rooms[message.room_id], message));
    },
    onCustomerMessage(listener) {
      customerListeners.add(listener);
      return () => customerListeners.delete(listener);
    },
    forgetSeen() {
      seen.clear();
    },
  };
  return tracking;
}
