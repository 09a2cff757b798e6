/**
 * Strings of the /channels page, keyed `channels.*`. Spec strings are verbatim in English
 * ('Facebook login was closed'). The WhatsApp onboarding keeps its own file
 * (./whatsappIntegration/translations), merged by the plugin.
 */
import en from './translations.en';
import fr from './translations.fr';

/** Both languages (tests, key parity); the console loads one file per language (../index.ts lazyTranslations). */
export const translations = { en, fr };
