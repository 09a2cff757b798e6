/**
 * Strings of the team plugin, keyed `team.*` and `permissions.*`, plus react-admin's
 * `resources.members` / `resources.invites` names and field labels. Spec strings are verbatim in English.
 */
import en from './translations.en';
import fr from './translations.fr';

/** Both languages (tests, key parity); the console loads one file per language (index.ts lazyTranslations). */
export const translations = { en, fr };
