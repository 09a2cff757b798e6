/**
 * The room list: fetch_rooms paging (newest activity first), the filter (applied at once, asked of
 * the server debounced), and the unassigned filter that the client applies, fetching further pages.
 */
import { CHAT_EVENTS, CHAT_PAGE_SIZE, type Room } from '../../../../contract/chats';
import type { ChatFilter } from '../model/rooms';
import { pushAsync } from './channelPush';
import type { ChatConnection } from './connection';
import type { ChatStore } from './chatStore';
import { debounce } from './debounce';
import type { RoomUpdates } from './roomUpdates';

/** Under the unassigned filter, the most pages fetched in a row to find rooms to show. */
export const MAX_FILL_PAGES = 25;

export interface RoomList {
  setFilter(patch: Partial<ChatFilter>): void;
  loadMore(): void;
  /** The first page, at once (the page channels were just joined). */
  fetchFirstPage(): void;
  /** Re-syncs the list after a reconnect (debounced: every page channel rejoins). */
  resync(): void;
  /** Drops the pending debounced fetches (disconnect). */
  cancel(): void;
}

export function createRoomList(deps: { store: ChatStore; connection: ChatConnection; rooms: RoomUpdates; subscribeRooms: (roomIds: number[]) => void }): RoomList {
  const { store, connection } = deps;
  let fetchSeq = 0;
  /** Pages asked for in a row to fill the list under a client-side filter (see fetchRooms). */
  let fillPages = 0;

  /**
   * fetch_rooms: one push on a page channel with `pages` = the chosen channels (or every channel), so
   * the server pages the company's rooms as one list, newest activity first.
   */
  function fetchRooms(page: number, options: { keep?: boolean } = {}) {
    const filter = store.get().filter;
    const channel = [...connection.pageChannels.values()][0];
    if (!channel) {
      store.set({ loadingRooms: false, roomsLoaded: store.get().pagesLoaded, hasMoreRooms: false });
      return;
    }
    const seq = ++fetchSeq;
    const current = connection.currentRun();
    const visibleBefore = page === 1 && !options.keep ? 0 : store.get().visibleRoomIds.length;
    if (page === 1) fillPages = 0;
    store.set({ loadingRooms: true });
    const payload = {
      search: filter.term.trim(),
      page,
      ...(filter.tags.length ? { tags: filter.tags.map((x) => x.id) } : {}),
      pages: filter.channels.length ? filter.channels : [...connection.pageChannels.keys()],
      // Issue #22: the status and the tab are filtered by the server too.
      ...(filter.status && filter.status !== 'all' ? { status: filter.status } : {}),
      ...(filter.mine != null ? { assignee: 'me' } : filter.unassigned ? { assignee: 'none' } : {}),
    };
    pushAsync<{ rooms: Room[] }>(channel, CHAT_EVENTS.fetchRooms, payload)
      .then((resp) => {
        if (!current()) return;
        const rooms = resp?.rooms ?? [];
        deps.rooms.upsert(rooms);
        if (seq === fetchSeq) {
          const state = store.get();
          const more = rooms.length >= CHAT_PAGE_SIZE;
          // The unassigned filter is applied here, not by the server: while a page shows no new room
          // (or the list is short) and more exist, the next page is asked for (at most MAX_FILL_PAGES in a row).
          const grew = state.visibleRoomIds.length > visibleBefore;
          const fill = !!filter.unassigned && !!state.filter.unassigned && more && (!grew || state.visibleRoomIds.length < CHAT_PAGE_SIZE) && fillPages < MAX_FILL_PAGES;
          store.set({
            loadingRooms: fill,
            roomsLoaded: true,
            listPage: options.keep ? Math.max(state.listPage, page) : page,
            hasMoreRooms: options.keep ? state.hasMoreRooms || more : more,
          });
          if (fill) {
            fillPages += 1;
            fetchRooms(page + 1, options);
          } else fillPages = 0;
        }
        deps.subscribeRooms(rooms.map((r) => r.id));
      })
      .catch(() => {
        if (current() && seq === fetchSeq) store.set({ loadingRooms: false, roomsLoaded: true });
      });
  }

  const fetchAfterQuiet = debounce(() => fetchRooms(1));
  const refetchAfterRejoins = debounce(() => fetchRooms(1, { keep: true }), 200, 1000);

  return {
    setFilter(patch) {
      store.set({ filter: { ...store.get().filter, ...patch } });
      fetchAfterQuiet();
    },
    loadMore() {
      const state = store.get();
      if (state.loadingRooms || !state.hasMoreRooms) return;
      fetchRooms(state.listPage + 1);
    },
    fetchFirstPage: () => fetchRooms(1),
    resync: () => refetchAfterRejoins(),
    cancel() {
      fetchAfterQuiet.cancel();
      refetchAfterRejoins.cancel();
    },
  };
}
