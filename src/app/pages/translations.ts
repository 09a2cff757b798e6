import { en } from './i18n/en';
import { fr } from './i18n/fr';

/** Strings of the auth, sign-up and company pages, keyed `pages.*`, per locale. */
export const pageTranslations: Record<'en' | 'fr', object> = { en, fr };
