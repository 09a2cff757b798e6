/**
 * The small immutable store components read through useChatState (hooks.ts): every change makes a new
 * state object and tells the listeners. The list's visible room ids are derived here, from the rooms
 * that joined the list (fetch_rooms, live events) and the filter.
 */
import { emptyFilter, roomMatches, sortRoomIds } from '../model/rooms';
import type { UnreadMap } from '../model/unread';
import type { ChatState, Thread } from './types';

export function initialState(unread: UnreadMap = {}): ChatState {
  return {
    connection: 'idle',
    pages: [],
    pagesLoaded: false,
    rooms: {},
    visibleRoomIds: [],
    // Issue #22: the inbox opens on the open conversations.
    filter: { ...emptyFilter(), status: 'open' },
    listPage: 0,
    hasMoreRooms: false,
    loadingRooms: false,
    roomsLoaded: false,
    unread,
    selectedRoomId: null,
    threads: {},
    viewers: {},
    tags: [],
    attachments: false,
    refusals: {},
    unavailableRooms: {},
    counts: null,
  };
}

function emptyThread(): Thread {
  return { messages: [], hasMore: false, loadingOlder: false, loaded: false };
}

export interface ChatStore {
  get(): ChatState;
  /** Applies the patch and tells the listeners (the visible ids follow rooms and filter). */
  set(patch: Partial<ChatState>): void;
  /** Swaps the whole state without telling anyone: the caller emits, or its next set() does. */
  replace(state: ChatState): void;
  emit(): void;
  subscribe(listener: () => void): () => void;
  thread(roomId: number): Thread;
  setThread(roomId: number, patch: Partial<Thread>): void;
  /** The room belongs to the list (before filtering). */
  addToList(roomId: number): void;
  clearList(): void;
}

export function createChatStore(initial: ChatState): ChatStore {
  let state = initial;
  const listeners = new Set<() => void>();
  /** Room ids that came from fetch_rooms or live events (the list's membership before filtering). */
  let listIds = new Set<number>();

  const emit = () => listeners.forEach((l) => l());
  const visibleRoomIds = (s: ChatState) => sortRoomIds(s.rooms, [...listIds].filter((id) => s.rooms[id] && roomMatches(s.rooms[id], s.filter)));
  const thread = (roomId: number) => state.threads[roomId] ?? emptyThread();

  const store: ChatStore = {
    get: () => state,
    set(patch) {
      state = { ...state, ...patch };
      if ('rooms' in patch || 'filter' in patch) state = { ...state, visibleRoomIds: visibleRoomIds(state) };
      emit();
    },
    replace(next) {
      state = next;
    },
    emit,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    thread,
    setThread(roomId, patch) {
      store.set({ threads: { ...state.threads, [roomId]: { ...thread(roomId), ...patch } } });
    },
    addToList(roomId) {
      listIds.add(roomId);
    },
    clearList() {
      listIds = new Set();
    },
  };
  return store;
}
