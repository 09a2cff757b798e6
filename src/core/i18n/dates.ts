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

/**
 * Builds the formatters a page will need, each in a task of its own right after the current one, before its data
 * arrives: building the first of a language loads its calendar data (about 55-80 ms at 4x CPU, bench/bundle), which
 * would otherwise land in the render of the data. Not in idle moments: a page loading is seldom idle, and a profile
 * of the inbox showed its rooms rendered (and the formatter built inside that render) before any idle callback ran.
 */
export function prewarmDateFormats(locale: string | undefined, optionsList: readonly Intl.DateTimeFormatOptions[]): void {
  for (const options of optionsList) setTimeout(() => void dateTimeFormat(locale, options), 0);
}
