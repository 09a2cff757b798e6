/**
 * Dates in the user's language through one `Intl.DateTimeFormat` per language and options.
 *
 * `Date.prototype.toLocaleString(locale, options)` builds a new formatter on every call (it resolves the locale
 * data each time): in the inbox's room list, one per row and render, that was 84 ms of a phone's first load
 * (bench/bundle, issue #26). The same output, the formatter kept.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

/** The kept formatter for a language and options (the options' key order does not matter). */
export function dateTimeFormat(locale: string | undefined, options: Intl.DateTimeFormatOptions = {}): Intl.DateTimeFormat {
  const key = `${locale ?? ''}|${JSON.stringify(Object.entries(options).sort(([a], [b]) => (a < b ? -1 : 1)))}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(locale, options);
    formatters.set(key, formatter);
  }
  return formatter;
}

/**
 * A date (or an ISO string) as `toLocaleString(locale, options)` writes it when the options name a date or time field
 * (with none, the date alone, as `toLocaleDateString`); '' for no date or an invalid one.
 */
export function formatDate(value: Date | string | number | null | undefined, locale: string | undefined, options: Intl.DateTimeFormatOptions): string {
  if (value === null || value === undefined || value === '') return '';
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? '' : dateTimeFormat(locale, options).format(date);
}

type IdleWindow = { requestIdleCallback?: (callback: () => void, options?: { timeout: number }) => number };

/**
 * Builds the formatters a page will need, one per idle moment, before its data arrives: building the first of a
 * language loads its calendar data (about 80 ms on a phone, bench/bundle), which would otherwise land in the render of
 * the data.
 */
export function prewarmDateFormats(locale: string | undefined, optionsList: readonly Intl.DateTimeFormatOptions[]): void {
  const idle = (globalThis as IdleWindow).requestIdleCallback;
  for (const options of optionsList) {
    const build = () => void dateTimeFormat(locale, options);
    if (idle) idle(build, { timeout: 2_000 });
    else setTimeout(build, 0);
  }
}
