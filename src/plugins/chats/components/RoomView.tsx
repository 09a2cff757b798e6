import { lazy, useCallback, useMemo, useRef, useState } from 'react';
import { Alert, Box } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { Tag } from '../../../../contract/chats';
import type { MessageTemplate } from '../../../../contract/channels';
import { useAccess, useAccount, useAlert } from '../../../core';
import { useChatService, useChatState } from '../hooks';
import type { TemplateMedia } from '../service/chatService';
import { Composer } from './Composer';
import { MessageList, type MessageListHandle } from './MessageList';
import { RoomHeader } from './RoomHeader';
import { WhenOpened } from './WhenOpened';
import { FocusedMessageContext } from './NoteBubble';
import { useMessageFocus } from './useMessageFocus';

const TemplateDialog = lazy(() => import('./TemplateDialog').then((m) => ({ default: m.TemplateDialog })));

const NO_VIEWERS: never[] = [];

/** /chats/{roomId}: header, virtualised messages, composer. */
export function RoomView({ roomId, tagOptions, canEditTags, readOnly = false, onBack, composerRef }: {
  roomId: number;
  tagOptions: Tag[];
  canEditTags: boolean;
  /** Without "manage chats" (issue #22): the thread only, and one line saying who can reply. */
  readOnly?: boolean;
  onBack?: () => void;
  composerRef?: React.Ref<HTMLTextAreaElement>;
}) {
  const { t } = useTranslation();
  const alert = useAlert();
  const service = useChatService();
  const { user } = useAccount();
  // The copilot's routes need chats' manage (the server also checks the member may open this room).
  const { canManage } = useAccess('chats');
  const me = useMemo(() => (user ? { id: user.id, first_name: user.first_name, email: user.email } : null), [user]);
  const room = useChatState((s) => s.rooms[roomId]);
  const thread = useChatState((s) => s.threads[roomId]);
  const pages = useChatState((s) => s.pages);
  const viewers = useChatState((s) => s.viewers[roomId]) ?? NO_VIEWERS;
  const attachments = useChatState((s) => s.attachments);
  const refusal = useChatState((s) => s.refusals[roomId]);
  const list = useRef<MessageListHandle>(null);
  const [templatesOpen, setTemplatesOpen] = useState(false);
  // Issue #22: ?message= opens the room at that message; notes are written beside replies.
  const focusedMessage = useMessageFocus(roomId, thread, service);
  // Once the message asked for is in the thread, the list is mounted afresh, opened at it (see useMessageFocus).
  const openAt = focusedMessage !== null && thread?.messages.some((m) => m.id === focusedMessage) ? focusedMessage : null;
  const onNote = useCallback((text: string) => void service.addNote(roomId, text).then(() => requestAnimationFrame(() => list.current?.scrollToBottom())), [service, roomId]);

  const onSuggest = useCallback(() => service.suggestReply(roomId), [service, roomId]);
  const onSummarise = useCallback(() => service.summarise(roomId).then(() => requestAnimationFrame(() => list.current?.scrollToBottom())), [service, roomId]);
  const onLoadOlder = useCallback(() => void service.loadOlder(roomId), [service, roomId]);
  const onRetry = useCallback((clientId: string) => service.retryMessage(roomId, clientId), [service, roomId]);
  const onMediaError = useCallback((messageId: number) => void service.refreshMedia(roomId, messageId), [service, roomId]);
  const onSend = useCallback(
    (text: string) => {
      service.sendMessage(roomId, text);
      requestAnimationFrame(() => list.current?.scrollToBottom());
    },
    [service, roomId],
  );
  const onTemplate = useCallback(() => setTemplatesOpen(true), []);
  const onDismissRefusal = useCallback(() => service.dismissRefusal(roomId), [service, roomId]);
  const onSendTemplate = useCallback(
    (template: MessageTemplate, parameters: string[], media?: TemplateMedia) => {
      service.sendTemplate(roomId, template, parameters, media);
      setTemplatesOpen(false);
      requestAnimationFrame(() => list.current?.scrollToBottom());
    },
    [service, roomId],
  );
  const onAttach = useCallback(
    async (file: File) => {
      try {
        await service.sendAttachment(roomId, file);
      } catch {
        alert.error(t('chats.errors.upload'));
      }
    },
    [service, roomId, alert, t],
  );

  if (!room) return null;
  return (
    <Box data-testid="room-view" sx={{ display: 'flex', flexDirection: 'column', height: '100%', minWidth: 0, bgcolor: 'background.default' }}>
      <RoomHeader
        room={room}
        pages={pages}
        viewers={viewers}
        tagOptions={tagOptions}
        canEditTags={canEditTags}
        readOnly={readOnly}
        onBack={onBack}
        onTogglePause={(days) => void service.togglePause(roomId, days)}
        onBlock={(blocked) => void service.setBlocked(roomId, blocked)}
        onAddTag={(name) => void service.addTag(roomId, name)}
        onRemoveTag={(name) => void service.removeTag(roomId, name)}
        conversation={{ me, onUpdate: (body) => void service.updateRoom(roomId, body) }}
      />
      <FocusedMessageContext.Provider value={focusedMessage}>
        <MessageList key={`${roomId}:${openAt ?? ''}`} ref={list} historyLoaded={!!thread?.loaded} messages={thread?.messages ?? []} hasMore={!!thread?.hasMore} loadingOlder={!!thread?.loadingOlder} onLoadOlder={onLoadOlder} onRetry={onRetry} onMediaError={onMediaError} openAtMessageId={openAt} />
      </FocusedMessageContext.Provider>
      {room.blocked_at && (
        <Alert severity="warning" sx={{ borderRadius: 0 }}>
          {t('chats.room.blockedNotice')}
        </Alert>
      )}
      {readOnly ? (
        <Alert severity="info" data-testid="read-only-inbox" sx={{ borderRadius: 0 }}>
          {t('chats.room.readOnly')}
        </Alert>
      ) : (
      <Composer
        key={roomId}
        inputRef={composerRef}
        focusOnOpen
        disabled={!!room.blocked_at}
        attachments={attachments}
        onSend={onSend}
        onNote={onNote}
        onAttach={onAttach}
        room={room}
        onTemplate={room.platform === 'whatsapp' ? onTemplate : undefined}
        refusal={refusal}
        onDismissRefusal={onDismissRefusal}
        onSuggest={canManage ? onSuggest : undefined}
        onSummarise={canManage ? onSummarise : undefined}
      />
      )}
      {room.platform === 'whatsapp' && !readOnly && (
        <WhenOpened open={templatesOpen}>
          <TemplateDialog open={templatesOpen} pageId={room.page_id} onClose={() => setTemplatesOpen(false)} onSend={onSendTemplate} />
        </WhenOpened>
      )}
    </Box>
  );
}
