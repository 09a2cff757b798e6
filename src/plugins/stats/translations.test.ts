import { describe, expect, it } from 'vitest';
import { translations } from './translations';

function keys(messages: object, prefix = ''): string[] {
  return Object.entries(messages).flatMap(([key, value]) => (typeof value === 'object' && value !== null ? keys(value, `${prefix}${key}.`) : [`${prefix}${key}`]));
}

describe('stats translations', () => {
  it('French has every English key, none empty', () => {
    expect(new Set(keys(translations.fr))).toEqual(new Set(keys(translations.en)));
    for (const lng of ['en', 'fr'] as const) {
      const flat = keys(translations[lng]);
      for (const k of flat) expect(k.split('.').reduce<any>((o, p) => o[p], translations[lng]), `${lng} ${k}`).toBeTruthy();
    }
  });
});
