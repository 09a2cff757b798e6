/** The segments resource (/segments): the contacts page's Segments tab (saved contact filters). */
import { mdiFilterVariant } from '@mdi/js';
import { mdiIconComponent } from '../../../core';
import { withContactsStrings } from '../withStrings';

export const SegmentIcon = mdiIconComponent(mdiFilterVariant);

export const segmentsResource = {
  name: 'segments',
  area: 'chats',
  list: withContactsStrings(() => import('./SegmentList').then((m) => m.SegmentList)),
  icon: SegmentIcon,
};
