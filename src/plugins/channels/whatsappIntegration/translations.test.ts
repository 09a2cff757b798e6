import { describe, expect, it } from 'vitest';
import { SIGNUP_STEPS } from '../../../../contract/channels';
import { whatsappIntegrationTranslations } from './translations';

function keys(messages: object, prefix = ''): string[] {
  return Object.entries(messages).flatMap(([key, value]) =>
    typeof value === 'object' && value !== null ? keys(value, `${prefix}${key}.`) : [`${prefix}${key}`],
  );
}

describe('WhatsApp integration translations', () => {
  it('French has every English key, under a top-level key of its own', () => {
    expect(Object.keys(whatsappIntegrationTranslations.en)).toEqual(['whatsappIntegration']);
    expect(new Set(keys(whatsappIntegrationTranslations.fr))).toEqual(new Set(keys(whatsappIntegrationTranslations.en)));
  });

  it("keeps the spec string 'Facebook login was closed' verbatim", () => {
    expect(whatsappIntegrationTranslations.en.whatsappIntegration.start.facebookClosed).toBe('Facebook login was closed');
  });

  it('labels every server step', () => {
    for (const step of SIGNUP_STEPS) {
      expect(whatsappIntegrationTranslations.en.whatsappIntegration.steps[step]).toBeTruthy();
      expect(whatsappIntegrationTranslations.fr.whatsappIntegration.steps[step]).toBeTruthy();
    }
  });
});
