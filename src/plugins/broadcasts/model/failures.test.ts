import { describe, expect, it } from 'vitest';
import i18next from 'i18next';
import { META_ERROR_WORDS } from '../../../../contract/broadcasts';
import { translations } from '../translations';
import { describeFailure, failureKey, KNOWN_META_ERRORS, OWN_REASONS } from './failures';

async function translator(lng: 'en' | 'fr') {
  const i18n = i18next.createInstance();
  await i18n.init({
    lng,
    resources: { [lng]: { translation: translations[lng] } },
    interpolation: { prefix: '%{', suffix: '}', escapeValue: false },
  });
  return i18n.t.bind(i18n) as (key: string, options?: Record<string, unknown>) => string;
}

describe('failure wording', () => {
  it('words Meta’s codes in plain English and French', async () => {
    const en = await translator('en');
    const fr = await translator('fr');
    expect(describeFailure({ code: 131048 }, en)).toBe('Meta limited this number because too many people blocked or reported its messages.');
    expect(describeFailure({ code: 131049 }, en)).toMatch(/marketing message/);
    expect(describeFailure({ code: '131050' }, en)).toBe('The customer has stopped marketing messages from this business.');
    expect(describeFailure({ code: 131026 }, fr)).toMatch(/^Le message n’a pas pu être distribué/);
    expect(describeFailure({ code: 131056 }, fr)).toMatch(/Trop de messages/);
    expect(describeFailure({ code: 130429 }, en)).toMatch(/speed limit/);
  });

  it('words our own reasons, and falls back to Meta’s title with its code', async () => {
    const en = await translator('en');
    expect(describeFailure({ reason: 'opted_out' }, en)).toBe('The customer asked not to receive broadcasts (opted out).');
    expect(describeFailure({ reason: 'Invalid Number' }, en)).toBe('Not a valid phone number.');
    expect(describeFailure({ reason: 'unknown' }, en)).toMatch(/not sent again/);
    expect(describeFailure({ code: 999999, title: 'Something odd' }, en)).toBe('Something odd (error 999999)');
    expect(describeFailure({ code: 999999 }, en)).toBe('Meta refused the message (error 999999).');
    expect(describeFailure({}, en)).toBe('The message could not be sent.');
    expect(failureKey({ code: 999999 })).toBeNull();
  });

  it('every worded code and reason has an English and a French sentence, and every code the contract words is ours too', () => {
    for (const lng of ['en', 'fr'] as const) {
      const meta = translations[lng].broadcasts.failure.meta as Record<string, string>;
      const own = translations[lng].broadcasts.failure.own as Record<string, string>;
      for (const code of KNOWN_META_ERRORS) expect(meta[String(code)], `${lng} ${code}`).toBeTruthy();
      for (const reason of OWN_REASONS) expect(own[reason], `${lng} ${reason}`).toBeTruthy();
    }
    for (const code of Object.keys(META_ERROR_WORDS)) expect(KNOWN_META_ERRORS as readonly number[]).toContain(Number(code));
  });
});
