import { describe, expect, it } from 'vitest';
import { IMPORT_SKIP_REASONS, IMPORT_STATES } from '../../../contract/contactImports';
import { CONTACT_ATTRIBUTE_TYPES } from '../../../contract/contacts';
import { shellTranslations } from './shellTranslations';
import { translations } from './translations';

function keys(messages: object, prefix = ''): string[] {
  return Object.entries(messages).flatMap(([key, value]) => (typeof value === 'object' && value !== null ? keys(value, `${prefix}${key}.`) : [`${prefix}${key}`]));
}

describe('contacts translations', () => {
  it('French has every English key, in the lazy and the shell strings', () => {
    expect(new Set(keys(translations.fr))).toEqual(new Set(keys(translations.en)));
    expect(new Set(keys(shellTranslations.fr))).toEqual(new Set(keys(shellTranslations.en)));
  });

  it('names every attribute type', () => {
    expect(Object.keys(translations.en.contacts.attributes.types).sort()).toEqual([...CONTACT_ATTRIBUTE_TYPES].sort());
  });

  it('names every import skip reason and state', () => {
    expect(Object.keys(translations.en.contacts.import.reasons).sort()).toEqual([...IMPORT_SKIP_REASONS].sort());
    expect(Object.keys(translations.en.contacts.import.states).sort()).toEqual([...IMPORT_STATES].sort());
  });
});
