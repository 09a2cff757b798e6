import { templateDialogTranslations } from './components/templateDialogTranslations';
import { translations } from './translations';

/** The inbox's strings and its template dialog's per locale, loaded with the chats page (index.ts). */
export const lazyTranslations = {
  en: { ...translations.en, ...templateDialogTranslations.en },
  fr: { ...translations.fr, ...templateDialogTranslations.fr },
};
