/**
 * Business hours and the away message (issue #22): per company, the hours the team answers in, per
 * weekday (up to four intervals a day; no interval: closed that day), in an IANA time zone, and the
 * message a customer who writes outside them gets, once per conversation per closed period (unless a
 * flow or a bot answers that message). Shared by the server (server/plugins/hours) and the console
 * (src/plugins/account: the Business hours card).
 *
 *   GET /api/business-hours/                        BusinessHours (any member of the company)
 *   PUT /api/business-hours/  BusinessHoursBody     BusinessHours (manage access to the company's settings: your_account)
 *
 * Times are wall-clock times in the time zone ("HH:MM", close after open, "24:00" for midnight), so a
 * day's hours stay the same across daylight-saving changes: the local time is read through Intl.
 */
import { z } from 'zod';
import { isTimeZone } from './stats';

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export interface OpenInterval {
  open: string;
  close: string;
}

export type WeekHours = Record<Weekday, OpenInterval[]>;

export interface BusinessHours {
  enabled: boolean;
  time_zone: string;
  days: WeekHours;
  away_message: string;
  /** Whether the company is open now (false when business hours are off: nobody gets the away message then). */
  open_now: boolean;
}

export const MAX_INTERVALS_PER_DAY = 4;
export const AWAY_MESSAGE_MAX = 1000;

export const BUSINESS_HOURS_MESSAGES = {
  invalidTime: 'Enter a time as HH:MM.',
  closeBeforeOpen: 'The closing time must be after the opening time.',
  overlap: 'The hours of a day must not overlap.',
  tooMany: `Enter at most ${MAX_INTERVALS_PER_DAY} intervals a day.`,
  invalidTimeZone: 'Unknown time zone.',
  blank: 'This field may not be blank.',
  tooLong: `Ensure this field has no more than ${AWAY_MESSAGE_MAX} characters.`,
} as const;

/** The hours a company starts with: Monday to Friday 09:00–17:00, closed at the weekend, off. */
export function defaultBusinessHours(): Omit<BusinessHours, 'open_now'> {
  const weekday = () => [{ open: '09:00', close: '17:00' }];
  return {
    enabled: false,
    time_zone: 'UTC',
    days: { mon: weekday(), tue: weekday(), wed: weekday(), thu: weekday(), fri: weekday(), sat: [], sun: [] },
    away_message: 'Thanks for your message! We are closed right now and will answer as soon as we are back.',
  };
}

/** "HH:MM" → minutes since midnight ("24:00" → 1440); null when not a time. */
export function minutesOf(time: string): number | null {
  const m = typeof time === 'string' ? /^(\d{2}):(\d{2})$/.exec(time) : null;
  if (!m) return null;
  const h = Number(m[1]);
  const min = Number(m[2]);
  if (h === 24 && min === 0) return 1440;
  if (h > 23 || min > 59) return null;
  return h * 60 + min;
}

const time = z.string().refine((v) => minutesOf(v) !== null, BUSINESS_HOURS_MESSAGES.invalidTime);
const interval = z
  .object({ open: time, close: time })
  .refine((i) => !i || minutesOf(i.open) === null || minutesOf(i.close) === null || minutesOf(i.close)! > minutesOf(i.open)!, {
    message: BUSINESS_HOURS_MESSAGES.closeBeforeOpen,
    path: ['close'],
  });
const day = z
  .array(interval)
  .max(MAX_INTERVALS_PER_DAY, BUSINESS_HOURS_MESSAGES.tooMany)
  .superRefine((intervals, ctx) => {
    // Only what the element checks let through (the refinement may run beside a type problem; never a 500).
    const valid = (Array.isArray(intervals) ? intervals : [])
      .filter((i) => !!i && typeof i === 'object')
      .map((i) => ({ open: minutesOf(i.open), close: minutesOf(i.close) }))
      .filter((i): i is { open: number; close: number } => i.open !== null && i.close !== null && i.close > i.open)
      .sort((a, b) => a.open - b.open);
    for (let k = 1; k < valid.length; k++) {
      if (valid[k].open < valid[k - 1].close) {
        ctx.addIssue({ code: 'custom', message: BUSINESS_HOURS_MESSAGES.overlap });
        return;
      }
    }
  });

export const BusinessHoursBody = z
  .object({
    enabled: z.boolean(),
    time_zone: z.string().max(64).refine((v) => isTimeZone(v), BUSINESS_HOURS_MESSAGES.invalidTimeZone),
    days: z.object({ mon: day, tue: day, wed: day, thu: day, fri: day, sat: day, sun: day }),
    away_message: z.string().trim().max(AWAY_MESSAGE_MAX, BUSINESS_HOURS_MESSAGES.tooLong),
  })
  .superRefine((b, ctx) => {
    if (b.enabled === true && typeof b.away_message === 'string' && !b.away_message) ctx.addIssue({ code: 'custom', path: ['away_message'], message: BUSINESS_HOURS_MESSAGES.blank });
  });
export type BusinessHoursBody = z.infer<typeof BusinessHoursBody>;

/** The wall-clock date, weekday and minute of an instant in a time zone (Intl: daylight saving included). */
export function localTime(date: Date, timeZone: string): { date: string; weekday: number; minutes: number } {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    weekday: 'short',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(date);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const weekday = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].indexOf(get('weekday'));
  return { date: `${get('year')}-${get('month')}-${get('day')}`, weekday, minutes: Number(get('hour')) * 60 + Number(get('minute')) };
}

function daysBefore(date: string, n: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - n);
  return d.toISOString().slice(0, 10);
}

const pad = (n: number) => `${String(Math.floor(n / 60)).padStart(2, '0')}:${String(n % 60).padStart(2, '0')}`;

/**
 * Whether the hours are open at an instant, and when closed, the closed period's key: the local date
 * and time it began (the last closing time before now, e.g. "2026-03-27T18:00"), or "closed" when no day
 * has hours. The away message is sent once per conversation per key.
 */
export function hoursAt(hours: Pick<BusinessHours, 'time_zone' | 'days'>, at: Date): { open: boolean; period: string | null } {
  const now = localTime(at, hours.time_zone);
  const intervalsOf = (weekday: number) =>
    (hours.days[WEEKDAYS[((weekday % 7) + 7) % 7]] ?? []).map((i) => ({ open: minutesOf(i.open) ?? 0, close: minutesOf(i.close) ?? 0 }));
  if (intervalsOf(now.weekday).some((i) => i.open <= now.minutes && now.minutes < i.close)) return { open: true, period: null };
  for (let back = 0; back <= 7; back++) {
    const closes = intervalsOf(now.weekday - back)
      .map((i) => i.close)
      .filter((close) => back > 0 || close <= now.minutes);
    if (closes.length > 0) return { open: false, period: `${daysBefore(now.date, back)}T${pad(Math.max(...closes))}` };
  }
  return { open: false, period: 'closed' };
}
