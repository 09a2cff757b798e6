/**
 * Live inbox (spec §3 Room, Message, Tag, contact search; §4 pause/block; §7 chat realtime).
 * Topics: `page:lobby`, `page:{pageId}`, `room:{roomId}` on the Phoenix-protocol socket at `/socket`.
 */
import { z } from 'zod';
import { AGENT_TAG_PATTERN } from './validation';

export type Platform = 'sandbox' | 'whatsapp' | 'messenger' | 'instagram';
export type MessageOrigin = 'user' | 'agent' | 'bot' | 'system';
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
}

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
  unread: number;
  last_message_at: string | null;
  /** When the customer last wrote (WhatsApp's 24-hour window, contract/channels.ts windowClosesAt). */
  last_inbound_at: string | null;
  /** Newest messages first-loaded with the room (ordered by created_at ascending). */
  messages: Message[];
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
});
export type TemplateSendPayload = z.infer<typeof TemplateSendPayload>;
export const FetchRoomsPayload = z.object({ search: z.string().max(200).default(''), page: z.number().int().min(1).default(1), tags: z.array(z.number().int()).optional(), pages: z.array(z.number().int()).optional() });
export const FetchMessagesPayload = z.object({ before_timestamp: z.string().nullable().optional() });
export const UpdateUserPayload = z.object({ user: z.object({ paused_until: z.string().datetime({ offset: true }).nullable() }) });
export const SendMessagePayload = z.object({
  message: z.object({
    text: z.string().max(4096).nullable().optional(),
    media_url: z.string().max(2048).nullable().optional(),
    media_type: z.string().max(100).nullable().optional(),
    type: z.enum(['text', 'image', 'video', 'audio', 'document', 'template']).default('text'),
    client_id: z.string().min(1).max(64),
    /** type 'template' only: an approved WhatsApp template and its body parameters ({{1}}, {{2}}…). */
    template: TemplateSendPayload.optional(),
  }),
});
export const TagPayload = z.object({ tag: z.string().trim().min(1).max(100) });
export const CreateRoomPayload = z.object({
  user_id: z.string().trim().min(1).max(100),
  page_id: z.number().int(),
  platform: z.enum(['sandbox', 'whatsapp', 'messenger', 'instagram']),
  messages: z.array(z.object({ text: z.string().min(1).max(4096), client_id: z.string().min(1).max(64) })).default([]),
  name: z.string().trim().min(1).max(200),
});
/** Join payload of room:{id}: the newest message id the client has, to catch up without gap or duplicate. */
export const RoomJoinPayload = z.object({
  last_message_id: z.number().int().nullable().optional(),
  /** false for background subscriptions (room list updates): no read marker, no presence. Default true. */
  viewing: z.boolean().optional(),
});
/** Push `view` on room:{id}: the agent opened (true) or left (false) the room; marks it read and updates presence. */
export const ViewPayload = z.object({ viewing: z.boolean() });

/** GET /api/chats/presigned_url/ (spec §7): where to PUT a chat attachment. The server checks file_type against its allowed types. */
export const PresignedUploadQuery = z.object({
  file_name: z.string().trim().min(1).max(200),
  file_type: z.string().trim().toLowerCase().min(1).max(100),
});
export type PresignedUploadQuery = z.infer<typeof PresignedUploadQuery>;
/** Like S3's presigned PUT: send the bytes with `method` and `headers` to `upload_url` (no bearer token), then use `file_url` as the message's media_url. */
export interface PresignedUpload {
  upload_url: string;
  method: 'PUT';
  headers: { 'Content-Type': string };
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
  return AGENT_TAG_PATTERN.test(name);
}
