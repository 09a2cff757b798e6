import { accountApiRef, alertApiRef, createApiFactory, createApiRef, httpApiRef, i18nApiRef, realtimeApiRef } from '../../core';
import { createChatService, type ChatService } from './service/chatService';

/** The live inbox service (socket, channels, store). */
export const chatApiRef = createApiRef<ChatService>({ id: 'plugin.chats.service' });

export const chatApiFactory = createApiFactory({
  api: chatApiRef,
  deps: { realtime: realtimeApiRef, account: accountApiRef, alert: alertApiRef, http: httpApiRef, i18n: i18nApiRef },
  factory: ({ realtime, account, alert, http, i18n }) =>
    createChatService({ realtime, account, alert, http, translate: (key, options) => i18n.i18n.t(key, options) }),
});
