/** Strings of the contacts plugin, keyed `contacts.*`. */
import en from './translations.en';
import fr from './translations.fr';

/** Both languages (tests, key parity); the console loads one file per language (index.ts lazyTranslations). */
export const translations = { en, fr };
