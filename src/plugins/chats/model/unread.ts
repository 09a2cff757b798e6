/**
 * Unread counts (spec §3, §4, §9): a `user` message counts as unread while its room is not selected.
 * Only this map is saved locally, per company; sign-out clears it.
 */
import type { Message } from '../../../../contract/chats';

export type UnreadMap = Record<number, number>;

export const UNREAD_KEY_PREFIX = 'chats.unread.';

export function unreadKey(companyId: number): string {
  return `${UNREAD_KEY_PREFIX}${companyId}`;
}

/** Does this message add to the room's unread count? */
export function countsAsUnread(message: Pick<Message, 'origin' | 'room_id'>, selectedRoomId: number | null): boolean {
  return message.origin === 'user' && message.room_id !== selectedRoomId;
}

export function addUnread(map: UnreadMap, roomId: number, n = 1): UnreadMap {
  if (n <= 0) return map;
  return { ...map, [roomId]: (map[roomId] ?? 0) + n };
}

export function clearUnread(map: UnreadMap, roomId: number): UnreadMap {
  if (!map[roomId]) return map;
  const next = { ...map };
  delete next[roomId];
  return next;
}

export function totalUnread(map: UnreadMap): number {
  return Object.values(map).reduce((sum, n) => sum + (n > 0 ? n : 0), 0);
}

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

export function loadUnread(companyId: number | null): UnreadMap {
  if (companyId == null) return {};
  try {
    const raw = storage()?.getItem(unreadKey(companyId));
    const parsed = raw ? (JSON.parse(raw) as unknown) : null;
    if (!parsed || typeof parsed !== 'object') return {};
    const map: UnreadMap = {};
    for (const [k, v] of Object.entries(parsed as Record<string, unknown>)) {
      const id = Number(k);
      if (Number.isInteger(id) && typeof v === 'number' && v > 0) map[id] = Math.floor(v);
    }
    return map;
  } catch {
    return {};
  }
}

export function saveUnread(companyId: number | null, map: UnreadMap): void {
  if (companyId == null) return;
  try {
    const s = storage();
    if (!s) return;
    if (Object.keys(map).length) s.setItem(unreadKey(companyId), JSON.stringify(map));
    else s.removeItem(unreadKey(companyId));
  } catch {
    /* storage full or denied: counts stay in memory */
  }
}

/** Sign-out clears unread counts of every company. */
export function clearAllUnread(): void {
  const s = storage();
  if (!s) return;
  const keys: string[] = [];
  for (let i = 0; i < s.length; i++) {
    const k = s.key(i);
    if (k?.startsWith(UNREAD_KEY_PREFIX)) keys.push(k);
  }
  keys.forEach((k) => s.removeItem(k));
}
