/**
 * Day separators of a conversation, as every messenger shows them: "Today", "Yesterday", the weekday
 * within the last week, else the date. Pure functions over local calendar days (the agent's time
 * zone); `now` is a parameter so the rules are testable with fixed dates.
 */
import { dateTimeFormat } from '../../../core/i18n/dates';
import type { ChatMessage } from './messages';

/** The words that are not dates (translated by the caller). */
export interface DayWords {
  today: string;
  yesterday: string;
}

const DAY_MS = 24 * 3600_000;

function startOfDay(d: Date): Date {
  return new Date(d.getFullYear(), d.getMonth(), d.getDate());
}

/** Whole calendar days from `date` to `now` (1 = yesterday); rounding absorbs a DST hour. */
export function calendarDaysBetween(date: Date, now: Date): number {
  return Math.round((startOfDay(now).getTime() - startOfDay(date).getTime()) / DAY_MS);
}

/** The local calendar day of a date, `YYYY-MM-DD` (the key of a separator). */
export function localDayKey(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** A label on its own starts with a capital ("vendredi" → "Vendredi"), whatever the language's date style. */
function capitalise(text: string, locale: string): string {
  return text ? text.charAt(0).toLocaleUpperCase(locale) + text.slice(1) : text;
}

/**
 * The separator's text for the day of `date` seen from `now`: today, yesterday, the weekday for the
 * 2 to 6 days before, the day and month earlier this year, the full date in another year (or in the
 * future, when a clock is ahead).
 */
export function dayLabel(date: Date, now: Date, locale: string, words: DayWords): string {
  const days = calendarDaysBetween(date, now);
  if (days === 0) return words.today;
  if (days === 1) return words.yesterday;
  if (days > 1 && days < 7) return capitalise(dateTimeFormat(locale, { weekday: 'long' }).format(date), locale);
  const sameYear = days > 0 && date.getFullYear() === now.getFullYear();
  const format: Intl.DateTimeFormatOptions = sameYear ? { weekday: 'long', day: 'numeric', month: 'long' } : { day: 'numeric', month: 'long', year: 'numeric' };
  return capitalise(dateTimeFormat(locale, format).format(date), locale);
}

/** One row of the virtualised thread: a day separator, or a message. */
export type ThreadItem = { kind: 'day'; key: string; date: Date } | { kind: 'message'; key: string; message: ChatMessage };

/**
 * The sorted messages with a separator before the first message of each local day. A message with
 * an unreadable date joins the day before it (no separator of its own).
 */
export function withDaySeparators(messages: ChatMessage[], keyOf: (m: ChatMessage) => string): ThreadItem[] {
  const items: ThreadItem[] = [];
  let currentDay: string | null = null;
  for (const message of messages) {
    const date = new Date(message.created_at);
    if (!Number.isNaN(date.getTime())) {
      const day = localDayKey(date);
      if (day !== currentDay) {
        currentDay = day;
        items.push({ kind: 'day', key: `day-${day}`, date: startOfDay(date) });
      }
    }
    items.push({ kind: 'message', key: keyOf(message), message });
  }
  return items;
}

/** Milliseconds until the next local midnight (when "Today" becomes "Yesterday"). */
export function msUntilNextDay(now: Date): number {
  const next = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1);
  return next.getTime() - now.getTime();
}
