import { describe, expect, it } from 'vitest';
import { shellTranslations } from './shellTranslations';
import { translations } from './translations';

function keys(messages: object, prefix = ''): string[] {
  return Object.entries(messages).flatMap(([key, value]) =>
    typeof value === 'object' && value !== null ? keys(value, `${prefix}${key}.`) : [`${prefix}${key.replace(/_(one|many|other)$/, '')}`],
  );
}

describe('channels translations', () => {
  it('French has every English key', () => {
    expect(new Set(keys(translations.fr))).toEqual(new Set(keys(translations.en)));
  });

  it('keeps the spec strings verbatim and the menu label under channels.menu', () => {
    expect(translations.en.channels.connect.loginClosed).toBe('Facebook login was closed');
    expect(shellTranslations.en.channels.menu).toBe('Channels'); // loaded with the shell (the menu)
    expect(shellTranslations.fr.channels.menu).toBeTruthy();
  });
});
