import { describe, expect, it } from 'vitest';
import { templateDialogTranslations } from './templateDialogTranslations';

function keys(messages: object, prefix = ''): string[] {
  return Object.entries(messages).flatMap(([key, value]) =>
    typeof value === 'object' && value !== null ? keys(value, `${prefix}${key}.`) : [`${prefix}${key.replace(/_(one|many|other)$/, '')}`],
  );
}

describe('inbox template dialog translations', () => {
  it('French has every English key', () => {
    expect(new Set(keys(templateDialogTranslations.fr))).toEqual(new Set(keys(templateDialogTranslations.en)));
  });
});
