/**
 * Strings of the WhatsApp onboarding (/whatsapp-integration/*), keyed `whatsappIntegration.*`
 * (a top-level key of its own: the plugin merges translation files per locale, shallowly).
 * Spec strings are verbatim in English ('Facebook login was closed').
 */
import en from './translations.en';
import fr from './translations.fr';

/** Both languages (tests, key parity); the console loads one file per language (../index.ts lazyTranslations). */
export const whatsappIntegrationTranslations = { en, fr };
