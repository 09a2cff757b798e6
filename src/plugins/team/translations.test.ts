import { describe, expect, it } from 'vitest';
import { PERMISSION_AREAS } from '../../../contract/permissions';
import { translations } from './translations';

function keys(messages: object, prefix = ''): string[] {
  return Object.entries(messages).flatMap(([key, value]) =>
    typeof value === 'object' && value !== null ? keys(value, `${prefix}${key}.`) : [`${prefix}${key.replace(/_(one|many|other)$/, '')}`],
  );
}

describe('team translations', () => {
  it('French has every English key', () => {
    expect(new Set(keys(translations.fr))).toEqual(new Set(keys(translations.en)));
  });

  it('keeps the spec strings verbatim', () => {
    const en = JSON.stringify(translations.en);
    for (const text of [
      'Error %{status}: occured while updating member role(%{status})',
      'Success : Member role has been updated!',
      'Invites successfully sent',
      'Member successfully removed',
    ]) {
      expect(en).toContain(JSON.stringify(text));
    }
  });

  it('names every permission area', () => {
    for (const area of PERMISSION_AREAS) {
      expect(translations.en.permissions.areas[area]).toBeTruthy();
      expect(translations.fr.permissions.areas[area]).toBeTruthy();
    }
  });
});
