/**
 * The chats plugin's strings the shell shows before any of its pages opens (menu label, the app bar's
 * notification bell), loaded with the shell (ConsolePlugin.translations). Every other string is in
 * ./translations.ts, loaded with the plugin's pages.
 */
import { notificationTranslations } from './notifications/notificationTranslations';

export const shellTranslations = {
  en: {
    chats: {
      menu: 'Chats',
      bell: notificationTranslations.en,
    },
  },
  fr: {
    chats: {
      menu: 'Discussions',
      bell: notificationTranslations.fr,
    },
  },
};
