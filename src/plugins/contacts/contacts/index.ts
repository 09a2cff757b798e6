/** The contacts resource (/contacts): react-admin's list, show, edit and create views (each loaded when first shown) and its icon. */
import { mdiAccountBoxMultipleOutline } from '@mdi/js';
import { mdiIconComponent } from '../../../core';
import { withContactsStrings } from '../withStrings';

export const ContactIcon = mdiIconComponent(mdiAccountBoxMultipleOutline);

export const contactsResource = {
  name: 'contacts',
  area: 'chats',
  list: withContactsStrings(() => import('./ContactList').then((m) => m.ContactList)),
  show: withContactsStrings(() => import('./ContactShow').then((m) => m.ContactShow)),
  edit: withContactsStrings(() => import('./ContactEdit').then((m) => m.ContactEdit)),
  create: withContactsStrings(() => import('./ContactCreate').then((m) => m.ContactCreate)),
  icon: ContactIcon,
};
