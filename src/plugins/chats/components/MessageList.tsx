import { forwardRef, useCallback, useImperativeHandle, useRef } from 'react';
import { Box, CircularProgress, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Virtuoso, type VirtuosoHandle } from 'react-virtuoso';
import type { ChatMessage } from '../model/messages';
import { MessageBubble } from './MessageBubble';

/** Large enough that prepending older pages never reaches 0 (react-virtuoso's prepend pattern). */
const START_INDEX = 10_000_000;

export interface MessageListHandle {
  scrollToBottom(): void;
}

interface Props {
  messages: ChatMessage[];
  hasMore: boolean;
  loadingOlder: boolean;
  onLoadOlder: () => void;
  onRetry: (clientId: string) => void;
}

const messageKey = (m: ChatMessage) => m.client_id ?? `id-${m.id}`;

/**
 * The open room's messages, virtualised: only the rows in view (plus a small overscan) are in the
 * DOM, so a room with 10,000 messages stays light. Older history loads when the top is reached,
 * keeping the scroll position (firstItemIndex moves back by the number of messages prepended).
 */
export const MessageList = forwardRef<MessageListHandle, Props>(function MessageList({ messages, hasMore, loadingOlder, onLoadOlder, onRetry }, ref) {
  const { t } = useTranslation();
  const virtuoso = useRef<VirtuosoHandle>(null);
  // The first message shown when the list mounted: its index grows as older pages are prepended.
  const anchor = useRef<string | null>(null);
  if (anchor.current === null && messages.length) anchor.current = messageKey(messages[0]);
  const anchorIndex = anchor.current ? Math.max(0, messages.findIndex((m) => messageKey(m) === anchor.current)) : 0;
  const firstItemIndex = START_INDEX - anchorIndex;

  useImperativeHandle(ref, () => ({
    scrollToBottom: () => virtuoso.current?.scrollToIndex({ index: 'LAST', align: 'end', behavior: 'auto' }),
  }));

  const startReached = useCallback(() => {
    if (hasMore && !loadingOlder) onLoadOlder();
  }, [hasMore, loadingOlder, onLoadOlder]);

  const Header = useCallback(
    () => (
      <Box sx={{ py: 1.5, textAlign: 'center' }}>
        {loadingOlder ? (
          <CircularProgress size={20} aria-label={t('chats.room.loadingOlder')} />
        ) : !hasMore ? (
          <Typography variant="caption" color="text.secondary">
            {t('chats.room.start')}
          </Typography>
        ) : null}
      </Box>
    ),
    [loadingOlder, hasMore, t],
  );

  return (
    <Virtuoso
      ref={virtuoso}
      data-testid="message-list"
      style={{ flex: 1 }}
      data={messages}
      firstItemIndex={firstItemIndex}
      initialTopMostItemIndex={Math.max(0, messages.length - 1)}
      computeItemKey={(_, m) => messageKey(m)}
      itemContent={(_, m) => <MessageBubble message={m} onRetry={onRetry} />}
      followOutput={(atBottom) => (atBottom ? 'smooth' : false)}
      alignToBottom
      startReached={startReached}
      increaseViewportBy={{ top: 400, bottom: 200 }}
      components={{ Header }}
      role="log"
      aria-live="polite"
    />
  );
});
