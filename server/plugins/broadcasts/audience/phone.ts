/**
 * Phone numbers to E.164 with libphonenumber-js. WhatsApp numbers are international: a number
 * without '+' is read as digits with their country code (14155550123, 0033…, 00 44…), as Meta's
 * wa_id is. A number must be valid for its country (length and leading digits), not only possible.
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js';

/** E.164 (`+14155550123`) or null when the value is not a valid phone number. */
export function toE164(value: string): string | null {
  const trimmed = value.trim();
  if (!trimmed || trimmed.length > 40) return null;
  // Only digits, one leading '+' and the usual separators (a letter means it is not a number).
  if (!/^[\d\s().\-/+]+$/.test(trimmed)) return null;
  let v = trimmed.replace(/[\s().\-/]/g, '');
  if (!/^\+?\d+$/.test(v)) return null;
  // Spreadsheets often drop the '+' or write the international prefix 00.
  v = v.replace(/^00/, '+');
  if (!v.startsWith('+')) v = `+${v}`;
  const parsed = parsePhoneNumberFromString(v);
  if (!parsed || !parsed.isValid()) return null;
  return parsed.number;
}

/** Meta's `to` / wa_id: the E.164 digits without '+'. */
export function waIdOf(e164: string): string {
  return e164.replace(/^\+/, '');
}
