/** A notification's sentence and where it leads (issue #22): the room, at the note that mentions the member. */
import type { Notification } from '../../../../contract/notes';

export function notificationText(t: (key: string, options?: Record<string, unknown>) => string, n: Notification): string {
  const key = n.kind === 'mention' ? 'mention' : 'assigned';
  return n.by_name ? t(`chats.bell.${key}`, { by: n.by_name, room: n.room_name }) : t(`chats.bell.${key}NoActor`, { room: n.room_name });
}

/** `/chats/{room}` and, for a mention, `?message={note}` (the room opens scrolled to it). */
export function notificationLink(n: Pick<Notification, 'room_id' | 'message_id'>): string {
  return n.message_id ? `/chats/${n.room_id}?message=${n.message_id}` : `/chats/${n.room_id}`;
}
