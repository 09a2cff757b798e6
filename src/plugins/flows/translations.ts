/**
 * Strings of the flows plugin, keyed `flows.*`. The spec's strings (§2 empty view via core, §8 alerts)
 * are verbatim in English; the error alert itself is composed by contract/flows.ts flowErrorMessage.
 */
import en from './translations.en';
import fr from './translations.fr';

/** Both languages (tests, key parity); the console loads one file per language (index.ts lazyTranslations). */
export const translations = { en, fr };
