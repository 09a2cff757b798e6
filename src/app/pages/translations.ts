import { en } from './i18n/en';
import { fr } from './i18n/fr';
import { sandboxEn, sandboxFr } from './sandbox/i18n';

/** Strings of the auth, sign-up, company and sandbox simulator pages, keyed `pages.*`, per locale. */
export const pageTranslations: Record<'en' | 'fr', object> = {
  en: { ...en, pages: { ...en.pages, sandbox: sandboxEn } },
  fr: { ...fr, pages: { ...fr.pages, sandbox: sandboxFr } },
};
