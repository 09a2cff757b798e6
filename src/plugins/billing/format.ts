/** Money, dates and limits as the billing pages show them, in the console's language. */

/** An amount in the currency's minor unit (Stripe's convention), e.g. 2900 usd → "$29.00" ("$29" when compact). */
export function formatMoney(minor: number, currency: string, locale: string, options: { compact?: boolean } = {}): string {
  const code = (currency || 'usd').toUpperCase();
  let digits: number;
  try {
    digits = new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return `${(minor / 100).toFixed(2)} ${code}`;
  }
  const value = minor / 10 ** digits;
  const whole = !!options.compact && Number.isInteger(value);
  return new Intl.NumberFormat(locale, { style: 'currency', currency: code, minimumFractionDigits: whole ? 0 : digits, maximumFractionDigits: digits }).format(value);
}

/** A date (ISO 8601) without its time, e.g. "Dec 24, 2026". */
export function formatDate(iso: string | null | undefined, locale: string): string {
  if (!iso) return '';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : date.toLocaleDateString(locale, { dateStyle: 'medium' } as Intl.DateTimeFormatOptions);
}

export function formatCount(n: number, locale: string): string {
  return new Intl.NumberFormat(locale).format(n);
}
