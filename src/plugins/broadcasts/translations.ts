/**
 * Strings of the broadcasts plugin, keyed `broadcasts.*`, plus react-admin's `resources.broadcasts`
 * field labels. English and French. Meta's error codes are worded for people (failure.meta.*).
 */
import en from './translations.en';
import fr from './translations.fr';

/** Both languages (tests, key parity); the console loads one file per language (index.ts lazyTranslations). */
export const translations = { en, fr };
