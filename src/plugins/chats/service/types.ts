/** The chat service's public shapes: its state, what it is built from, and what it offers the inbox. */
import type { SuggestReplyResponse } from '../../../../contract/assistant';
import type { Message, PageInfo, Room, Tag } from '../../../../contract/chats';
import type { RoomCounts, RoomUpdateBody } from '../../../../contract/conversations';
import type { MessageTemplate } from '../../../../contract/channels';
import type { AccountStore, AlertApi, HttpProvider, RealtimeClientFactory, SessionStore } from '../../../core/apis';
import type { ChatMessage } from '../model/messages';
import type { ChatFilter } from '../model/rooms';
import type { UnreadMap } from '../model/unread';

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
  /** Rooms whose join the server refused (gone, or not this member's to open): a link to one says so. */
  unavailableRooms: Record<number, true>;
  /** Issue #22: per status, the caller's, unassigned and all rooms (GET /api/rooms/counts/), live; null until loaded. */
  counts: RoomCounts | null;
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
  /** Issue #22: PATCH /api/rooms/{id}/ (status, snoozed_until, assignee_id); the answer replaces the room. Resolves false when refused (alerted). */
  updateRoom(roomId: number, body: RoomUpdateBody): Promise<boolean>;
  /** Issue #22: writes a private note (POST /api/rooms/{id}/notes/), shown in the thread only. Resolves false when refused (alerted). */
  addNote(roomId: number, text: string): Promise<boolean>;
  /** Issue #24: POST /api/rooms/{id}/suggest-reply/ (never sent); null when refused (alerted). */
  suggestReply(roomId: number): Promise<SuggestReplyResponse | null>;
  /** Issue #24: POST /api/rooms/{id}/summary/: the summary lands in the thread as a private note. Resolves false when refused (alerted). */
  summarise(roomId: number): Promise<boolean>;
  onCustomerMessage(listener: CustomerMessageListener): () => void;
  /** Uploads a file through GET /api/chats/presigned_url/ and a PUT to its upload_url; resolves the file_url. */
  upload(file: File): Promise<string>;
  /** Uploads the file, then sends it as a message (media_url = file_url, media_type = its type, type by MIME); resolves the client_id. */
  sendAttachment(roomId: number, file: File): Promise<string>;
}

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

/** A failed call shown as an alert: the translated key, with the server's reason when it gave one. */
export type FailureAlert = (key: string, err: unknown) => void;
export type Translate = (key: string) => string;
