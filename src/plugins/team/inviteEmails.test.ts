import { describe, expect, it } from 'vitest';
import { isValidEmail, parseInviteEmails } from './inviteEmails';

describe('parseInviteEmails', () => {
  it('takes addresses one per line, or separated by commas, semicolons or spaces', () => {
    expect(parseInviteEmails('a@example.com\nb@example.com, c@example.com;d@example.com  e@example.com').valid).toEqual([
      'a@example.com',
      'b@example.com',
      'c@example.com',
      'd@example.com',
      'e@example.com',
    ]);
  });

  it('lower-cases, ignores blanks and keeps duplicates once', () => {
    expect(parseInviteEmails('  Ada@Example.com,\n\n ada@example.com ,, ').valid).toEqual(['ada@example.com']);
  });

  it("reports entries that fail the core's e-mail rule", () => {
    const parsed = parseInviteEmails('ok@example.com, not-an-email, also@bad, x@y.z');
    expect(parsed.valid).toEqual(['ok@example.com', 'x@y.z']);
    expect(parsed.invalid).toEqual(['not-an-email', 'also@bad']);
  });

  it('says when there are more addresses than one bulk invite takes', () => {
    const many = Array.from({ length: 3 }, (_v, i) => `p${i}@example.com`).join('\n');
    expect(parseInviteEmails(many, 2).tooMany).toBe(true);
    expect(parseInviteEmails(many, 3).tooMany).toBe(false);
  });

  it('is empty for empty text', () => {
    expect(parseInviteEmails('')).toEqual({ valid: [], invalid: [], tooMany: false });
  });

  it('uses the standard address pattern', () => {
    expect(isValidEmail('name@domain.co')).toBe(true);
    expect(isValidEmail('name@domain')).toBe(false);
    expect(isValidEmail('na me@domain.co')).toBe(false);
  });
});
