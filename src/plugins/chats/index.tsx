import { mdiForumOutline } from '@mdi/js';
import { createPlugin, lazyPage, mdiIconComponent } from '../../core';
import { chatApiFactory, savedRepliesApiFactory } from './api';
import { prefetchInbox } from './prefetch';
import { shellTranslations } from './shellTranslations';

const ChatsIcon = mdiIconComponent(mdiForumOutline);

// Issue #22: the notification bell, in the app bar of every page (its own chunk: the shell stays light; the shell
// fetches it with the page it opens on, core's warmRoute).
const NotificationBellItem = lazyPage(() => import('./notifications/NotificationBell').then((m) => ({ default: m.NotificationBell })));

/** The agents' live inbox: rooms across channels, realtime messages, tags, bot pause, block. */
export const chatsPlugin = createPlugin({
  id: 'chats',
  featureFlag: 'chats',
  apis: [chatApiFactory, savedRepliesApiFactory],
  routes: [{ path: '/chats/:roomId?', name: 'chats', area: 'chats', translationsOf: ['contacts'], prefetch: prefetchInbox, component: lazyPage(() => import('./ChatsPage')) }],
  menu: [{ to: '/chats', label: 'chats.menu', icon: ChatsIcon, area: 'chats', order: 10 }],
  appBarItems: [{ id: 'chats.notifications', component: NotificationBellItem, area: 'chats', order: 10 }],
  translations: shellTranslations,
  lazyTranslations: {
    en: () => import('./lazyTranslations').then((m) => m.lazyTranslations.en),
    fr: () => import('./lazyTranslations').then((m) => m.lazyTranslations.fr),
  },
});

export { chatApiRef, savedRepliesApiRef } from './api';
export { UNASSIGNED_CHATS_PATH } from './model/urlFilter';
