/**
 * The live inbox's service: owns the socket and its channels (page:lobby, page:{id}, room:{id}) and a
 * small immutable store components read through useChatState (hooks.ts). Spec §4 realtime, §7 chat calls,
 * §9 pacing. Never loses a message: optimistic sends carry a client_id (retry resends it), every
 * room (re)join sends last_message_id so the server returns what was missed, and every merge
 * deduplicates by id and client_id.
 *
 * This file composes the parts and owns the lifecycle (start, stop, company change, sign-out):
 * chatStore (state), connection (socket, back-off, generation), unreadTracking (seen, unread),
 * roomUpdates, roomList (fetch_rooms paging, filter), pageChannels (lobby, page topics), roomChannels
 * (paced room joins), presence, liveMessages, messageSending, messageHistory, roomCommands and
 * httpResources (tags, templates, attachments).
 */
import { reloadUser } from '../../../core';
import { attachmentKind, CHAT_EVENTS } from '../../../../contract/chats';
import { clearAllUnread, loadUnread } from '../model/unread';
import { failureSuffix } from './channelPush';
import { createChatStore, initialState } from './chatStore';
import { createChatConnection } from './connection';
import { createConversations } from './conversations';
import { createHttpResources } from './httpResources';
import { createLiveMessages } from './liveMessages';
import { createMessageHistory } from './messageHistory';
import { createMessageSending } from './messageSending';
import { createRoomNotes } from './notes';
import { createPageChannels } from './pageChannels';
import { createRoomPresence } from './presence';
import { createRoomChannels } from './roomChannels';
import { createRoomCommands } from './roomCommands';
import { createRoomList } from './roomList';
import { createRoomUpdates } from './roomUpdates';
import type { ChatService, ChatServiceDeps, FailureAlert } from './types';
import { createUnreadTracking } from './unreadTracking';

export type { ChatService, ChatServiceDeps, ChatState, ConnectionState, CustomerMessageListener, NewRoomInput, SendRefusal, TemplateChoice, TemplateMedia, Thread, Viewer } from './types';
export { PUSH_TIMEOUT_MS, pushAsync, refusalText } from './channelPush';
export { REVOKED_MEMBERSHIP_CLOSE, REVOKED_SESSION_CLOSE } from './connection';
export { MEDIA_REFRESH_INTERVAL_MS } from './messageHistory';
export { MAX_FILL_PAGES } from './roomList';

export function createChatService(deps: ChatServiceDeps): ChatService {
  const { account } = deps;
  const t = deps.translate ?? ((key: string) => key);
  const alertFailure: FailureAlert = (key, err) => deps.alert.error(t(key) + failureSuffix(err));

  const store = createChatStore(initialState(loadUnread(account.getCompanyId())));
  // Two parts need each other, so one side reaches the other through an arrow called only later: the
  // socket going down asks for an HTTP call (tags), and a room join delivers live messages while a
  // live message of an unknown room asks for a join.
  const connection = createChatConnection({ realtime: deps.realtime, session: deps.session, store, checkSession: () => void httpResources.loadTags(), onMembershipChanged: () => void (deps.http && reloadUser({ account, http: deps.http })) });
  const httpResources = createHttpResources({ store, connection, http: deps.http, fetch: deps.fetch, t });
  const unread = createUnreadTracking({ store, account });
  const rooms = createRoomUpdates({ store, unread });
  const presence = createRoomPresence({ store, account });
  const notes = createRoomNotes({ store, http: deps.http, alertFailure });
  const roomChannels = createRoomChannels({ connection, store, unread, rooms, presence, receiveMessage: (m) => liveMessages.receive(m), receiveNote: notes.receive, t });
  const liveMessages = createLiveMessages({ store, connection, unread, joinRoomNow: roomChannels.joinNow });
  const roomList = createRoomList({ store, connection, rooms, subscribeRooms: roomChannels.enqueue });
  const pageChannels = createPageChannels({ store, connection, unread, rooms, roomList, subscribeRooms: roomChannels.enqueue, receiveMessage: liveMessages.receive });
  const sending = createMessageSending({ store, connection, unread, account, channelFor: roomChannels.channelFor });
  const history = createMessageHistory({ store, connection, rooms, alertFailure });
  const commands = createRoomCommands({ store, connection, rooms, unread, channelFor: roomChannels.channelFor, alertFailure, t });
  const conversations = createConversations({ store, connection, rooms, http: deps.http, alertFailure });
  let stopCounts: (() => void) | null = null;

  function disconnect() {
    connection.close(); // first: from here on, replies of the closed connection are ignored
    roomList.cancel();
    stopCounts?.();
    stopCounts = null;
    conversations.cancel();
    roomChannels.reset();
    presence.clear();
    unread.forgetSeen();
    store.clearList();
  }

  const service: ChatService = {
    getState: store.get,
    subscribe: store.subscribe,
    start() {
      if (connection.socket() || account.getCompanyId() == null) return;
      store.replace({ ...initialState(loadUnread(account.getCompanyId())), selectedRoomId: store.get().selectedRoomId });
      pageChannels.joinLobby(connection.open());
      void httpResources.loadTags();
      httpResources.probeAttachments();
      stopCounts = conversations.follow();
      const selected = store.get().selectedRoomId;
      if (selected != null) roomChannels.joinNow(selected);
    },
    stop() {
      disconnect();
      store.replace(initialState(loadUnread(account.getCompanyId())));
      store.emit();
    },
    setFilter: roomList.setFilter,
    loadMoreRooms: roomList.loadMore,
    selectRoom(roomId) {
      const previous = store.get().selectedRoomId;
      if (roomId === previous) return;
      store.set({ selectedRoomId: roomId });
      // Tell the server which room the agent looks at (read marker, presence); joins carry it too.
      if (previous != null) connection.roomChannels.get(previous)?.push(CHAT_EVENTS.view, { viewing: false });
      if (roomId == null) return;
      connection.roomChannels.get(roomId)?.push(CHAT_EVENTS.view, { viewing: true });
      unread.clearRoom(roomId);
      // The open room is joined at once (not paced), with last_message_id for catch-up.
      if (connection.socket()) roomChannels.joinNow(roomId);
    },
    loadOlder: history.loadOlder,
    refreshMedia: history.refreshMedia,
    ...sending,
    loadTemplates: httpResources.loadTemplates,
    ...commands,
    updateRoom: conversations.updateRoom,
    addNote: notes.addNote,
    suggestReply: notes.suggestReply,
    summarise: notes.summarise,
    onCustomerMessage: unread.onCustomerMessage,
    upload: httpResources.upload,
    async sendAttachment(roomId, file) {
      const url = await service.upload(file);
      const type = file.type || 'application/octet-stream';
      return service.sendMessage(roomId, '', { url, type, kind: attachmentKind(type) });
    },
  };

  // Spec §4: selecting a company resets chat state; sign-out also clears unread counts.
  account.subscribe((event) => {
    if (event === 'companyChanged') {
      const wasActive = !!connection.socket();
      service.stop();
      if (wasActive) service.start();
    } else if (event === 'signedOut') {
      disconnect();
      clearAllUnread();
      store.replace(initialState());
      store.emit();
    }
  });

  return service;
}
