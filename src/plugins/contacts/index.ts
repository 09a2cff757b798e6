import { createPlugin } from '../../core';
import { contactAttributesResource } from './attributes';
import { ContactIcon, contactsResource } from './contacts';
import { segmentsResource } from './segments';
import { shellTranslations } from './shellTranslations';

/**
 * Contacts (issue #23): the customer record. The contacts page is two react-admin resources, the
 * contacts (/contacts: list, show, edit, create) and their attribute definitions (/contact-attributes,
 * the page's Attributes tab) and their saved filters (/segments, the Segments tab), in the `chats` permission area behind the `contacts` feature key. The inbox
 * shows a room's contact beside the thread through ContactPanelSlot.
 */
export const contactsPlugin = createPlugin({
  id: 'contacts',
  featureFlag: 'contacts',
  resources: [contactsResource, contactAttributesResource, segmentsResource],
  menu: [{ to: '/contacts', label: 'contacts.menu', icon: ContactIcon, area: 'chats', order: 15 }],
  translations: shellTranslations,
  lazyTranslations: {
    en: () => import('./translations.en').then((m) => m.default),
    fr: () => import('./translations.fr').then((m) => m.default),
  },
});

export { ContactPanelSlot } from './ContactPanelSlot';
