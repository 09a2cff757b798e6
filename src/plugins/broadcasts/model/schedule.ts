/**
 * Scheduling: the user picks a date and a time as a zone's clock shows them (companies have no
 * time zone setting: the browser's zone unless the user picks another); the API takes that
 * wall-clock time with the zone (contract BroadcastSchedule, zonedTimeToUtc). Built on Intl.
 */

/** The browser's zone, used when the company names none. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

export function isValidTimeZone(zone: string | null | undefined): zone is string {
  if (!zone) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The wall-clock parts of `instant` in `zone`. */
export function zonedParts(instant: Date, zone: string) {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(instant);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return { year: get('year'), month: get('month'), day: get('day'), hour: get('hour') % 24, minute: get('minute'), second: get('second') };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The date and time `zone`'s clock shows at `instant` (for defaults: now + a few minutes). */
export function wallClock(instant: Date, zone: string): { date: string; time: string } {
  const p = zonedParts(instant, zone);
  return { date: `${p.year}-${pad(p.month)}-${pad(p.day)}`, time: `${pad(p.hour)}:${pad(p.minute)}` };
}
