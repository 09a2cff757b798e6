/** Display helpers for the inbox (times, initials, channel names). */
import { UNREAD_COUNT_LIMIT, type PageInfo, type Room } from '../../../contract/chats';
import type { SystemLine } from '../../../contract/customerEvents';
import { formatDate } from '../../core/i18n/dates';

export function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const letters = parts.length > 1 ? [parts[0], parts[parts.length - 1]] : parts;
  return letters.map((p) => Array.from(p)[0] ?? '').join('').toUpperCase() || '?';
}

const TIME: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit' };
const DAY_AND_MONTH: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'short' };
/** The formats of the room list's and the thread's times (ChatsPage builds them while the rooms load). */
export const INBOX_DATE_FORMATS: readonly Intl.DateTimeFormatOptions[] = [TIME, DAY_AND_MONTH, {}];

/** A message's time of day ("02:16 PM", "14:16"). */
export function clockTime(iso: string | null | undefined, locale: string): string {
  return formatDate(iso, locale, TIME);
}

/** Today: time only; this year: day and month; else the date. */
export function shortTime(iso: string | null | undefined, locale: string, now = new Date()): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const today = d.getFullYear() === now.getFullYear() && d.getMonth() === now.getMonth() && d.getDate() === now.getDate();
  if (today) return formatDate(d, locale, TIME);
  if (d.getFullYear() === now.getFullYear()) return formatDate(d, locale, DAY_AND_MONTH);
  return formatDate(d, locale, {});
}

export function dateTime(iso: string | null | undefined, locale: string): string {
  return formatDate(iso, locale, { dateStyle: 'medium', timeStyle: 'short' });
}

export function channelName(pages: PageInfo[], room: Pick<Room, 'page_id' | 'platform'>): string {
  const page = pages.find((p) => p.id === room.page_id);
  return page ? page.name : room.platform;
}

/** The message's full date and time, shown on hover over its time ("Friday, November 20, 2026 at 7:11 PM"). */
export function fullDateTime(iso: string | null | undefined, locale: string): string {
  return formatDate(iso, locale, { dateStyle: 'full', timeStyle: 'short' });
}

/** Issue #25: a system line the channel added (contract/customerEvents.ts), in the console's language. */
export function systemLineLabel(t: (key: string, options?: Record<string, unknown>) => string, line: SystemLine): string {
  if (line.system === 'number_changed') return t('chats.system.numberChanged', { number: `+${line.new_id.replace(/^\+/, '')}` });
  return line.platform && line.platform !== 'sandbox' ? t('chats.system.unsupported', { app: t(`chats.platform.${line.platform}`) }) : t('chats.system.unsupportedApp');
}

/** The badge's count: 99+ from UNREAD_COUNT_LIMIT, where the server stops counting (contract/chats.ts). */
export function unreadBadge(unread: number): string {
  return unread >= UNREAD_COUNT_LIMIT ? `${UNREAD_COUNT_LIMIT - 1}+` : String(unread);
}
