import { describe, expect, it } from 'vitest';
import { translations as accountStrings } from '../../plugins/account/translations';
import { translations as dashboardStrings } from '../../plugins/dashboard/translations';
import { pageTranslations } from './translations';

/** Dotted keys of a nested message object, plural suffixes folded. */
function keys(messages: object, prefix = ''): string[] {
  return Object.entries(messages).flatMap(([key, value]) =>
    typeof value === 'object' && value !== null ? keys(value, `${prefix}${key}.`) : [`${prefix}${key.replace(/_(one|many|other)$/, '')}`],
  );
}

describe('translations', () => {
  it.each([
    ['pages', pageTranslations],
    ['dashboard', dashboardStrings],
    ['account', accountStrings],
  ])('%s: French has every English key', (_name, strings) => {
    expect(new Set(keys(strings.fr))).toEqual(new Set(keys(strings.en)));
  });

  it('keeps the spec strings verbatim', () => {
    const en = JSON.stringify([pageTranslations.en, dashboardStrings.en, accountStrings.en]);
    for (const text of ['No companies found.', 'Free plan', 'Create Company', 'Password reset successful', 'Password reset failed', 'Invalid email address', 'Password successful changed', 'Password update failed', 'Facebook login was closed']) {
      expect(en).toContain(JSON.stringify(text));
    }
  });
});
