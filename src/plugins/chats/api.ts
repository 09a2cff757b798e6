import { accountApiRef, alertApiRef, createApiFactory, createApiRef, httpApiRef, i18nApiRef, realtimeApiRef, sessionApiRef } from '../../core';
import { createChatService, type ChatService } from './service/chatService';
import { createSavedRepliesService, type SavedRepliesService } from './savedReplies/savedRepliesService';

/** The live inbox service (socket, channels, store). */
export const chatApiRef = createApiRef<ChatService>({ id: 'plugin.chats.service' });

export const chatApiFactory = createApiFactory({
  api: chatApiRef,
  deps: { realtime: realtimeApiRef, account: accountApiRef, alert: alertApiRef, http: httpApiRef, session: sessionApiRef, i18n: i18nApiRef },
  factory: ({ realtime, account, alert, http, session, i18n }) =>
    createChatService({ realtime, account, alert, http, session, translate: (key, options) => i18n.i18n.t(key, options) }),
});

/** The company's agent templates ("saved replies") for the composer. */
export const savedRepliesApiRef = createApiRef<SavedRepliesService>({ id: 'plugin.chats.savedReplies' });

export const savedRepliesApiFactory = createApiFactory({
  api: savedRepliesApiRef,
  deps: { http: httpApiRef, account: accountApiRef },
  factory: ({ http, account }) => createSavedRepliesService({ http, account }),
});
