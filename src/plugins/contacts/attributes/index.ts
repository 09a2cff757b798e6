/** The contact attributes resource (/contact-attributes): the contacts page's Attributes tab. */
import { mdiFormTextbox } from '@mdi/js';
import { mdiIconComponent } from '../../../core';
import { withContactsStrings } from '../withStrings';

export const AttributeIcon = mdiIconComponent(mdiFormTextbox);

export const contactAttributesResource = {
  name: 'contact-attributes',
  area: 'chats',
  list: withContactsStrings(() => import('./AttributeList').then((m) => m.AttributeList)),
  icon: AttributeIcon,
};
