import { email } from '../../core';
import { MAX_BULK_INVITES } from '../../../contract/team';

export interface ParsedInviteEmails {
  /** Distinct, lower-cased addresses that pass the core's e-mail rule, in the order typed. */
  valid: string[];
  /** Entries that fail the e-mail rule, as typed. */
  invalid: string[];
  /** More valid addresses than one bulk invite takes. */
  tooMany: boolean;
}

const emailRule = email();

/** True when `value` passes the core's e-mail validator (spec §5 address pattern). */
export function isValidEmail(value: string): boolean {
  return emailRule(value, {}, {}) === undefined;
}

/**
 * Reads the invite dialog's text: addresses one per line or separated by commas, semicolons or
 * spaces; blanks are ignored and duplicates (case-insensitive) kept once.
 */
export function parseInviteEmails(text: string, max: number = MAX_BULK_INVITES): ParsedInviteEmails {
  const valid: string[] = [];
  const invalid: string[] = [];
  for (const raw of text.split(/[\s,;]+/)) {
    const entry = raw.trim();
    if (!entry) continue;
    if (isValidEmail(entry)) {
      const address = entry.toLowerCase();
      if (!valid.includes(address)) valid.push(address);
    } else if (!invalid.includes(entry)) {
      invalid.push(entry);
    }
  }
  return { valid, invalid, tooMany: valid.length > max };
}
