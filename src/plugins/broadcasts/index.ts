import { lazy } from 'react';
import { mdiBullhornOutline } from '@mdi/js';
import { accountApiRef, createPlugin, mdiIconComponent } from '../../core';
import { liveBroadcastsApiFactory } from './api';
import { clearAllDrafts } from './model/draft';
import { translations } from './translations';

const BroadcastIcon = mdiIconComponent(mdiBullhornOutline);

/** Route feature requirement of every broadcast page (spec §2: triggers). */
const triggers = { key: 'triggers' };

/**
 * Broadcasts (issue #11): the list with live progress (/broadcast), the type choice
 * (/broadcast/broadcast-type), the stepper (/broadcast/create-broadcast/{type}) and a broadcast's
 * page (/broadcast/{id}). Sign-out clears the stepper's drafts and the live state (spec §4).
 */
export const broadcastsPlugin = createPlugin({
  id: 'broadcasts',
  featureFlag: 'triggers',
  apis: [liveBroadcastsApiFactory],
  resources: [{ name: 'broadcasts', area: 'triggers' }],
  routes: [
    { path: '/broadcast', name: 'broadcast', area: 'triggers', feature: triggers, component: lazy(() => import('./BroadcastsPage')) },
    { path: '/broadcast/broadcast-type', name: 'broadcast-type', area: 'triggers', feature: triggers, component: lazy(() => import('./BroadcastTypePage')) },
    {
      path: '/broadcast/create-broadcast/:type',
      name: 'create-broadcast',
      area: 'triggers',
      feature: triggers,
      component: lazy(() => import('./CreateBroadcastPage')),
    },
    { path: '/broadcast/:id', name: 'broadcast-detail', area: 'triggers', feature: triggers, component: lazy(() => import('./BroadcastDetailPage')) },
  ],
  menu: [{ to: '/broadcast', label: 'broadcasts.menu', icon: BroadcastIcon, area: 'triggers', order: 40 }],
  translations,
  onInit(get) {
    get(accountApiRef).subscribe((event) => {
      if (event === 'signedOut') clearAllDrafts();
    });
  },
});
