/**
 * Live inbox (spec §3 Room, Message, Tag, contact search; §4 pause/block; §7 chat realtime).
 * Topics: `page:lobby`, `page:{pageId}`, `room:{roomId}` on the Phoenix-protocol socket at `/socket`.
 */
import { z } from 'zod';
import { isAgentTag } from './validation';
import { ROOM_STATUS_FILTERS, type RoomAssignee, type RoomStatus } from './conversations';

export type Platform = 'sandbox' | 'whatsapp' | 'messenger' | 'instagram';
/** 'note': a private note of a member (contract/notes.ts), never sent to the customer. */
export type MessageOrigin = 'user' | 'agent' | 'bot' | 'system' | 'note';
export type MessageType = 'text' | 'image' | 'video' | 'audio' | 'document' | 'button_reply' | 'list_reply' | 'location' | 'contacts' | 'template' | 'interactive';
/** Delivery state of an outgoing message; it only ever moves forward (failed is terminal). */
export type DeliveryStatus = 'pending' | 'sent' | 'delivered' | 'read' | 'failed';
export const DELIVERY_ORDER: Record<DeliveryStatus, number> = { pending: 0, sent: 1, delivered: 2, read: 3, failed: 4 };

export interface Tag {
  id: number;
  name: string;
}

export interface Message {
  id: number;
  room_id: number;
  /** "user" is the customer; a user message counts as unread while its room is not selected. */
  origin: MessageOrigin;
  type: MessageType;
  text: string | null;
  media_url: string | null;
  media_type: string | null;
  /** Button/list reply id, location, contacts… as the channel delivered them. */
  data: Record<string, unknown> | null;
  status: DeliveryStatus | null;
  error: string | null;
  /** Idempotency key chosen by the sending client; a resend with the same id returns the stored message. */
  client_id: string | null;
  sender_name: string | null;
  created_at: string;
  /** Issue #22: a private note (origin 'note'): shown to members only, never sent to the customer. */
  private: boolean;
}

/**
 * Where a room's unread count stops: the list shows 99+ from 100, so no one sees a larger count, and counting a
 * long-unread room's whole history (a member who never opened it) was most of the room list's database time
 * (bench/data, issue #26). Chatwoot stops counting at a limit too.
 */
export const UNREAD_COUNT_LIMIT = 100;

export interface Room {
  id: number;
  name: string;
  external_id: string;
  page_id: number;
  platform: Platform;
  tags: Tag[];
  /** The bot is paused while this lies in the future. */
  paused_until: string | null;
  blocked_at: string | null;
  /** The member's unread customer messages, counted up to UNREAD_COUNT_LIMIT (shown as 99+ from there). */
  unread: number;
  last_message_at: string | null;
  /** When the customer last wrote (WhatsApp's 24-hour window, contract/channels.ts windowClosesAt). */
  last_inbound_at: string | null;
  /** Newest messages first-loaded with the room (ordered by created_at ascending). */
  messages: Message[];
  /** Issue #22: open, pending (waiting on the customer), snoozed (until snoozed_until) or resolved. */
  status: RoomStatus;
  snoozed_until: string | null;
  /** The one member the room is assigned to (its agent tag, spec §5), or null. */
  assignee: RoomAssignee | null;
}

/** A channel (page) of the company, as the inbox sees it. */
export interface PageInfo {
  id: number;
  name: string;
  platform: Platform;
  external_id: string;
}

/** Spec §9 "a chat constant of 30": rooms per fetch_rooms page and messages per fetch_messages page. */
export const CHAT_PAGE_SIZE = 30;
/** Default bot pause: 1 day. */
export const DEFAULT_PAUSE_DAYS = 1;

// ---------- client → server pushes (payloads validated by the server) ----------
/** A template message: sent even outside WhatsApp's 24-hour window. */
export const TemplateSendPayload = z.object({
  name: z.string().trim().min(1).max(512),
  language: z.string().trim().min(2).max(15),
  parameters: z.array(z.string().max(1024)).max(20).default([]),
  /** A media header's kind (its file is the message's media_url: an upload or the template's sample), or a text header's {{1}} value. */
  header: z.object({ type: z.enum(['image', 'video', 'document', 'text']), text: z.string().trim().min(1).max(60).optional() }).optional(),
  /** Values of the buttons that take one (by index): a URL button's {{1}} ending, a copy-code button's offer code. */
  buttons: z
    .array(z.object({ index: z.number().int().min(0).max(9), sub_type: z.enum(['url', 'copy_code']), value: z.string().trim().min(1).max(2000) }))
    .max(10)
    .optional(),
  /** A carousel: one card per card of the approved template, in order (Meta fixes the count at approval). */
  cards: z
    .array(
      z.object({
        type: z.enum(['image', 'video']),
        link: z.string().trim().max(2048).regex(/^https:\/\/[^\s]+$/, 'Enter an https:// link to the card\'s image or video.'),
        parameters: z.array(z.string().max(1024)).max(20).default([]),
      }),
    )
    .max(10)
    .optional(),
});
export type TemplateSendPayload = z.infer<typeof TemplateSendPayload>;
/** The most ids one filter (tags, pages) of fetch_rooms takes. */
export const MAX_FILTER_IDS = 100;
/** A row id as the database stores it (PostgreSQL integer): anything larger would fail the query, not match nothing. */
export const dbId = () => z.number().int().min(0).max(2_147_483_647);
const filterIds = z.array(dbId()).max(MAX_FILTER_IDS);
export const FetchRoomsPayload = z.object({
  search: z.string().max(200).default(''),
  page: z.number().int().min(1).max(1_000_000).default(1),
  tags: filterIds.optional(),
  pages: filterIds.optional(),
  /** Issue #22: one status or 'all' (absent: every room, as spec §7's clients expect). */
  status: z.enum(ROOM_STATUS_FILTERS).optional(),
  /** Issue #22: the caller's rooms, unassigned ones, or one member's. */
  assignee: z.union([z.literal('me'), z.literal('none'), dbId()]).optional(),
});
export const FetchMessagesPayload = z.object({ before_timestamp: z.string().max(64).nullable().optional(), before_id: dbId().nullable().optional() });
export const UpdateUserPayload = z.object({ user: z.object({ paused_until: z.string().datetime({ offset: true }).nullable() }) });

/** Where media served by this server lives (local disk, or the private-attachment routes): `/media/…`. */
export const OWN_MEDIA_PATH = '/media/';
export const MEDIA_URL_MESSAGE = 'Enter an https URL or a file uploaded here.';

/**
 * A media_url a message may carry: an absolute https URL, a path of our own media (`/media/…`), or a
 * URL below one of `ownMediaBases` (this server's `PUBLIC_URL/media/`, the S3 bucket's public URL),
 * which may be plain http on a LAN. Never another scheme (javascript:, data:, file:…), never
 * credentials in the URL, never a protocol-relative `//host` path.
 */
export function isAllowedMediaUrl(value: string, ownMediaBases: readonly string[] = []): boolean {
  if (value.startsWith('/')) {
    if (value.startsWith('//') || value.includes('\\')) return false;
    const resolved = safeUrl(value, 'https://own.invalid');
    return !!resolved && resolved.origin === 'https://own.invalid' && resolved.pathname.startsWith(OWN_MEDIA_PATH);
  }
  const url = safeUrl(value);
  if (!url || url.username || url.password) return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && ownMediaBases.some((base) => url.href.startsWith(base));
}

function safeUrl(value: string, base?: string): URL | null {
  try {
    return new URL(value, base);
  } catch {
    return null;
  }
}

/** media_url of an agent's message; the server passes its own media bases (see isAllowedMediaUrl). */
export function mediaUrlSchema(ownMediaBases: readonly string[] = []) {
  return z
    .string()
    .trim()
    .max(2048)
    .refine((value) => isAllowedMediaUrl(value, ownMediaBases), MEDIA_URL_MESSAGE);
}

/**
 * send_message (spec §7 `send message {message}`). `client_id` is our idempotency key: optional, so a
 * client that knows nothing of it can send (without idempotency: each push stores a message).
 */
export function sendMessagePayload(ownMediaBases: readonly string[] = []) {
  return z.object({
    message: z.object({
      text: z.string().max(4096).nullable().optional(),
      media_url: mediaUrlSchema(ownMediaBases).nullable().optional(),
      media_type: z.string().max(100).nullable().optional(),
      type: z.enum(['text', 'image', 'video', 'audio', 'document', 'template']).default('text'),
      client_id: z.string().min(1).max(64).nullable().optional(),
      /** type 'template' only: an approved WhatsApp template and its body parameters ({{1}}, {{2}}…). */
      template: TemplateSendPayload.optional(),
    }),
  });
}
export const SendMessagePayload = sendMessagePayload();
export const TagPayload = z.object({ tag: z.string().trim().min(1).max(100) });
export const CreateRoomPayload = z.object({
  user_id: z.string().trim().min(1).max(100),
  page_id: dbId(),
  platform: z.enum(['sandbox', 'whatsapp', 'messenger', 'instagram']),
  messages: z
    .array(z.object({ text: z.string().min(1).max(4096), client_id: z.string().min(1).max(64) }))
    .max(20)
    .default([]),
  name: z.string().trim().min(1).max(200),
});
/** Join payload of room:{id}: the newest message id the client has, to catch up without gap or duplicate. */
export const RoomJoinPayload = z.object({
  last_message_id: dbId().nullable().optional(),
  /** false for background subscriptions (room list updates): no read marker, no presence. Default true. */
  viewing: z.boolean().optional(),
  /** Issue #22: this client shows private notes (contract/notes.ts): the room's history includes them and `new_note` pushes them. */
  notes: z.boolean().optional(),
});
/** Push `view` on room:{id}: the agent opened (true) or left (false) the room; marks it read and updates presence. */
export const ViewPayload = z.object({ viewing: z.boolean() });

/** GET /api/chats/presigned_url/ (spec §7): where to PUT a chat attachment. The server checks file_type against its allowed types. */
export const PresignedUploadQuery = z.object({
  file_name: z.string().trim().min(1).max(200),
  file_type: z.string().trim().toLowerCase().min(1).max(100),
});
export type PresignedUploadQuery = z.infer<typeof PresignedUploadQuery>;
/**
 * Like S3's presigned PUT: send the bytes with `method` and every one of `headers` to `upload_url` (no bearer
 * token), then use `file_url` as the message's media_url. The URL uploads once (a second PUT is refused).
 * `file_url` itself serves nothing: a chat attachment is private, and messages carry a short-lived signed URL.
 */
export interface PresignedUpload {
  upload_url: string;
  method: 'PUT';
  headers: { 'Content-Type': string; 'If-None-Match'?: '*' };
  file_url: string;
  /** ISO 8601; the upload URL is refused after it. */
  expires_at: string;
}
/** The message type of an attachment by its MIME type. */
export function attachmentKind(mimeType: string): 'image' | 'video' | 'audio' | 'document' {
  if (mimeType.startsWith('image/')) return 'image';
  if (mimeType.startsWith('video/')) return 'video';
  if (mimeType.startsWith('audio/')) return 'audio';
  return 'document';
}

// ---------- server → client events ----------
export const CHAT_EVENTS = {
  roomInfo: 'room_info',
  newMessage: 'new_message',
  sendMessage: 'send_message',
  addTag: 'add_tag',
  removeTag: 'remove_tag',
  newRoom: 'new_room',
  createNewChatRoom: 'create_new_chat_room',
  blockUser: 'block_user',
  unblockUser: 'unblock_user',
  fetchPages: 'fetch_pages',
  fetchRooms: 'fetch_rooms',
  fetchMessages: 'fetch_messages',
  updateUser: 'update_user',
  /** The agent opened or left a room that is already subscribed (see ViewPayload). */
  view: 'view',
  /** Delivery status changes of outgoing messages (payload: the message). */
  messageStatus: 'message_status',
} as const;

/**
 * A join refused because the user's joins (over all their tabs and sockets) are over the limit:
 * `{reason: 'rate limited', retry_after: seconds}`. The client joins again after `retry_after`.
 */
export const JOIN_RATE_LIMITED = 'rate limited';
/** A room join refused because the room is gone or not the member's to open (another refusal, a crash, says nothing of the room). */
export const ROOM_UNAVAILABLE_REASONS: readonly string[] = ['not found', 'forbidden'];
export interface JoinRefusal {
  reason?: string;
  retry_after?: number;
}

// ---------- contact search (spec §3) ----------
export interface ContactSearchFilter {
  term: string;
  tags: { id: number }[];
  channels: number[];
}
export interface Contact {
  name: string;
  externalId: string;
  pageId: number;
  tags: { id: number }[];
}
/** Name or externalId contains the term (case-insensitive), tags include any chosen tag, pageId among chosen channels; empty filters match all. */
export function contactMatches(contact: Contact, filter: ContactSearchFilter): boolean {
  const term = filter.term.trim().toLowerCase();
  if (term && !contact.name.toLowerCase().includes(term) && !contact.externalId.toLowerCase().includes(term)) return false;
  if (filter.tags.length && !contact.tags.some((t) => filter.tags.some((f) => f.id === t.id))) return false;
  if (filter.channels.length && !filter.channels.includes(contact.pageId)) return false;
  return true;
}

export function isRoomPaused(room: Pick<Room, 'paused_until'>, now = Date.now()): boolean {
  return !!room.paused_until && new Date(room.paused_until).getTime() > now;
}

/** Agent tags are e-mail-like: they assign the room to that agent. */
export function isAgentTagName(name: string): boolean {
  return isAgentTag(name);
}
