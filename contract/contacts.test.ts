import { describe, expect, it } from 'vitest';
import { contactRecordMatches, phoneDigitsOf } from './contacts';

describe('phoneDigitsOf', () => {
  it('reads a phone number being typed, however grouped, from three digits on', () => {
    expect(phoneDigitsOf('+33 6 98')).toBe('33698');
    expect(phoneDigitsOf(' (415) 555-0100 ')).toBe('4155550100');
    expect(phoneDigitsOf('06.98.76')).toBe('069876');
    expect(phoneDigitsOf('415')).toBe('415');
  });

  it('is null for a name, an e-mail or too few digits', () => {
    expect(phoneDigitsOf('Room 12')).toBeNull();
    expect(phoneDigitsOf('a1b2c3')).toBeNull();
    expect(phoneDigitsOf('42')).toBeNull();
    expect(phoneDigitsOf('+ -')).toBeNull();
    expect(phoneDigitsOf('')).toBeNull();
  });
});

describe('contactRecordMatches', () => {
  const eve = { name: 'Eve Martin', external_id: '33698765432', phone: '+33698765432', email: 'Eve@Example.com' };
  const psid = { name: 'Bob', external_id: 'psid-ALI-7', phone: null, email: null };

  it('matches the name, the external id and the e-mail case-insensitively, the phone by its digits', () => {
    expect(contactRecordMatches(eve, 'martin')).toBe(true);
    expect(contactRecordMatches(eve, 'eve@example')).toBe(true);
    expect(contactRecordMatches(eve, '+33 6 98 76')).toBe(true);
    expect(contactRecordMatches(psid, 'ali-7')).toBe(true);
    expect(contactRecordMatches(psid, '')).toBe(true);
  });

  it('does not match what none of them holds', () => {
    expect(contactRecordMatches(eve, 'paris')).toBe(false);
    expect(contactRecordMatches(eve, '+44 20')).toBe(false);
    expect(contactRecordMatches(psid, '+33 6')).toBe(false);
  });
});
