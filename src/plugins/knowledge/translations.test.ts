import { describe, expect, it } from 'vitest';
import { translations } from './translations';
import { shellTranslations } from './shellTranslations';

function keys(messages: object, prefix = ''): string[] {
  return Object.entries(messages).flatMap(([key, value]) => (typeof value === 'object' && value !== null ? keys(value, `${prefix}${key}.`) : [`${prefix}${key}`]));
}

describe('knowledge translations', () => {
  it('French has every English key, none empty (page and shell strings)', () => {
    for (const set of [translations, shellTranslations]) {
      expect(new Set(keys(set.fr))).toEqual(new Set(keys(set.en)));
      for (const lng of ['en', 'fr'] as const) {
        for (const k of keys(set[lng])) expect(k.split('.').reduce<any>((o, p) => o[p], set[lng]), `${lng} ${k}`).toBeTruthy();
      }
    }
  });
});
