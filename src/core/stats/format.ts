/**
 * Figures shown by both the stats page and the dashboard's cards. The duration words are the stats
 * plugin's strings (stats.units.*), which the dashboard route loads too (its translationsOf).
 */
import type { TFunction } from 'i18next';

export { browserTimeZone, useBrowserTimeZone } from './timeZone';

/** Seconds as a short duration in the user's language. */
export function duration(t: TFunction, seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return t('stats.none');
  const s = Math.round(seconds);
  if (s < 60) return t('stats.units.s', { n: s });
  const m = Math.round(s / 60);
  if (m < 60) return t('stats.units.min', { n: m });
  const h = Math.floor(m / 60);
  if (h < 24) return m % 60 ? t('stats.units.hmin', { h, m: m % 60 }) : t('stats.units.h', { n: h });
  const d = Math.floor(h / 24);
  return h % 24 ? t('stats.units.dh', { d, h: h % 24 }) : t('stats.units.d', { n: d });
}
