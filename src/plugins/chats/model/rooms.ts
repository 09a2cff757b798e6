/**
 * Pure room-list rules: newest activity first, upserts that keep the freshest preview, the contact
 * search filter exactly as the contract's contactMatches, pause toggle math (spec §4).
 */
import { isUnassigned } from './urlFilter';
import { contactMatches, DEFAULT_PAUSE_DAYS, isRoomPaused, type ContactSearchFilter, type Message, type Room } from '../../../../contract/chats';
import type { RoomStatusFilter } from '../../../../contract/conversations';
import { NOTE_ORIGIN } from '../../../../contract/notes';

export const DAY_MS = 24 * 60 * 60 * 1000;

/** Time of the room's latest activity: last_message_at, else its last message, else 0. */
export function activityTime(room: Room): number {
  const last = room.messages[room.messages.length - 1];
  const candidates = [room.last_message_at, last?.created_at].map((v) => (v ? Date.parse(v) : 0)).filter((v) => !Number.isNaN(v));
  return Math.max(0, ...candidates);
}

/** Newest activity first; ties by id descending (stable across reloads). */
export function compareRooms(a: Room, b: Room): number {
  return activityTime(b) - activityTime(a) || b.id - a.id;
}

export function lastMessage(room: Room): Message | undefined {
  return room.messages[room.messages.length - 1];
}

/**
 * When the customer last wrote (WhatsApp's 24-hour window): the latest of `current` and the
 * created_at of the customer ('user') messages among `messages`. Never moves backwards.
 */
export function latestInbound(current: string | null, messages: Pick<Message, 'origin' | 'created_at'>[]): string | null {
  return messages.reduce((best, m) => (m.origin === 'user' ? laterTime(best, m.created_at) : best), current);
}

/** The later of two ISO times (compared as instants, so offsets and precision may differ); null only when both are. */
export function laterTime(a: string | null, b: string | null): string | null {
  const ta = a ? Date.parse(a) : NaN;
  const tb = b ? Date.parse(b) : NaN;
  if (Number.isNaN(tb)) return a ?? b;
  if (Number.isNaN(ta)) return b;
  return tb > ta ? b : a;
}

/** The room with last_inbound_at moved forward by these messages (the same object when unchanged). */
export function withInbound(room: Room, messages: Pick<Message, 'origin' | 'created_at'>[]): Room {
  const at = latestInbound(room.last_inbound_at ?? null, messages);
  return at === (room.last_inbound_at ?? null) ? room : { ...room, last_inbound_at: at };
}

/**
 * Merges a room from the server into the known one: the server's fields win, but a newer preview we
 * already have (from a live event) is kept so a slow fetch never moves a room back in time; the same
 * goes for last_inbound_at (and the customer messages the room carries move it forward).
 */
export function mergeRoom(known: Room | undefined, incoming: Room): Room {
  const inbound = latestInbound(laterTime(known?.last_inbound_at ?? null, incoming.last_inbound_at ?? null), incoming.messages);
  // A room opened with its notes (the join's newest page) may end with one: the preview is the last message to
  // or from the customer, as the server's room list gives it (a note is for the team, contract/notes.ts).
  const previewable = incoming.messages.filter((m) => m.origin !== NOTE_ORIGIN);
  if (!known) return { ...incoming, messages: previewable.slice(-1), last_inbound_at: inbound };
  const a = lastMessage(known);
  const b = previewable[previewable.length - 1];
  const keepKnown = a && (!b || a.id > b.id);
  const preview = keepKnown ? [a] : b ? [b] : [];
  const lastAt = [known.last_message_at, incoming.last_message_at].filter(Boolean).sort().pop() ?? null;
  return { ...incoming, messages: preview, last_message_at: lastAt, last_inbound_at: inbound };
}

/** The room after a live message: its preview and activity move forward (never backwards); a customer message moves last_inbound_at. */
export function withNewMessage(room: Room, message: Message): Room {
  const r = withInbound(room, [message]);
  const last = lastMessage(r);
  if (last && last.id >= message.id && last.id > 0) return r;
  const at = r.last_message_at && r.last_message_at > message.created_at ? r.last_message_at : message.created_at;
  return { ...r, messages: [message], last_message_at: at };
}

/** The ids in list order. */
export function sortRoomIds(rooms: Record<number, Room>, ids: Iterable<number>): number[] {
  return [...new Set(ids)].filter((id) => rooms[id]).sort((x, y) => compareRooms(rooms[x], rooms[y]));
}

/**
 * The inbox's filter: the contact search (spec §3); the tab (issue #22): unassigned conversations only
 * (/chats?filter=unassigned) or the signed-in member's (`mine`: their user id); and the status (absent: all).
 */
export type ChatFilter = ContactSearchFilter & { unassigned?: boolean; mine?: number | null; status?: RoomStatusFilter };

/**
 * The filter applied to a room as it is now (so a room resolved, re-opened or re-assigned live leaves or
 * enters the view at once): its status, the tab, then the contact search.
 */
export function roomMatches(room: Room, filter: ChatFilter): boolean {
  if (filter.status && filter.status !== 'all' && (room.status ?? 'open') !== filter.status) return false;
  if (filter.mine != null && room.assignee?.id !== filter.mine) return false;
  if (filter.unassigned && !isUnassigned(room)) return false;
  return contactMatches({ name: room.name, externalId: room.external_id, pageId: room.page_id, tags: room.tags }, filter);
}

export function emptyFilter(): ContactSearchFilter {
  return { term: '', tags: [], channels: [] };
}

/**
 * Spec §4 room pause: toggling sets paused_until to now + N days (default 1 day) or clears it when
 * the room is paused already. Returns the value to send with update_user.
 */
export function togglePause(room: Pick<Room, 'paused_until'>, days: number = DEFAULT_PAUSE_DAYS, now = Date.now()): string | null {
  if (isRoomPaused(room, now)) return null;
  const n = Number.isFinite(days) && days > 0 ? days : DEFAULT_PAUSE_DAYS;
  return new Date(now + n * DAY_MS).toISOString();
}
