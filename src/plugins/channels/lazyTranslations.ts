import { translations } from './translations';
import { whatsappIntegrationTranslations } from './whatsappIntegration/translations';

/** The channels page's and the WhatsApp onboarding's strings, both languages (tests: renderPluginPage); the console loads one language at a time (index.ts). */
export const lazyTranslations = {
  en: { ...translations.en, ...whatsappIntegrationTranslations.en },
  fr: { ...translations.fr, ...whatsappIntegrationTranslations.fr },
};
