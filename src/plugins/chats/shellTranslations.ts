/**
 * The chats plugin's strings the shell shows before any of its pages opens (menu label),
 * loaded with the shell (ConsolePlugin.translations). Every other string is in ./translations.ts, loaded with the plugin's pages.
 */
export const shellTranslations = {
  en: {
    chats: {
      menu: 'Chats',
    },
  },
  fr: {
    chats: {
      menu: 'Discussions',
    },
  },
};
