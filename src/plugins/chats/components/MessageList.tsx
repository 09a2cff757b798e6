import { forwardRef, useCallback, useEffect, useImperativeHandle, useMemo, useRef, useState } from 'react';
import { Box, CircularProgress, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Virtuoso, type VirtuosoHandle } from 'react-virtuoso';
import type { ChatMessage } from '../model/messages';
import { dayLabel, localDayKey, msUntilNextDay, withDaySeparators, type ThreadItem } from '../model/days';
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
  /** An attachment did not load (its signed URL may have expired). */
  onMediaError?: (messageId: number) => void;
  /**
   * The message the room opens at (`?message=`: a search result, a mention), centred instead of the last one.
   * Virtuoso positions the list itself once its rows are measured: a scrollToIndex issued before that is undone.
   */
  openAtMessageId?: number | null;
  /** The room's history has come: until then a progress indicator stands where the list will be. */
  historyLoaded?: boolean;
}

const messageKey = (m: ChatMessage) => m.client_id ?? `id-${m.id}`;

/**
 * About a row's height as drawn (a day's separator 43 px, a one-line bubble 60, most 80-100, in the demo's rooms at
 * 412 and 1440 px): with it, Virtuoso's first pass renders the last rows that fill the list, where it rendered one
 * row, measured it and rendered the rest in a second pass: on a phone opening a room, the thread's messages came a
 * frame and a long task after the room's header and composer (bench/bundle README). A hint only: every row is
 * measured, and the list still opens at its last message.
 */
const ROW_HEIGHT_HINT_PX = 72;

/** The current time, renewed at each local midnight so "Today" becomes "Yesterday" in an open inbox. */
function useToday(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setTimeout(() => setNow(new Date()), msUntilNextDay(now) + 1000);
    return () => clearTimeout(timer);
  }, [now]);
  return now;
}

/** "Today", "Yesterday", a weekday or a date, centred between two days' messages. */
function DaySeparator({ date, now }: { date: Date; now: Date }) {
  const { t, i18n } = useTranslation();
  const label = dayLabel(date, now, i18n.language, { today: t('chats.days.today'), yesterday: t('chats.days.yesterday') });
  return (
    <Box data-testid="day-separator" sx={{ display: 'flex', justifyContent: 'center', px: 2, pt: 1.5, pb: 0.75 }}>
      <Typography
        component="time"
        dateTime={localDayKey(date)}
        variant="caption"
        sx={{ px: 1.5, py: 0.375, borderRadius: 3, bgcolor: 'background.paper', color: 'text.secondary', fontWeight: 600, boxShadow: 1, lineHeight: 1.6 }}
      >
        {label}
      </Typography>
    </Box>
  );
}

/**
 * The open room's messages, virtualised: only the rows in view (plus a small overscan) are in the
 * DOM, so a room with 10,000 messages stays light. A day separator is a row of its own before the
 * first message of each day. Older history loads when the top is reached, keeping the scroll
 * position (firstItemIndex moves back by the number of rows prepended above the first message shown).
 */
export const MessageList = forwardRef<MessageListHandle, Props>(function MessageList({ messages, hasMore, loadingOlder, onLoadOlder, onRetry, onMediaError, openAtMessageId = null, historyLoaded = true }, ref) {
  const { t } = useTranslation();
  const virtuoso = useRef<VirtuosoHandle>(null);
  const now = useToday();
  const items = useMemo(() => withDaySeparators(messages, messageKey), [messages]);
  // The first message shown when the list mounted: its row index grows as older pages are prepended.
  // (Anchored on a message, not a separator: a day's separator moves up when older messages of that day arrive.)
  // firstItemIndex only moves by what was prepended since (the first day's separator is no prepend).
  const anchor = useRef<{ key: string; index: number } | null>(null);
  if (anchor.current === null && messages.length && historyLoaded) {
    const key = messageKey(messages[0]);
    anchor.current = { key, index: items.findIndex((item) => item.key === key) };
  }
  const anchorIndex = anchor.current ? items.findIndex((item) => item.key === anchor.current!.key) : -1;
  const firstItemIndex = START_INDEX - (anchor.current && anchorIndex >= 0 ? anchorIndex - anchor.current.index : 0);

  const openAt = openAtMessageId === null ? -1 : items.findIndex((item) => item.kind !== 'day' && item.message.id === openAtMessageId);

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

  const itemContent = useCallback(
    (_: number, item: ThreadItem) => (item.kind === 'day' ? <DaySeparator date={item.date} now={now} /> : <MessageBubble message={item.message} onRetry={onRetry} onMediaError={onMediaError} />),
    [now, onRetry, onMediaError],
  );

  // The list mounts with the room's history, never before it: Virtuoso then opens at the last message by
  // itself (initialTopMostItemIndex, re-applied as the rows get measured). Mounted empty and scrolled once the
  // history came, the scroll could run before the rows were measured and be undone on a busy machine: the
  // room opened at its first message, and the latest ones, below the rendered rows, were not in the page.
  if (!historyLoaded) {
    return (
      <Box data-testid="message-list" sx={{ flex: 1, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
        <CircularProgress size={24} aria-label={t('chats.room.loadingThread')} />
      </Box>
    );
  }

  return (
    <Virtuoso
      ref={virtuoso}
      data-testid="message-list"
      style={{ flex: 1 }}
      data={items}
      defaultItemHeight={ROW_HEIGHT_HINT_PX}
      firstItemIndex={firstItemIndex}
      initialTopMostItemIndex={openAt >= 0 ? { index: openAt, align: 'center' } : { index: 'LAST', align: 'end' }}
      computeItemKey={(_, item) => item.key}
      itemContent={itemContent}
      // Opened at a message (a search result), the list stays there: a resize (the contact panel opening) must not
      // take it to the bottom. Sending still does (RoomView calls scrollToBottom).
      // 'auto', not 'smooth': a bot answers with several messages within milliseconds, and a message that came while
      // the previous one's smooth scroll still ran found the list "not at the bottom" and was not followed; the
      // rest of the burst stayed below, out of the page (react-virtuoso issues 317 and 844; docs/testing.md).
      followOutput={(atBottom) => (atBottom && openAt < 0 ? 'auto' : false)}
      alignToBottom
      startReached={startReached}
      increaseViewportBy={{ top: 400, bottom: 200 }}
      components={{ Header }}
      role="log"
      aria-live="polite"
    />
  );
});
