/**
 * Issue #22 in the inbox: a room's status, snooze and assignee (PATCH /api/rooms/{id}/), and the
 * counts of the list's tabs and statuses (GET /api/rooms/counts/), kept live: any change of the rooms
 * the inbox knows (room_info, new rooms and messages, its own changes) asks for them again, debounced.
 */
import type { Room } from '../../../../contract/chats';
import { ROOM_STATUSES, type RoomCounts, type RoomUpdateBody } from '../../../../contract/conversations';
import type { HttpProvider } from '../../../core/apis';
import type { ChatConnection } from './connection';
import type { ChatStore } from './chatStore';
import { debounce } from './debounce';
import type { RoomUpdates } from './roomUpdates';
import type { FailureAlert } from './types';

/** Counts are asked for again at most this soon after a change, and never later than the max wait. */
export const COUNTS_DEBOUNCE_MS = 600;
export const COUNTS_MAX_WAIT_MS = 2000;

export interface Conversations {
  updateRoom(roomId: number, body: RoomUpdateBody): Promise<boolean>;
  refreshCounts(): void;
  /** Starts following the store (counts follow the rooms and the channel filter); returns the stop. */
  follow(): () => void;
  cancel(): void;
}

export function createConversations(deps: { store: ChatStore; connection: ChatConnection; rooms: RoomUpdates; http?: HttpProvider; alertFailure: FailureAlert }): Conversations {
  const { store, connection, http } = deps;

  function loadCounts() {
    if (!http) return;
    const current = connection.currentRun();
    const channels = store.get().filter.channels;
    http
      .get<RoomCounts>('/api/rooms/counts/', { query: channels.length ? { pages: channels.join(',') } : undefined })
      .then((counts) => {
        // A server without the counts (an older one) answers something else: the tabs then show no numbers.
        const valid = !!counts && ROOM_STATUSES.every((s) => typeof counts[s]?.all === 'number');
        if (current()) store.set({ counts: valid ? counts : null });
      })
      .catch(() => undefined);
  }
  const refresh = debounce(loadCounts, COUNTS_DEBOUNCE_MS, COUNTS_MAX_WAIT_MS);

  return {
    async updateRoom(roomId, body) {
      if (!http) return false;
      try {
        const room = await http.patch<Room>(`/api/rooms/${roomId}/`, body);
        if (room && typeof room === 'object' && room.id === roomId) deps.rooms.replace(room);
        refresh();
        return true;
      } catch (err) {
        deps.alertFailure('chats.conversations.updateFailed', err);
        return false;
      }
    },
    refreshCounts: () => refresh(),
    follow() {
      let rooms = store.get().rooms;
      let channels = store.get().filter.channels;
      loadCounts();
      return store.subscribe(() => {
        const state = store.get();
        if (state.rooms === rooms && state.filter.channels === channels) return;
        rooms = state.rooms;
        channels = state.filter.channels;
        refresh();
      });
    },
    cancel: () => refresh.cancel(),
  };
}
