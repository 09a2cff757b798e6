import { lazy } from 'react';
import { mdiForumOutline } from '@mdi/js';
import { createPlugin, mdiIconComponent } from '../../core';
import { chatApiFactory, savedRepliesApiFactory } from './api';
import { translations } from './translations';
import { templateDialogTranslations } from './components/templateDialogTranslations';

const ChatsIcon = mdiIconComponent(mdiForumOutline);

/** The agents' live inbox: rooms across channels, realtime messages, tags, bot pause, block. */
export const chatsPlugin = createPlugin({
  id: 'chats',
  featureFlag: 'chats',
  apis: [chatApiFactory, savedRepliesApiFactory],
  routes: [{ path: '/chats/:roomId?', name: 'chats', area: 'chats', component: lazy(() => import('./ChatsPage')) }],
  menu: [{ to: '/chats', label: 'chats.menu', icon: ChatsIcon, area: 'chats', order: 10 }],
  translations: { en: { ...translations.en, ...templateDialogTranslations.en }, fr: { ...translations.fr, ...templateDialogTranslations.fr } },
});

export { chatApiRef, savedRepliesApiRef } from './api';
