/**
 * Sending: a message or template shows at once (optimistic, with a client_id), is pushed on its room
 * channel, and is replaced by the server's copy; a failure keeps it as failed for a retry with the
 * same client_id, except a free-form text refused because WhatsApp's window is closed, which goes
 * back to the composer as the room's refusal.
 */
import { CHAT_EVENTS, type Message } from '../../../../contract/chats';
import { renderTemplateBody, WINDOW_CLOSED_REASON } from '../../../../contract/channels';
import type { AccountStore, RealtimeChannel } from '../../../core/apis';
import { userFullName } from '../../../core';
import { mergeMessages, newClientId, optimisticMessage, type ChatMessage } from '../model/messages';
import { withNewMessage } from '../model/rooms';
import { pushAsync, reasonOf, refusalText } from './channelPush';
import type { ChatConnection } from './connection';
import type { ChatStore } from './chatStore';
import type { ChatService, SendRefusal } from './types';
import type { UnreadTracking } from './unreadTracking';

export type MessageSending = Pick<ChatService, 'sendMessage' | 'retryMessage' | 'sendTemplate' | 'dismissRefusal'>;

function markLocal(list: ChatMessage[], clientId: string, status: 'pending' | 'failed', error: string | null = null): ChatMessage[] {
  return list.map((m) => (m.client_id === clientId && m.local ? { ...m, status, error } : m));
}

export function createMessageSending(deps: {
  store: ChatStore;
  connection: ChatConnection;
  unread: UnreadTracking;
  account: AccountStore;
  channelFor: (roomId: number) => RealtimeChannel;
}): MessageSending {
  const { store } = deps;

  function deliver(roomId: number, clientId: string) {
    const m = store.thread(roomId).messages.find((x) => x.client_id === clientId);
    if (!m) return;
    let channel: RealtimeChannel;
    try {
      channel = deps.channelFor(roomId);
    } catch {
      store.setThread(roomId, { messages: markLocal(store.thread(roomId).messages, clientId, 'failed') });
      return;
    }
    const current = deps.connection.currentRun();
    const template = m.type === 'template' ? (m.data as { template?: unknown } | null)?.template : undefined;
    const message = {
      text: m.text,
      type: m.type === 'text' ? 'text' : m.type,
      client_id: clientId,
      ...(m.media_url ? { media_url: m.media_url, media_type: m.media_type } : {}),
      ...(template ? { template } : {}),
    };
    pushAsync<{ message: Message }>(channel, CHAT_EVENTS.sendMessage, { message })
      .then((resp) => {
        if (!current() || !resp?.message) return;
        deps.unread.markSeen(roomId, resp.message.id);
        store.setThread(roomId, { messages: mergeMessages(store.thread(roomId).messages, [resp.message]) });
        const room = store.get().rooms[roomId];
        if (room) store.set({ rooms: { ...store.get().rooms, [roomId]: withNewMessage(room, resp.message) } });
      })
      .catch((err: Error & { response?: unknown }) => {
        if (!current()) return;
        const error = refusalText(err.response) ?? null;
        if (reasonOf(err.response) === WINDOW_CLOSED_REASON && m.type === 'text' && !m.media_url && m.text) {
          // Outside the 24-hour window a free-form text can never be delivered: back to the composer.
          const refusal: SendRefusal = { clientId, text: m.text, error: error ?? WINDOW_CLOSED_REASON };
          store.setThread(roomId, { messages: store.thread(roomId).messages.filter((x) => !(x.local && x.client_id === clientId)) });
          store.set({ refusals: { ...store.get().refusals, [roomId]: refusal } });
          return;
        }
        store.setThread(roomId, { messages: markLocal(store.thread(roomId).messages, clientId, 'failed', error) });
      });
  }

  function clearRefusal(roomId: number) {
    const refusals = { ...store.get().refusals };
    if (!refusals[roomId]) return;
    delete refusals[roomId];
    store.set({ refusals });
  }

  /** Shows an optimistic message at once and pushes it. */
  function sendOptimistic(roomId: number, patch: Partial<ChatMessage> & { text: string }): string {
    const clientId = newClientId();
    const user = deps.account.getUser();
    const m = optimisticMessage(roomId, patch.text, clientId, user ? userFullName(user) : null);
    Object.assign(m, patch);
    clearRefusal(roomId);
    store.setThread(roomId, { messages: mergeMessages(store.thread(roomId).messages, [m]) });
    deliver(roomId, clientId);
    return clientId;
  }

  return {
    sendMessage(roomId, text, media) {
      return sendOptimistic(roomId, media ? { text, type: media.kind, media_url: media.url, media_type: media.type } : { text });
    },
    retryMessage(roomId, clientId) {
      store.setThread(roomId, { messages: markLocal(store.thread(roomId).messages, clientId, 'pending') });
      deliver(roomId, clientId);
    },
    sendTemplate(roomId, template, parameters, media) {
      const params = parameters.map((p) => p.trim());
      const header = media?.header;
      return sendOptimistic(roomId, {
        type: 'template',
        text: renderTemplateBody(template, params),
        ...(header ? { media_url: header.url, media_type: header.mediaType ?? null } : {}),
        data: {
          template: {
            name: template.name,
            language: template.language,
            parameters: params,
            ...(header ? { header: { type: header.type } } : media?.headerText ? { header: { type: 'text', text: media.headerText } } : {}),
            ...(media?.cards ? { cards: media.cards } : {}),
            ...(media?.buttons?.length ? { buttons: media.buttons } : {}),
          },
        },
      });
    },
    dismissRefusal: clearRefusal,
  };
}
