import { mdiBullhornOutline } from '@mdi/js';
import { accountApiRef, createPlugin, lazyPage, mdiIconComponent } from '../../core';
import { liveBroadcastsApiFactory } from './api';
import { clearAllDrafts } from './model/draft';
import { shellTranslations } from './shellTranslations';

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
    { path: '/broadcast', name: 'broadcast', area: 'triggers', feature: triggers, component: lazyPage(() => import('./BroadcastsPage')) },
    { path: '/broadcast/broadcast-type', name: 'broadcast-type', area: 'triggers', feature: triggers, component: lazyPage(() => import('./BroadcastTypePage')) },
    {
      path: '/broadcast/create-broadcast/:type',
      name: 'create-broadcast',
      area: 'triggers',
      feature: triggers,
      // The content and review steps show the templates' phone preview (its strings).
      translationsOf: ['templates'],
      component: lazyPage(() => import('./CreateBroadcastPage')),
    },
    { path: '/broadcast/:id', name: 'broadcast-detail', area: 'triggers', feature: triggers, component: lazyPage(() => import('./BroadcastDetailPage')) },
  ],
  menu: [{ to: '/broadcast', label: 'broadcasts.menu', icon: BroadcastIcon, area: 'triggers', order: 40 }],
  translations: shellTranslations,
  lazyTranslations: {
    en: () => import('./translations.en').then((m) => m.default),
    fr: () => import('./translations.fr').then((m) => m.default),
  },
  onInit(get) {
    get(accountApiRef).subscribe((event) => {
      if (event === 'signedOut') clearAllDrafts();
    });
  },
});
