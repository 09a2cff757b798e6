/**
 * The live inbox's service: owns the socket and its channels (page:lobby, page:{id}, room:{id}) and a
 * small immutable store components read with useSyncExternalStore. Spec §4 realtime, §7 chat calls,
 * §9 pacing. Never loses a message: optimistic sends carry a client_id (retry resends it), every
 * room (re)join sends last_message_id so the server returns what was missed, and every merge
 * deduplicates by id and client_id.
 */
import type { Channel, Socket } from 'phoenix';
import { Presence } from 'phoenix';
import {
  CHAT_EVENTS,
  CHAT_PAGE_SIZE,
  attachmentKind,
  type Message,
  type PageInfo,
  type PresignedUpload,
  type Room,
  type Tag,
} from '../../../../contract/chats';
import { renderTemplateBody, WINDOW_CLOSED_REASON, type MessageTemplate } from '../../../../contract/channels';
import { firstErrorMessage } from '../../../../contract/errors';
import type { AccountStore, AlertApi, HttpProvider, RealtimeClientFactory, SessionStore } from '../../../core/apis';
import { lastServerMessageId, mergeMessages, newClientId, optimisticMessage, type ChatMessage } from '../model/messages';
import { emptyFilter, type ChatFilter, laterTime, mergeRoom, roomMatches, sortRoomIds, togglePause, withInbound, withNewMessage } from '../model/rooms';
import { addUnread, clearAllUnread, clearUnread, countsAsUnread, loadUnread, saveUnread, type UnreadMap } from '../model/unread';
import { debounce, type Debounced } from './debounce';
import { createSubscriptionQueue, type SubscriptionQueue } from './subscriptionQueue';

/** Spec §9: push timeout 30 s (the channel join keeps phoenix's 10 s default). */
export const PUSH_TIMEOUT_MS = 30_000;
/** Spec §9: reconnect after 1, 2, 5, then 10 s. */
export function reconnectAfterMs(tries: number): number {
  return [1000, 2000, 5000][tries - 1] ?? 10_000;
}

export type ConnectionState = 'idle' | 'connecting' | 'live' | 'reconnecting';

export interface Thread {
  messages: ChatMessage[];
  /** Older history may exist on the server. */
  hasMore: boolean;
  loadingOlder: boolean;
  /** The room channel answered its join at least once. */
  loaded: boolean;
}

export interface Viewer {
  id: string;
  name: string;
  email: string;
}

/**
 * A free-form text the server refused because WhatsApp's 24-hour window is closed: it leaves the
 * conversation and goes back to the composer (nothing typed is lost), with the server's message.
 */
export interface SendRefusal {
  clientId: string;
  text: string;
  /** The server's message (errors.message), else its reason. */
  error: string;
}

/** What sendTemplate needs of an approved template: its name, language and components (the body to render). */
export type TemplateChoice = Pick<MessageTemplate, 'name' | 'language' | 'components'>;
/** A template's media: the header's file (an upload's file_url or the template's sample URL) and a carousel's cards. */
export interface TemplateMedia {
  header?: { type: 'image' | 'video' | 'document'; url: string; mediaType?: string | null };
  /** A text header's {{1}} value. */
  headerText?: string;
  /** Values of the buttons that take one: a URL's {{1}} ending, a copy-code offer code. */
  buttons?: { index: number; sub_type: 'url' | 'copy_code'; value: string }[];
  cards?: { type: 'image' | 'video'; link: string; parameters: string[] }[];
}

export interface ChatState {
  connection: ConnectionState;
  pages: PageInfo[];
  pagesLoaded: boolean;
  rooms: Record<number, Room>;
  /** Room ids of the list, newest activity first, after the contact search filter. */
  visibleRoomIds: number[];
  filter: ChatFilter;
  listPage: number;
  hasMoreRooms: boolean;
  loadingRooms: boolean;
  /** The first page of the current filter arrived. */
  roomsLoaded: boolean;
  unread: UnreadMap;
  selectedRoomId: number | null;
  threads: Record<number, Thread>;
  viewers: Record<number, Viewer[]>;
  tags: Tag[];
  /** GET /api/chats/presigned_url/ answered (hidden when it 404s). */
  attachments: boolean;
  /** Per room: the last free-form text refused as outside the 24-hour window, until sent again or dismissed. */
  refusals: Record<number, SendRefusal>;
}

export interface NewRoomInput {
  pageId: number;
  userId: string;
  name: string;
  text?: string;
}

/** A customer message arrived (for notifications and the title badge). */
export type CustomerMessageListener = (room: Room | undefined, message: Message) => void;

export interface ChatService {
  getState(): ChatState;
  subscribe(listener: () => void): () => void;
  /** Connects (idempotent). The page calls it on mount. */
  start(): void;
  /** Disconnects and resets all chat state. */
  stop(): void;
  /** Applies the filter to the list at once and asks the server (debounced 500 ms, max 2 s). */
  setFilter(patch: Partial<ChatFilter>): void;
  loadMoreRooms(): void;
  selectRoom(roomId: number | null): void;
  loadOlder(roomId: number): Promise<void>;
  /**
   * Attachments are served with short-lived signed URLs (about an hour): when one no longer loads,
   * asks the room for the page ending at that message again, whose copies carry fresh URLs. At most
   * once a minute per message, so a file that is really gone does not loop.
   */
  refreshMedia(roomId: number, messageId: number): Promise<void>;
  sendMessage(roomId: number, text: string, media?: { url: string; type: string; kind: 'image' | 'video' | 'audio' | 'document' }): string;
  retryMessage(roomId: number, clientId: string): void;
  /**
   * Sends an approved WhatsApp template like a message (optimistic, client_id, ticks, retry): type
   * 'template', text = the rendered body, template = {name, language, parameters}. Returns the client_id.
   */
  sendTemplate(roomId: number, template: TemplateChoice, parameters: string[], media?: TemplateMedia): string;
  /** GET /api/channels/{pageId}/templates/ → results (every status; the caller keeps the approved ones). */
  loadTemplates(pageId: number): Promise<MessageTemplate[]>;
  /** Forgets the room's window refusal (the agent dismissed it). */
  dismissRefusal(roomId: number): void;
  /** Toggles the bot pause: now + N days, or clear when paused. */
  togglePause(roomId: number, days?: number): Promise<void>;
  setBlocked(roomId: number, blocked: boolean): Promise<void>;
  addTag(roomId: number, tag: string): Promise<void>;
  removeTag(roomId: number, tag: string): Promise<void>;
  createRoom(input: NewRoomInput): Promise<Room>;
  onCustomerMessage(listener: CustomerMessageListener): () => void;
  /** Uploads a file through GET /api/chats/presigned_url/ and a PUT to its upload_url; resolves the file_url. */
  upload(file: File): Promise<string>;
  /** Uploads the file, then sends it as a message (media_url = file_url, media_type = its type, type by MIME); resolves the client_id. */
  sendAttachment(roomId: number, file: File): Promise<string>;
}

/** Close codes of server/core/realtime's revocation (hub.disconnect). */
export const REVOKED_SESSION_CLOSE = 4401;
export const REVOKED_MEMBERSHIP_CLOSE = 4403;

/** A message's media is asked for again at most this often (refreshMedia). */
export const MEDIA_REFRESH_INTERVAL_MS = 60_000;

export interface ChatServiceDeps {
  realtime: RealtimeClientFactory;
  account: AccountStore;
  alert: AlertApi;
  http?: HttpProvider;
  /** To notice an expired access token while the socket is down (the socket sends it on each reconnect). */
  session?: SessionStore;
  /** Message texts for failures shown as alerts (translated by the plugin). */
  translate?: (key: string, options?: Record<string, unknown>) => string;
  /** For the attachment PUT to the presigned upload_url (no bearer token); the global fetch by default. */
  fetch?: typeof fetch;
}

function initialState(unread: UnreadMap = {}): ChatState {
  return {
    connection: 'idle',
    pages: [],
    pagesLoaded: false,
    rooms: {},
    visibleRoomIds: [],
    filter: emptyFilter(),
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
  };
}

function emptyThread(): Thread {
  return { messages: [], hasMore: false, loadingOlder: false, loaded: false };
}

/** A channel push as a promise: resolves on ok, rejects on error or the 30 s timeout. */
export function pushAsync<T>(channel: Channel, event: string, payload: object, timeout = PUSH_TIMEOUT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    channel
      .push(event, payload, timeout)
      .receive('ok', (resp: T) => resolve(resp))
      .receive('error', (resp: unknown) => reject(Object.assign(new Error(reasonOf(resp) ?? 'error'), { response: resp })))
      .receive('timeout', () => reject(Object.assign(new Error('timeout'), { timeout: true })));
  });
}

/** The text to show for a refused push: the server's first field message (`errors`), else its reason. */
export function refusalText(resp: unknown): string | undefined {
  const errors = resp && typeof resp === 'object' ? (resp as Record<string, unknown>).errors : undefined;
  const reason = reasonOf(resp);
  return firstErrorMessage(errors) ?? (reason && reason !== 'error' ? reason : undefined);
}

function reasonOf(resp: unknown): string | undefined {
  if (resp && typeof resp === 'object') {
    const r = resp as Record<string, unknown>;
    for (const k of ['reason', 'detail', 'message', 'error']) if (typeof r[k] === 'string') return r[k] as string;
  }
  return undefined;
}

/** Applies the spec's reconnect back-off to a phoenix Socket built elsewhere. */
function applyBackoff(socket: Socket) {
  const s = socket as unknown as { reconnectAfterMs?: unknown; reconnectTimer?: { timerCalc?: unknown } };
  s.reconnectAfterMs = reconnectAfterMs;
  if (s.reconnectTimer) s.reconnectTimer.timerCalc = reconnectAfterMs;
}

/** Under the unassigned filter, the most pages fetched in a row to find rooms to show. */
export const MAX_FILL_PAGES = 25;

export function createChatService(deps: ChatServiceDeps): ChatService {
  const t = deps.translate ?? ((key: string) => key);
  let state: ChatState = initialState(loadUnread(deps.account.getCompanyId()));
  const listeners = new Set<() => void>();
  const customerListeners = new Set<CustomerMessageListener>();

  let socket: Socket | null = null;
  let generation = 0; // bumps on stop(): late replies of an old connection are ignored
  let everOpened = false;
  let lobby: Channel | null = null;
  const pageChannels = new Map<number, Channel>();
  const roomChannels = new Map<number, Channel>();
  /** When each message's media was last asked for again (refreshMedia). */
  const mediaRefreshedAt = new Map<number, number>();
  const presences = new Map<number, Record<string, unknown>>();
  /** Highest message id seen per room: a message counts as new (unread, notification) only once. */
  const seen = new Map<number, number>();
  /** Room ids that came from fetch_rooms or live events (the list's membership before filtering). */
  let listIds = new Set<number>();
  let fetchSeq = 0;
  /** Pages asked for in a row to fill the list under a client-side filter (see fetchRooms). */
  let fillPages = 0;

  const emit = () => listeners.forEach((l) => l());
  function set(patch: Partial<ChatState>) {
    state = { ...state, ...patch };
    if ('rooms' in patch || 'filter' in patch) state = { ...state, visibleRoomIds: computeVisible(state) };
    emit();
  }
  function computeVisible(s: ChatState): number[] {
    return sortRoomIds(s.rooms, [...listIds].filter((id) => s.rooms[id] && roomMatches(s.rooms[id], s.filter)));
  }
  function setUnread(unread: UnreadMap) {
    if (unread === state.unread) return;
    saveUnread(deps.account.getCompanyId(), unread);
    set({ unread });
  }
  function markSeen(roomId: number, id: number): boolean {
    if (id <= 0) return false;
    const prev = seen.get(roomId) ?? 0;
    if (id <= prev) return false;
    seen.set(roomId, id);
    return true;
  }
  function thread(roomId: number): Thread {
    return state.threads[roomId] ?? emptyThread();
  }
  function setThread(roomId: number, patch: Partial<Thread>) {
    set({ threads: { ...state.threads, [roomId]: { ...thread(roomId), ...patch } } });
  }
  function upsertRooms(rooms: Room[], options: { list?: boolean } = {}) {
    if (!rooms.length) return;
    const next = { ...state.rooms };
    let unread = state.unread;
    for (const r of rooms) {
      next[r.id] = mergeRoom(next[r.id], r);
      const last = r.messages[r.messages.length - 1];
      if (last && !seen.has(r.id)) {
        // What a fetched room already shows is not new (no notification), but customer messages that
        // came while this console was closed or still subscribing are unread: the server counts them
        // from this member's read marker; the local count wins when it is higher.
        const missed = (r.unread ?? 0) - (unread[r.id] ?? 0);
        if (missed > 0 && r.id !== state.selectedRoomId) unread = addUnread(unread, r.id, missed);
        seen.set(r.id, last.id);
      }
      if (options.list !== false) listIds.add(r.id);
    }
    set({ rooms: next });
    setUnread(unread);
  }
  /** Replaces the room (block/unblock, update_user, tags, room_info): the server's copy wins. */
  function replaceRoom(room: Room) {
    const known = state.rooms[room.id];
    const merged = mergeRoom(undefined, room);
    // Keep a newer live preview than the reply carries.
    const keep = known && known.messages[0] && (!merged.messages[0] || known.messages[0].id > merged.messages[0].id);
    const inbound = laterTime(known?.last_inbound_at ?? null, merged.last_inbound_at);
    set({ rooms: { ...state.rooms, [room.id]: { ...(keep ? { ...merged, messages: known.messages, last_message_at: known.last_message_at } : merged), last_inbound_at: inbound } } });
    if (room.messages.length && state.threads[room.id]) setThread(room.id, { messages: mergeMessages(thread(room.id).messages, room.messages) });
  }
  /** Loaded messages (join catch-up, older history): the customer's move last_inbound_at forward. */
  function bumpInbound(roomId: number, messages: Message[]) {
    const room = state.rooms[roomId];
    if (!room) return;
    const next = withInbound(room, messages);
    if (next !== room) set({ rooms: { ...state.rooms, [roomId]: next } });
  }

  // ---------- live messages ----------
  function receiveMessage(message: Message) {
    const roomId = message.room_id;
    const isNew = markSeen(roomId, message.id);
    // Page and room topics both deliver a message: merging deduplicates by id and client_id.
    if (state.threads[roomId]) setThread(roomId, { messages: mergeMessages(thread(roomId).messages, [message]) });
    const room = state.rooms[roomId];
    if (room) {
      const updated = withNewMessage(room, message);
      if (updated !== room) {
        listIds.add(roomId);
        set({ rooms: { ...state.rooms, [roomId]: updated } });
      }
    } else if (socket) {
      // A room we have not loaded yet: its channel join brings the room into the list.
      queue.now(roomId);
    }
    if (isNew) announce(message);
  }

  /** A message seen for the first time: unread count and customer-message listeners. */
  function announce(message: Message) {
    if (countsAsUnread(message, state.selectedRoomId)) setUnread(addUnread(state.unread, message.room_id));
    if (message.origin === 'user') customerListeners.forEach((l) => l(state.rooms[message.room_id], message));
  }

  // ---------- channels ----------
  function joinRoom(roomId: number) {
    if (!socket || roomChannels.has(roomId)) return;
    const gen = generation;
    // The params closure runs on every (re)join: the server answers with what was missed since then.
    // `viewing` only for the open room: background subscriptions must not mark rooms read or show presence.
    const channel = socket.channel(`room:${roomId}`, () => ({
      last_message_id: lastServerMessageId(thread(roomId).messages) ?? seen.get(roomId) ?? null,
      viewing: state.selectedRoomId === roomId,
    }));
    roomChannels.set(roomId, channel);
    let joinedBefore = false;
    channel.on(CHAT_EVENTS.newMessage, (m: Message) => receiveMessage({ ...m, room_id: m.room_id ?? roomId }));
    channel.on(CHAT_EVENTS.messageStatus, (m: Message) => {
      if (state.threads[roomId]) setThread(roomId, { messages: mergeMessages(thread(roomId).messages, [{ ...m, room_id: roomId }]) });
    });
    const onRoom = (p: { room: Room }) => p?.room && replaceRoom(p.room);
    channel.on(CHAT_EVENTS.roomInfo, onRoom);
    channel.on(CHAT_EVENTS.blockUser, onRoom);
    channel.on(CHAT_EVENTS.unblockUser, onRoom);
    channel.on('presence_state', (s: Record<string, unknown>) => {
      presences.set(roomId, Presence.syncState(presences.get(roomId) ?? {}, s as never) as Record<string, unknown>);
      updateViewers(roomId);
    });
    channel.on('presence_diff', (d: unknown) => {
      presences.set(roomId, Presence.syncDiff(presences.get(roomId) ?? {}, d as never) as Record<string, unknown>);
      updateViewers(roomId);
    });
    channel
      .join()
      .receive('ok', (resp: { room?: Room; missed?: Message[] }) => {
        if (gen !== generation) return;
        const room = resp?.room;
        const missed = resp?.missed ?? [];
        const before = seen.get(roomId) ?? 0;
        if (room) upsertRooms([room]);
        const incoming = [...(room?.messages ?? []), ...missed];
        bumpInbound(roomId, incoming);
        const t0 = thread(roomId);
        setThread(roomId, {
          messages: mergeMessages(t0.messages, incoming),
          hasMore: t0.loaded ? t0.hasMore : (room?.messages.length ?? 0) >= CHAT_PAGE_SIZE,
          loaded: true,
        });
        // On a rejoin, customer messages newer than what we had are unread (no gap, no double count).
        if (joinedBefore) {
          const fresh = missed.filter((m) => m.id > before).sort((a, b) => a.id - b.id);
          for (const m of fresh) receiveMessage(m);
        } else {
          for (const m of incoming) markSeen(roomId, m.id);
        }
        joinedBefore = true;
      })
      .receive('error', () => {
        // Not allowed or gone: stop phoenix from retrying this room.
        roomChannels.delete(roomId);
        channel.leave();
      });
  }

  function updateViewers(roomId: number) {
    const me = String(deps.account.getUser()?.id ?? '');
    const viewers = Presence.list(presences.get(roomId) ?? {}, (id: string, p: { metas: { name?: string; email?: string }[] }) => ({
      id,
      name: p.metas[0]?.name ?? '',
      email: p.metas[0]?.email ?? '',
    })) as Viewer[];
    set({ viewers: { ...state.viewers, [roomId]: viewers.filter((v) => v.id !== me) } });
  }

  const queue: SubscriptionQueue = createSubscriptionQueue(joinRoom);

  function joinPage(page: PageInfo) {
    if (!socket || pageChannels.has(page.id)) return;
    const gen = generation;
    const channel = socket.channel(`page:${page.id}`, {});
    pageChannels.set(page.id, channel);
    let joinedBefore = false;
    channel.on(CHAT_EVENTS.newRoom, (p: { room: Room }) => {
      if (!p?.room) return;
      const last = p.room.messages[p.room.messages.length - 1];
      const isNew = !!last && markSeen(p.room.id, last.id);
      upsertRooms([p.room]);
      queue.enqueue([p.room.id]);
      if (isNew) announce({ ...last, room_id: p.room.id });
    });
    channel.on(CHAT_EVENTS.newMessage, (p: { room_id: number; message: Message }) => {
      if (p?.message) receiveMessage({ ...p.message, room_id: p.message.room_id ?? p.room_id });
    });
    channel.join().receive('ok', () => {
      if (gen !== generation) return;
      // After a reconnect the list re-syncs on its own.
      if (joinedBefore) refetchRooms();
      joinedBefore = true;
    });
  }

  const refetchRooms = debounce(() => fetchRooms(1, { keep: true }), 200, 1000);

  /**
   * fetch_rooms: one push on a page channel with `pages` = the chosen channels (or every channel), so
   * the server pages the company's rooms as one list, newest activity first.
   */
  function fetchRooms(page: number, options: { keep?: boolean } = {}) {
    const filter = state.filter;
    const channel = [...pageChannels.values()][0];
    if (!channel) {
      set({ loadingRooms: false, roomsLoaded: state.pagesLoaded, hasMoreRooms: false });
      return;
    }
    const seq = ++fetchSeq;
    const gen = generation;
    const visibleBefore = page === 1 && !options.keep ? 0 : state.visibleRoomIds.length;
    if (page === 1) fillPages = 0;
    set({ loadingRooms: true });
    const payload = {
      search: filter.term.trim(),
      page,
      ...(filter.tags.length ? { tags: filter.tags.map((x) => x.id) } : {}),
      pages: filter.channels.length ? filter.channels : [...pageChannels.keys()],
    };
    pushAsync<{ rooms: Room[] }>(channel, CHAT_EVENTS.fetchRooms, payload)
      .then((resp) => {
        if (gen !== generation) return;
        const rooms = resp?.rooms ?? [];
        upsertRooms(rooms);
        if (seq === fetchSeq) {
          const more = rooms.length >= CHAT_PAGE_SIZE;
          // The unassigned filter is applied here, not by the server: while a page shows no new room
          // (or the list is short) and more exist, the next page is asked for (at most MAX_FILL_PAGES in a row).
          const grew = state.visibleRoomIds.length > visibleBefore;
          const fill = !!filter.unassigned && !!state.filter.unassigned && more && (!grew || state.visibleRoomIds.length < CHAT_PAGE_SIZE) && fillPages < MAX_FILL_PAGES;
          set({
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
        queue.enqueue(rooms.map((r) => r.id));
      })
      .catch(() => {
        if (gen === generation && seq === fetchSeq) set({ loadingRooms: false, roomsLoaded: true });
      });
  }

  const debouncedFetch: Debounced<[]> = debounce(() => fetchRooms(1));

  function loadPages() {
    if (!lobby) return;
    const gen = generation;
    pushAsync<{ page_ids: number[]; pages: PageInfo[] }>(lobby, CHAT_EVENTS.fetchPages, {})
      .then((resp) => {
        if (gen !== generation) return;
        const pages = resp?.pages ?? (resp?.page_ids ?? []).map((id) => ({ id, name: String(id), platform: 'sandbox' as const, external_id: String(id) }));
        const first = pageChannels.size === 0;
        set({ pages, pagesLoaded: true });
        pages.forEach(joinPage);
        // Pushes made before a join completes are buffered by the channel and sent once joined.
        if (first) fetchRooms(1);
      })
      .catch(() => {
        if (gen === generation) set({ pagesLoaded: true, roomsLoaded: true });
      });
  }

  function loadTags(): Promise<void> {
    if (!deps.http) return Promise.resolve();
    const gen = generation;
    return deps.http
      .get<{ results?: Tag[] } | Tag[]>('/api/tags/')
      .then((resp) => {
        if (gen === generation) set({ tags: Array.isArray(resp) ? resp : (resp?.results ?? []) });
      })
      .catch(() => undefined);
  }

  function probeAttachments() {
    if (!deps.http) return;
    const gen = generation;
    deps.http
      .get('/api/chats/presigned_url/', { query: { file_name: 'probe.png', file_type: 'image/png' } })
      .then(() => gen === generation && set({ attachments: true }))
      .catch(() => undefined);
  }

  function roomChannel(roomId: number): Channel {
    queue.now(roomId);
    const c = roomChannels.get(roomId);
    if (!c) throw new Error(t('chats.errors.offline'));
    return c;
  }

  function failAlert(key: string, err: unknown) {
    const reason = err instanceof Error && err.message && err.message !== 'error' && err.message !== 'timeout' ? ` (${err.message})` : '';
    deps.alert.error(t(key) + reason);
  }

  function deliver(roomId: number, clientId: string) {
    const m = thread(roomId).messages.find((x) => x.client_id === clientId);
    if (!m) return;
    let channel: Channel;
    try {
      channel = roomChannel(roomId);
    } catch {
      setThread(roomId, { messages: markLocal(thread(roomId).messages, clientId, 'failed') });
      return;
    }
    const gen = generation;
    const template = m.type === 'template' ? (m.data as { template?: unknown } | null)?.template : undefined;
    const message = {
      text: m.text,
      type: m.type === 'text' ? 'text' : m.type,
      client_id: clientId,
      ...(m.media_url ? { media_url: m.media_url, media_type: m.media_type } : {}),
      ...(template ? { template } : {}),
    };
    pushAsync<{ message: Message }>(channel, CHAT_EVENTS.sendMessage, { message })
      .then((resp) => {
        if (gen !== generation || !resp?.message) return;
        markSeen(roomId, resp.message.id);
        setThread(roomId, { messages: mergeMessages(thread(roomId).messages, [resp.message]) });
        const room = state.rooms[roomId];
        if (room) set({ rooms: { ...state.rooms, [roomId]: withNewMessage(room, resp.message) } });
      })
      .catch((err: Error & { response?: unknown }) => {
        if (gen !== generation) return;
        const error = refusalText(err.response) ?? null;
        if (reasonOf(err.response) === WINDOW_CLOSED_REASON && m.type === 'text' && !m.media_url && m.text) {
          // Outside the 24-hour window a free-form text can never be delivered: back to the composer.
          const refusal: SendRefusal = { clientId, text: m.text, error: error ?? WINDOW_CLOSED_REASON };
          setThread(roomId, { messages: thread(roomId).messages.filter((x) => !(x.local && x.client_id === clientId)) });
          set({ refusals: { ...state.refusals, [roomId]: refusal } });
          return;
        }
        setThread(roomId, { messages: markLocal(thread(roomId).messages, clientId, 'failed', error) });
      });
  }

  function clearRefusal(roomId: number) {
    if (!state.refusals[roomId]) return;
    const refusals = { ...state.refusals };
    delete refusals[roomId];
    set({ refusals });
  }

  /** Shows an optimistic message at once and pushes it. */
  function sendOptimistic(roomId: number, patch: Partial<ChatMessage> & { text: string }): string {
    const clientId = newClientId();
    const user = deps.account.getUser();
    const m = optimisticMessage(roomId, patch.text, clientId, user ? `${user.first_name} ${user.last_name}`.trim() : null);
    Object.assign(m, patch);
    clearRefusal(roomId);
    setThread(roomId, { messages: mergeMessages(thread(roomId).messages, [m]) });
    deliver(roomId, clientId);
    return clientId;
  }

  function markLocal(list: ChatMessage[], clientId: string, status: 'pending' | 'failed', error: string | null = null): ChatMessage[] {
    return list.map((m) => (m.client_id === clientId && m.local ? { ...m, status, error } : m));
  }

  function disconnect() {
    generation += 1;
    debouncedFetch.cancel();
    refetchRooms.cancel();
    queue.reset();
    for (const c of [...roomChannels.values(), ...pageChannels.values()]) c.leave();
    lobby?.leave();
    roomChannels.clear();
    pageChannels.clear();
    presences.clear();
    seen.clear();
    listIds = new Set();
    lobby = null;
    socket?.disconnect();
    socket = null;
    everOpened = false;
  }

  const service: ChatService = {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    start() {
      if (socket || deps.account.getCompanyId() == null) return;
      generation += 1;
      const gen = generation;
      state = { ...initialState(loadUnread(deps.account.getCompanyId())), selectedRoomId: state.selectedRoomId };
      socket = deps.realtime.createSocket();
      applyBackoff(socket);
      set({ connection: 'connecting' });
      socket.onOpen(() => {
        if (gen !== generation) return;
        everOpened = true;
        set({ connection: 'live' });
      });
      let lastRefresh = 0;
      const down = (event?: unknown) => {
        if (gen !== generation || !socket) return;
        set({ connection: everOpened ? 'reconnecting' : 'connecting' });
        // The server closes with 4401 when the session was revoked (logout elsewhere, password
        // change) and 4403 when the membership changed: an authenticated call then signs a revoked
        // session out (401) instead of reconnecting in vain until the next HTTP call.
        const revoked = [REVOKED_SESSION_CLOSE, REVOKED_MEMBERSHIP_CLOSE].includes((event as { code?: number } | undefined)?.code ?? 0);
        // Access tokens are short-lived: an authenticated call refreshes an expired one, so the
        // next reconnect attempt (params are read on each attempt) carries a valid token.
        if ((revoked || deps.session?.isExpired(deps.session.getAccessToken())) && Date.now() - lastRefresh > 5000) {
          lastRefresh = Date.now();
          void loadTags();
        }
      };
      socket.onError(down);
      socket.onClose(down);
      socket.connect();
      lobby = socket.channel('page:lobby', {});
      let lobbyJoined = false;
      lobby.join().receive('ok', () => {
        if (gen !== generation) return;
        if (lobbyJoined) {
          // A reconnect: new channels may exist; known ones rejoin on their own.
          loadPages();
          return;
        }
        lobbyJoined = true;
        loadPages();
      });
      loadTags();
      probeAttachments();
      if (state.selectedRoomId != null) queue.now(state.selectedRoomId);
    },
    stop() {
      disconnect();
      state = initialState(loadUnread(deps.account.getCompanyId()));
      emit();
    },
    setFilter(patch) {
      set({ filter: { ...state.filter, ...patch } });
      debouncedFetch();
    },
    loadMoreRooms() {
      if (state.loadingRooms || !state.hasMoreRooms) return;
      fetchRooms(state.listPage + 1);
    },
    selectRoom(roomId) {
      if (roomId === state.selectedRoomId) return;
      const previous = state.selectedRoomId;
      set({ selectedRoomId: roomId });
      // Tell the server which room the agent looks at (read marker, presence); joins carry it too.
      if (previous != null) roomChannels.get(previous)?.push(CHAT_EVENTS.view, { viewing: false });
      if (roomId == null) return;
      roomChannels.get(roomId)?.push(CHAT_EVENTS.view, { viewing: true });
      setUnread(clearUnread(state.unread, roomId));
      // The open room is joined at once (not paced), with last_message_id for catch-up.
      if (socket) queue.now(roomId);
    },
    async loadOlder(roomId) {
      const th = thread(roomId);
      if (th.loadingOlder || !th.hasMore) return;
      const oldest = th.messages.find((m) => !m.local);
      const channel = roomChannels.get(roomId);
      if (!channel || !oldest) return;
      // before_id with the timestamp (+1 ms, the server compares strictly) so messages sharing the
      // oldest one's millisecond are neither skipped nor repeated.
      const before = { before_timestamp: new Date(Date.parse(oldest.created_at) + 1).toISOString(), before_id: oldest.id };
      setThread(roomId, { loadingOlder: true });
      const gen = generation;
      try {
        const resp = await pushAsync<{ messages: Message[]; has_more: boolean }>(channel, CHAT_EVENTS.fetchMessages, before);
        if (gen !== generation) return;
        const older = resp?.messages ?? [];
        setThread(roomId, { messages: mergeMessages(thread(roomId).messages, older), hasMore: resp?.has_more ?? older.length >= CHAT_PAGE_SIZE, loadingOlder: false });
        bumpInbound(roomId, older);
      } catch (err) {
        if (gen !== generation) return;
        setThread(roomId, { loadingOlder: false });
        failAlert('chats.errors.history', err);
      }
    },
    async refreshMedia(roomId, messageId) {
      const message = thread(roomId).messages.find((m) => m.id === messageId && !m.local);
      const channel = roomChannels.get(roomId);
      const now = Date.now();
      if (!message || !channel || now - (mediaRefreshedAt.get(messageId) ?? -Infinity) < MEDIA_REFRESH_INTERVAL_MS) return;
      mediaRefreshedAt.set(messageId, now);
      // The newest page ending at this message (the server compares strictly: +1 ms, id + 1).
      const at = { before_timestamp: new Date(Date.parse(message.created_at) + 1).toISOString(), before_id: message.id + 1 };
      const gen = generation;
      try {
        const resp = await pushAsync<{ messages: Message[] }>(channel, CHAT_EVENTS.fetchMessages, at);
        if (gen !== generation) return;
        setThread(roomId, { messages: mergeMessages(thread(roomId).messages, resp?.messages ?? []) });
      } catch {
        // The broken picture stays; the next failure after the interval tries again.
      }
    },
    sendMessage(roomId, text, media) {
      return sendOptimistic(roomId, media ? { text, type: media.kind, media_url: media.url, media_type: media.type } : { text });
    },
    retryMessage(roomId, clientId) {
      setThread(roomId, { messages: markLocal(thread(roomId).messages, clientId, 'pending') });
      deliver(roomId, clientId);
    },
    sendTemplate(roomId, template, parameters, media) {
      const params = parameters.map((p) => p.trim());
      const header = media?.header;
      return sendOptimistic(roomId, {
        type: 'template',
        text: renderTemplateBody(template, params),
        ...(header ? { media_url: header.url, media_type: header.mediaType ?? null } : {}),
        data: {
          template: {
            name: template.name,
            language: template.language,
            parameters: params,
            ...(header ? { header: { type: header.type } } : media?.headerText ? { header: { type: 'text', text: media.headerText } } : {}),
            ...(media?.cards ? { cards: media.cards } : {}),
            ...(media?.buttons?.length ? { buttons: media.buttons } : {}),
          },
        },
      });
    },
    async loadTemplates(pageId) {
      if (!deps.http) throw new Error(t('chats.errors.offline'));
      const resp = await deps.http.get<{ results?: MessageTemplate[] } | MessageTemplate[]>(`/api/channels/${pageId}/templates/`);
      return Array.isArray(resp) ? resp : (resp?.results ?? []);
    },
    dismissRefusal(roomId) {
      clearRefusal(roomId);
    },
    async togglePause(roomId, days) {
      const room = state.rooms[roomId];
      if (!room) return;
      const pausedUntil = togglePause(room, days);
      try {
        const resp = await pushAsync<{ room: Room }>(roomChannel(roomId), CHAT_EVENTS.updateUser, { user: { paused_until: pausedUntil } });
        if (resp?.room) replaceRoom(resp.room);
        else set({ rooms: { ...state.rooms, [roomId]: { ...room, paused_until: pausedUntil } } });
      } catch (err) {
        failAlert('chats.errors.pause', err);
      }
    },
    async setBlocked(roomId, blocked) {
      try {
        const resp = await pushAsync<{ room: Room }>(roomChannel(roomId), blocked ? CHAT_EVENTS.blockUser : CHAT_EVENTS.unblockUser, {});
        if (resp?.room) replaceRoom(resp.room);
      } catch (err) {
        failAlert(blocked ? 'chats.errors.block' : 'chats.errors.unblock', err);
      }
    },
    async addTag(roomId, tag) {
      try {
        const resp = await pushAsync<{ room: Room }>(roomChannel(roomId), CHAT_EVENTS.addTag, { tag: tag.trim() });
        if (resp?.room) {
          replaceRoom(resp.room);
          const known = new Set(state.tags.map((x) => x.name));
          const added = resp.room.tags.filter((x) => !known.has(x.name));
          if (added.length) set({ tags: [...state.tags, ...added] });
        }
      } catch (err) {
        failAlert('chats.errors.tag', err);
      }
    },
    async removeTag(roomId, tag) {
      try {
        const resp = await pushAsync<{ room: Room }>(roomChannel(roomId), CHAT_EVENTS.removeTag, { tag });
        if (resp?.room) replaceRoom(resp.room);
      } catch (err) {
        failAlert('chats.errors.tag', err);
      }
    },
    async createRoom(input) {
      const channel = pageChannels.get(input.pageId);
      const page = state.pages.find((p) => p.id === input.pageId);
      if (!channel || !page) throw new Error(t('chats.errors.offline'));
      const text = input.text?.trim();
      const resp = await pushAsync<{ room: Room }>(channel, CHAT_EVENTS.createNewChatRoom, {
        user_id: input.userId.trim(),
        page_id: input.pageId,
        platform: page.platform,
        messages: text ? [{ text, client_id: newClientId() }] : [],
        name: input.name.trim(),
      });
      upsertRooms([resp.room]);
      for (const m of resp.room.messages) markSeen(resp.room.id, m.id);
      return resp.room;
    },
    onCustomerMessage(listener) {
      customerListeners.add(listener);
      return () => customerListeners.delete(listener);
    },
    async upload(file) {
      if (!deps.http) throw new Error('no http');
      const fileType = file.type || 'application/octet-stream';
      const target = await deps.http.get<PresignedUpload>('/api/chats/presigned_url/', { query: { file_name: file.name, file_type: fileType } });
      const doFetch = deps.fetch ?? fetch;
      // Every header the URL was signed with (Content-Type; If-None-Match on S3: the URL uploads once).
      const headers = { ...target.headers, 'Content-Type': target.headers?.['Content-Type'] ?? fileType };
      const r = await doFetch(target.upload_url, { method: target.method ?? 'PUT', body: file, headers });
      if (!r.ok) throw new Error(`upload ${r.status}`);
      return target.file_url;
    },
    async sendAttachment(roomId, file) {
      const url = await service.upload(file);
      const type = file.type || 'application/octet-stream';
      return service.sendMessage(roomId, '', { url, type, kind: attachmentKind(type) });
    },
  };

  // Spec §4: selecting a company resets chat state; sign-out also clears unread counts.
  deps.account.subscribe((event) => {
    if (event === 'companyChanged') {
      const wasActive = !!socket;
      service.stop();
      if (wasActive) service.start();
    } else if (event === 'signedOut') {
      disconnect();
      clearAllUnread();
      state = initialState();
      emit();
    }
  });

  return service;
}
