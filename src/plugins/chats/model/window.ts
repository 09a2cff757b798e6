/** WhatsApp's 24-hour customer service window as the composer shows it (contract/channels.ts). */
import type { Room } from '../../../../contract/chats';
import { isWindowClosed, windowClosesAt } from '../../../../contract/channels';

export const HOUR_MS = 60 * 60 * 1000;
/** The composer's countdown refreshes every 30 s. */
export const WINDOW_TICK_MS = 30_000;

export interface CustomerWindow {
  /** Free-form messages are subject to the window (WhatsApp rooms only). */
  applies: boolean;
  /** No free-form message may be sent (closed, or the customer never wrote). */
  closed: boolean;
  /** Epoch ms when the window closes, null when the customer never wrote or it does not apply. */
  closesAt: number | null;
  /** Time left while open, else 0. */
  remainingMs: number;
}

export function customerWindow(room: Pick<Room, 'platform' | 'last_inbound_at'>, now = Date.now()): CustomerWindow {
  const applies = room.platform === 'whatsapp';
  const iso = windowClosesAt(room);
  const closesAt = iso ? Date.parse(iso) : null;
  const closed = isWindowClosed(room, now);
  return { applies, closed, closesAt, remainingMs: !closed && closesAt !== null ? Math.max(0, closesAt - now) : 0 };
}

/** Hours and minutes left, minutes rounded up (30 s left reads "1 min", never "0 min"). */
export function remainingParts(ms: number): { hours: number; minutes: number } {
  const total = Math.max(0, Math.ceil(ms / 60_000));
  return { hours: Math.floor(total / 60), minutes: total % 60 };
}
