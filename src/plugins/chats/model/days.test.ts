import { describe, expect, it } from 'vitest';
import { message } from '../testing/fakeChatServer';
import { calendarDaysBetween, dayLabel, localDayKey, msUntilNextDay, withDaySeparators } from './days';

const EN = { today: 'Today', yesterday: 'Yesterday' };
const FR = { today: "Aujourd'hui", yesterday: 'Hier' };

// Local dates (the agent's time zone), so the results do not depend on the machine's zone.
const now = new Date(2026, 10, 23, 9, 30); // Monday 23 November 2026, 09:30
const at = (month: number, day: number, hour = 12, year = 2026) => new Date(year, month, day, hour, 0);

describe('dayLabel', () => {
  it('today and yesterday, by calendar day and not by 24 hours', () => {
    expect(dayLabel(at(10, 23, 0), now, 'en', EN)).toBe('Today');
    expect(dayLabel(at(10, 23, 23), now, 'en', EN)).toBe('Today');
    expect(dayLabel(new Date(2026, 10, 22, 23, 59), now, 'en', EN)).toBe('Yesterday');
    expect(dayLabel(new Date(2026, 10, 22, 0, 1), now, 'fr', FR)).toBe('Hier');
    expect(dayLabel(at(10, 23), now, 'fr', FR)).toBe("Aujourd'hui");
  });

  it('the weekday for 2 to 6 days ago, capitalised in French too', () => {
    expect(dayLabel(at(10, 21), now, 'en', EN)).toBe('Saturday');
    expect(dayLabel(at(10, 20), now, 'en', EN)).toBe('Friday');
    expect(dayLabel(at(10, 17), now, 'en', EN)).toBe('Tuesday');
    expect(dayLabel(at(10, 20), now, 'fr', FR)).toBe('Vendredi');
  });

  it('the date from 7 days ago: day and month this year, with the year before that', () => {
    expect(dayLabel(at(10, 16), now, 'en', EN)).toBe('Monday, November 16');
    expect(dayLabel(at(10, 16), now, 'fr', FR)).toBe('Lundi 16 novembre');
    expect(dayLabel(at(0, 2), now, 'en', EN)).toBe('Friday, January 2');
    expect(dayLabel(at(11, 31, 12, 2025), now, 'en', EN)).toBe('December 31, 2025');
    expect(dayLabel(at(11, 31, 12, 2025), now, 'fr', FR)).toBe('31 décembre 2025');
  });

  it('a day in the future (a clock ahead) shows its full date', () => {
    expect(dayLabel(at(10, 24), now, 'en', EN)).toBe('November 24, 2026');
  });

  it('counts calendar days across a month, a year and a daylight-saving change', () => {
    expect(calendarDaysBetween(at(9, 31), at(10, 1))).toBe(1);
    expect(calendarDaysBetween(at(11, 31, 12, 2025), at(0, 1))).toBe(1);
    expect(calendarDaysBetween(at(2, 28), at(2, 30))).toBe(2);
    expect(calendarDaysBetween(at(9, 24), at(9, 26))).toBe(2);
  });

  it('the next local midnight', () => {
    expect(msUntilNextDay(new Date(2026, 10, 23, 23, 59, 0))).toBe(60_000);
  });
});

describe('withDaySeparators', () => {
  const msg = (id: number, date: Date) => message(1, id, { created_at: date.toISOString() });
  const key = (m: { id: number }) => `id-${m.id}`;

  it('puts one separator before the first message of each local day', () => {
    const items = withDaySeparators([msg(1, new Date(2026, 10, 20, 19, 11)), msg(2, new Date(2026, 10, 20, 19, 40)), msg(3, new Date(2026, 10, 23, 8, 0)), msg(4, new Date(2026, 10, 23, 9, 0))], key);
    expect(items.map((i) => i.key)).toEqual([`day-${localDayKey(new Date(2026, 10, 20))}`, 'id-1', 'id-2', 'day-2026-11-23', 'id-3', 'id-4']);
    expect(items[0]).toMatchObject({ kind: 'day', date: new Date(2026, 10, 20) });
  });

  it('no separator for an empty thread; an unreadable date joins the day before it', () => {
    expect(withDaySeparators([], key)).toEqual([]);
    const items = withDaySeparators([msg(1, new Date(2026, 10, 20, 10)), message(1, 2, { created_at: 'not a date' })], key);
    expect(items.map((i) => i.kind)).toEqual(['day', 'message', 'message']);
  });
});
