import { useSyncExternalStore } from 'react';
import { whenIdle } from '../scheduling/whenIdle';

const STORAGE_KEY = 'console.timeZone';
/**
 * How long after a load the remembered zone is checked against the browser's: well after the load's own work (the
 * check costs what it saves, about 100 ms at 4× CPU, unless the page has built a date formatter since).
 */
const CHECK_AFTER_MS = 30_000;

export interface TimeZoneSource {
  /** The zone the figures are counted in (an IANA name such as 'Europe/Paris'). */
  get(): string;
  subscribe(listener: () => void): () => void;
}

function readBrowserZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

function defaultLater(check: () => void): void {
  setTimeout(() => whenIdle(check), CHECK_AFTER_MS);
}

/**
 * The browser's time zone, remembered between loads. Reading it builds an `Intl.DateTimeFormat`, and the first one a
 * page builds loads the locale's calendar data: 96 ms of a /dashboard load at 4× CPU, in a task of its own, for a
 * page that formats no date (bench/bundle README). So a load uses the zone the last one read, and reads the browser's
 * again once the page is idle; a different zone (the user travelled) is stored and tells the listeners, whose
 * figures are then asked again in it. The first load of all reads it at once.
 */
export function createTimeZoneSource(options: { storage?: Storage | null; read?: () => string; later?: (check: () => void) => void } = {}): TimeZoneSource {
  const storage = options.storage === undefined ? (typeof localStorage !== 'undefined' ? localStorage : null) : options.storage;
  const read = options.read ?? readBrowserZone;
  const later = options.later ?? defaultLater;
  const listeners = new Set<() => void>();
  let zone: string | null = null;

  const remember = (value: string) => {
    try {
      storage?.setItem(STORAGE_KEY, value);
    } catch {
      // Storage full or refused: the zone is read again on the next load.
    }
  };
  const remembered = (): string | null => {
    try {
      return storage?.getItem(STORAGE_KEY) || null;
    } catch {
      return null;
    }
  };

  return {
    get() {
      if (zone !== null) return zone;
      const known = remembered();
      if (known === null) {
        zone = read();
        remember(zone);
        return zone;
      }
      zone = known;
      later(() => {
        const actual = read();
        if (actual === zone) return;
        zone = actual;
        remember(actual);
        listeners.forEach((listener) => listener());
      });
      return zone;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

const pageTimeZone = createTimeZoneSource();

/** The browser's time zone (days and hours are counted in it). */
export function browserTimeZone(): string {
  return pageTimeZone.get();
}

/** The browser's time zone, re-rendering if the remembered one turns out to have changed. */
export function useBrowserTimeZone(): string {
  return useSyncExternalStore(pageTimeZone.subscribe, pageTimeZone.get);
}
