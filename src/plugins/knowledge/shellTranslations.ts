/** The knowledge plugin's strings the shell shows before its page opens (menu label). The rest: ./translations.ts. */
export const shellTranslations = {
  en: { knowledge: { menu: 'Knowledge' } },
  fr: { knowledge: { menu: 'Connaissances' } },
};
