/** Database rows → the contract's shapes (contract/chats.ts), and the inbox's topic names. */
import type { RoomAssignee, RoomStatus } from '../../../contract/conversations';
import type { DeliveryStatus, Message, MessageOrigin, MessageType, PageInfo, Platform, Room, Tag } from '../../../contract/chats';
import { NOTE_ORIGIN } from '../../../contract/notes';
import type { channels, messages, rooms } from '../../core/db/schema';

export type ChannelRow = typeof channels.$inferSelect;
export type RoomRow = typeof rooms.$inferSelect;
export type MessageRow = typeof messages.$inferSelect;
/** A room with the platform of its channel. */
export type RoomRecord = RoomRow & { platform: Platform };

export const pageTopic = (pageId: number) => `page:${pageId}`;
export const roomTopic = (roomId: number) => `room:${roomId}`;

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/**
 * What a stored media_url becomes for the message's company (a private attachment's signed URL,
 * server/providers/storage/privateMedia.ts mediaUrlForCompany); rows keep the plain URL.
 */
export type MediaUrlReader = (storedUrl: string | null, companyId: number) => string | null;

export function toMessage(row: MessageRow, mediaUrl: MediaUrlReader): Message {
  return {
    id: row.id,
    room_id: row.roomId,
    origin: row.origin as MessageOrigin,
    type: row.type as MessageType,
    text: row.text,
    media_url: mediaUrl(row.mediaUrl, row.companyId),
    media_type: row.mediaType,
    data: row.data ?? null,
    status: (row.status as DeliveryStatus | null) ?? null,
    error: row.error,
    client_id: row.clientId,
    sender_name: row.senderName,
    created_at: row.createdAt.toISOString(),
    private: row.origin === NOTE_ORIGIN,
  };
}

export function toPageInfo(row: ChannelRow): PageInfo {
  return { id: row.id, name: row.name, platform: row.platform, external_id: row.externalId };
}

export function toRoom(row: RoomRecord, extra: { tags: Tag[]; unread: number; messages: Message[]; assignee: RoomAssignee | null }): Room {
  return {
    id: row.id,
    name: row.name,
    external_id: row.externalId,
    page_id: row.channelId,
    platform: row.platform,
    tags: extra.tags,
    paused_until: iso(row.pausedUntil),
    blocked_at: iso(row.blockedAt),
    unread: extra.unread,
    last_message_at: iso(row.lastMessageAt),
    last_inbound_at: iso(row.lastInboundAt),
    messages: extra.messages,
    status: row.status as RoomStatus,
    snoozed_until: iso(row.snoozedUntil),
    assignee: extra.assignee,
  };
}
