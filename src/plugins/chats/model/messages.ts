/**
 * Pure message-list rules: one entry per message (deduplicated by id and by client_id, so an
 * optimistic message is replaced by the server's copy), ordered by created_at, delivery status only
 * moving forward (spec §3; contract DELIVERY_ORDER).
 */
import { DELIVERY_ORDER, type DeliveryStatus, type Message } from '../../../../contract/chats';

/** A message as the inbox holds it: the server's, or an optimistic one (negative id) awaiting it. */
export interface ChatMessage extends Message {
  /** Set on optimistic messages the server has not stored yet. */
  local?: boolean;
}

/** Status moves forward only (pending → sent → delivered → read; failed is terminal). */
export function forwardStatus(current: DeliveryStatus | null, next: DeliveryStatus | null): DeliveryStatus | null {
  if (!next) return current;
  if (!current) return next;
  return DELIVERY_ORDER[next] >= DELIVERY_ORDER[current] ? next : current;
}

function time(m: Pick<Message, 'created_at'>): number {
  const t = Date.parse(m.created_at);
  return Number.isNaN(t) ? 0 : t;
}

/** created_at ascending; equal times by id (optimistic, negative ids, last). */
export function compareMessages(a: ChatMessage, b: ChatMessage): number {
  const d = time(a) - time(b);
  if (d !== 0) return d;
  if (a.local !== b.local) return a.local ? 1 : -1;
  return a.id - b.id;
}

/** Merges one stored copy with an incoming one: newer fields, status never backwards. */
function mergeOne(existing: ChatMessage, incoming: ChatMessage): ChatMessage {
  // A server copy replaces an optimistic one entirely (id, created_at), keeping the furthest status.
  if (existing.local && !incoming.local) return { ...incoming, status: forwardStatus(existing.status === 'failed' ? null : existing.status, incoming.status) };
  if (!existing.local && incoming.local) return existing;
  const merged = { ...existing, ...incoming, status: forwardStatus(existing.status, incoming.status) };
  return sameFields(existing, merged) ? existing : merged;
}

function sameFields(a: ChatMessage, b: ChatMessage): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]) as Set<keyof ChatMessage>;
  for (const k of keys) if (a[k] !== b[k] && JSON.stringify(a[k]) !== JSON.stringify(b[k])) return false;
  return true;
}

/**
 * Merges incoming messages into a sorted list: never a duplicate (same id, or same client_id), always
 * sorted by created_at. Returns the same array when nothing changed (cheap re-render checks).
 */
export function mergeMessages(list: ChatMessage[], incoming: ChatMessage[]): ChatMessage[] {
  if (!incoming.length) return list;
  const byId = new Map<number, number>();
  const byClient = new Map<string, number>();
  list.forEach((m, i) => {
    byId.set(m.id, i);
    if (m.client_id) byClient.set(m.client_id, i);
  });
  let next: ChatMessage[] | null = null;
  let appended = false;
  let needsSort = false;
  for (const m of incoming) {
    const work: ChatMessage[] = next ?? list;
    const at = byId.get(m.id) ?? (m.client_id ? byClient.get(m.client_id) : undefined);
    if (at !== undefined) {
      const merged = mergeOne(work[at], m);
      if (merged === work[at]) continue;
      next = next ?? list.slice();
      if (merged.created_at !== work[at].created_at) needsSort = true;
      if (merged.id !== work[at].id) byId.delete(work[at].id);
      next[at] = merged;
      byId.set(merged.id, at);
      if (merged.client_id) byClient.set(merged.client_id, at);
    } else {
      next = next ?? list.slice();
      const last = next[next.length - 1];
      if (last && compareMessages(last, m) > 0) needsSort = true;
      next.push(m);
      appended = true;
      byId.set(m.id, next.length - 1);
      if (m.client_id) byClient.set(m.client_id, next.length - 1);
    }
  }
  if (!next) return list;
  if (needsSort || (appended && !isSorted(next))) next.sort(compareMessages);
  return next;
}

function isSorted(list: ChatMessage[]): boolean {
  for (let i = 1; i < list.length; i++) if (compareMessages(list[i - 1], list[i]) > 0) return false;
  return true;
}

/** Newest stored (server) message id, for `last_message_id` on (re)join; optimistic ones do not count. */
export function lastServerMessageId(list: ChatMessage[]): number | null {
  let max: number | null = null;
  for (const m of list) if (!m.local && m.id > 0 && (max === null || m.id > max)) max = m.id;
  return max;
}

/** created_at of the oldest stored message, for fetch_messages `before_timestamp`. */
export function oldestTimestamp(list: ChatMessage[]): string | null {
  const first = list.find((m) => !m.local);
  return first ? first.created_at : null;
}

let localSeq = 0;
/** A fresh idempotency key for an outgoing message. */
export function newClientId(): string {
  localSeq += 1;
  const rand = typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  return `c-${rand}-${localSeq}`.slice(0, 64);
}

/** The optimistic message shown at once while send_message is on its way. */
export function optimisticMessage(roomId: number, text: string, clientId: string, senderName: string | null, now = Date.now()): ChatMessage {
  localSeq += 1;
  return {
    id: -(now * 1000 + (localSeq % 1000)),
    room_id: roomId,
    origin: 'agent',
    type: 'text',
    text,
    media_url: null,
    media_type: null,
    data: null,
    status: 'pending',
    error: null,
    client_id: clientId,
    sender_name: senderName,
    created_at: new Date(now).toISOString(),
    private: false,
    local: true,
  };
}
