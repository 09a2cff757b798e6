/**
 * The flows plugin's strings the shell shows before any of its pages opens (menu label),
 * loaded with the shell (ConsolePlugin.translations). Every other string is in ./translations.ts, loaded with the plugin's pages.
 */
export const shellTranslations = {
  en: {
    flows: {
      menu: 'Flows',
    },
  },
  fr: {
    flows: {
      menu: 'Parcours',
    },
  },
};
