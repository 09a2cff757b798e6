import { describe, expect, it } from 'vitest';
import { BROADCAST_STATUSES, EXCLUSION_REASONS, RECIPIENT_STATES } from '../../../contract/broadcasts';
import { translations } from './translations';

function keys(messages: object, prefix = ''): string[] {
  return Object.entries(messages).flatMap(([key, value]) =>
    typeof value === 'object' && value !== null ? keys(value, `${prefix}${key}.`) : [`${prefix}${key.replace(/_(one|many|other)$/, '')}`],
  );
}

describe('broadcasts translations', () => {
  it('French has every English key', () => {
    expect(new Set(keys(translations.fr))).toEqual(new Set(keys(translations.en)));
  });

  it('words every broadcast status, recipient state and exclusion reason of the contract', () => {
    for (const lng of ['en', 'fr'] as const) {
      const b = translations[lng].broadcasts;
      for (const s of BROADCAST_STATUSES) expect(b.status[s], `${lng} status ${s}`).toBeTruthy();
      for (const s of RECIPIENT_STATES) expect(b.recipientState[s], `${lng} state ${s}`).toBeTruthy();
      for (const r of EXCLUSION_REASONS) expect(b.review.reasons[r], `${lng} reason ${r}`).toContain('%{count}');
    }
  });
});
