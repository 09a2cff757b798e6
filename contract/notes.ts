/**
 * Private notes, mentions, notifications and message search (issue #22, second part).
 *
 *   POST /api/rooms/{id}/notes/           NoteBody → 201 Message (origin 'note', private: true)
 *   GET  /api/notifications/?unread=&page= {count, next, previous, results: Notification[]} newest first
 *   POST /api/notifications/{id}/read/    → the notification (read_at set; reading twice keeps the first time)
 *   GET  /api/messages/search/?q=&page=   {count, next, previous, results: MessageSearchResult[]} best match first
 *
 * Notes on the socket (decision): the spec's message payload has no room for "not sent to the customer",
 * and a client that knows nothing of notes draws every message that is not the customer's as sent. So a
 * note never travels where the spec's events carry messages (new_message, room_info, fetch_rooms,
 * fetch_messages, the join's room and missed messages) unless the client asked for notes when it joined
 * the room (`{notes: true}` in the join payload of room:{id}, or `notes=true` on the REST history); it
 * is pushed live as its own event, `new_note` on room:{id}, which older clients do not listen to. The
 * simulator and every channel never see one: a note is never handed to a provider.
 *
 * Notifications go to the member's own topic, `notifications:{userId}`, as `notification` (the payload a
 * Notification); only the member's sockets of that company may join it.
 */
import { z } from 'zod';

/** A private note's origin: a message only members see. */
export const NOTE_ORIGIN = 'note';
export const NOTE_MAX_LENGTH = 4096;

export const NoteBody = z.object({
  text: z.string({ error: 'This field is required.' }).trim().min(1, 'This field may not be blank.').max(NOTE_MAX_LENGTH, `Ensure this field has no more than ${NOTE_MAX_LENGTH} characters.`),
});
export type NoteBody = z.infer<typeof NoteBody>;

/**
 * The e-mail addresses mentioned in a note: `@` followed by an address, at the start or after a space
 * or an opening bracket (so `mail@example.com` written plainly mentions nobody). Lower-cased, once each.
 */
export function mentionedEmails(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(/(?:^|[\s(])@([^\s@()<>,;:"]+@[^\s@()<>,;:"]+\.[^\s@()<>,;:"]*[^\s@()<>,;:".!?])/g)) {
    found.add(match[1].toLowerCase());
  }
  return [...found];
}

/** The `@…` being typed at the caret (what the composer suggests members for), or null. */
export function mentionQueryAt(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret);
  const match = /(?:^|[\s(])@([^\s@()]*)$/.exec(before);
  if (!match) return null;
  return { start: caret - match[1].length - 1, query: match[1] };
}

export const NOTIFICATION_KINDS = ['mention', 'assigned'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export interface Notification {
  id: number;
  kind: NotificationKind;
  room_id: number;
  /** The note that mentions the member; null for an assignment. */
  message_id: number | null;
  created_at: string;
  read_at: string | null;
  /** What the console shows without another call: the room's name and who mentioned or assigned (null: the system). */
  room_name: string;
  by_name: string | null;
}

export const NOTIFICATION_TOPIC_PREFIX = 'notifications';
export const notificationTopic = (userId: number) => `${NOTIFICATION_TOPIC_PREFIX}:${userId}`;
export const NOTIFICATION_EVENT = 'notification';
/** A note pushed live on room:{id} (payload: the message) to clients that joined with `notes: true`. */
export const NEW_NOTE_EVENT = 'new_note';

const pageField = z.coerce.number().int('A valid integer is required.').min(1, 'Invalid page.').max(1_000_000, 'Invalid page.').default(1);

export const NotificationListQuery = z.object({
  unread: z.enum(['true', 'false'], { error: 'Must be a valid boolean.' }).optional(),
  page: pageField,
});
export const NOTIFICATION_PAGE_SIZE = 20;

export const MESSAGE_SEARCH_PAGE_SIZE = 20;
export const MessageSearchQuery = z.object({
  q: z.string({ error: 'This field is required.' }).trim().min(1, 'This field may not be blank.').max(200, 'Ensure this field has no more than 200 characters.'),
  page: pageField,
});

export interface MessageSearchResult {
  room_id: number;
  message_id: number;
  /** The matching passage, HTML-escaped, with each matching word in <mark>…</mark> (splitHighlights reads it). */
  snippet: string;
  created_at: string;
  room_name: string;
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
const unescape = (s: string) => s.replace(/&(amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e]);

/** A snippet as text parts, each marked or not: to be drawn as text nodes (never as HTML). */
export function splitHighlights(snippet: string): { text: string; mark: boolean }[] {
  const parts: { text: string; mark: boolean }[] = [];
  const re = /<mark>([\s\S]*?)<\/mark>/g;
  let at = 0;
  for (let m = re.exec(snippet); m; m = re.exec(snippet)) {
    if (m.index > at) parts.push({ text: unescape(snippet.slice(at, m.index)), mark: false });
    parts.push({ text: unescape(m[1]), mark: true });
    at = m.index + m[0].length;
  }
  if (at < snippet.length) parts.push({ text: unescape(snippet.slice(at)), mark: false });
  return parts;
}

/** The words of a search, as a prefix tsquery ('refun' finds "refund"): letters and digits only, at most 8 words. */
export function searchWords(q: string): string[] {
  return (q.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 8);
}
