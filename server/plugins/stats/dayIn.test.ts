import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dayIn } from './service';

/** The day as ICU says it, with a formatter of its own each time (what dayIn answered before it kept its last day). */
const fresh = (date: Date, tz: string) => new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).format(date);

/** The zone's offset from UTC at an instant, in minutes ("GMT+05:45" → 345). */
function offsetMinutes(tz: string, at: number): number {
  const name = new Intl.DateTimeFormat('en', { timeZone: tz, timeZoneName: 'longOffset' }).formatToParts(new Date(at)).find((p) => p.type === 'timeZoneName')!.value;
  const match = /GMT([+-])(\d\d):(\d\d)/.exec(name);
  return match ? (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3])) : 0;
}

const ZONES = ['UTC', 'Europe/Paris', 'America/New_York', 'America/St_Johns', 'Asia/Kolkata', 'Asia/Kathmandu', 'Australia/Lord_Howe', 'Pacific/Chatham', 'Pacific/Kiritimati', 'Pacific/Pago_Pago'];
const DAY = 86_400_000;
const FIRST_DAY = Date.UTC(1972, 0, 2) / DAY;
const LAST_DAY = Date.UTC(2099, 11, 30) / DAY;

describe('dayIn', () => {
  it("answers the day ICU gives on walks of a few minutes around a zone's midnight, the same minute asked again included", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.integer({ min: FIRST_DAY, max: LAST_DAY }),
        fc.integer({ min: -150_000, max: 150_000 }),
        fc.array(fc.integer({ min: -90_000, max: 90_000 }), { minLength: 1, maxLength: 30 }),
        (zone, day, start, steps) => {
          // The zone's midnight of that day, in UTC, then a walk of short steps across it and back.
          let at = day * DAY - offsetMinutes(zone, day * DAY) * 60_000 + start;
          for (const step of [0, ...steps]) {
            at += step;
            expect(dayIn(new Date(at), zone)).toBe(fresh(new Date(at), zone));
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('answers the day ICU gives for instants anywhere, in any order of zones', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom(...ZONES), fc.integer({ min: FIRST_DAY * DAY, max: LAST_DAY * DAY })), { minLength: 1, maxLength: 30 }), (asks) => {
        for (const [zone, at] of asks) expect(dayIn(new Date(at), zone)).toBe(fresh(new Date(at), zone));
      }),
      { numRuns: 200 },
    );
  });

  it('turns the day at local midnight, to the millisecond, in zones of whole, half and quarter hours', () => {
    for (const [zone, midnightUtc] of [
      ['UTC', Date.UTC(2026, 11, 3, 0, 0)],
      ['Asia/Kolkata', Date.UTC(2026, 11, 2, 18, 30)],
      ['Asia/Kathmandu', Date.UTC(2026, 11, 2, 18, 15)],
      ['America/St_Johns', Date.UTC(2026, 11, 3, 3, 30)],
    ] as const) {
      expect(dayIn(new Date(midnightUtc - 1), zone), zone).toBe('2026-12-02');
      expect(dayIn(new Date(midnightUtc), zone), zone).toBe('2026-12-03');
      expect(dayIn(new Date(midnightUtc - 1), zone), zone).toBe('2026-12-02');
    }
  });
});
