import { useCallback } from 'react';
import { Box, CircularProgress, List, type SxProps, type Theme } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Virtuoso } from 'react-virtuoso';
import { EmptyView } from '../../../core';
import { channelName } from '../format';
import { useChatService, useChatState } from '../hooks';
import { RoomListItem } from './RoomListItem';
import { roomRowStyles } from './roomRowStyles';

/** The list's own layout and every row's rules (roomRowStyles.ts), serialised once per render of the list, not per row. */
const LIST_SX: SxProps<Theme> = (theme) => ({ flex: 1, minHeight: 0, ...roomRowStyles(theme) });

/**
 * A row's height as drawn (79 px at 412 and 1440 px wide, roomRowStyles.ts): Virtuoso's first pass then renders the
 * rows that fill the list at once, instead of one row, a measure and the rest in a second pass (two more forced
 * layouts of the console in one long task of a phone's load, bench/bundle README). A hint only: every row is measured.
 */
const ROW_HEIGHT_HINT_PX = 79;

/** The conversations, newest activity first; more pages load when the end is reached (pages from 1). */
export function RoomList({ selectedId, onSelect }: { selectedId: number | null; onSelect: (id: number) => void }) {
  const { t } = useTranslation();
  const service = useChatService();
  const ids = useChatState((s) => s.visibleRoomIds);
  const rooms = useChatState((s) => s.rooms);
  const unread = useChatState((s) => s.unread);
  const pages = useChatState((s) => s.pages);
  const loading = useChatState((s) => s.loadingRooms);
  const loaded = useChatState((s) => s.roomsLoaded);
  const hasMore = useChatState((s) => s.hasMoreRooms);
  const unassignedOnly = useChatState((s) => !!s.filter.unassigned);

  const endReached = useCallback(() => service.loadMoreRooms(), [service]);
  const Footer = useCallback(
    () => (loading || hasMore ? <Box sx={{ py: 2, textAlign: 'center' }}>{loading && <CircularProgress size={20} aria-label={t('chats.loadingRooms')} />}</Box> : null),
    [loading, hasMore, t],
  );

  if (!ids.length) {
    // Under the unassigned filter, further pages may still be looked through for a room to show.
    if (!loaded || (loading && unassignedOnly)) {
      return (
        <Box sx={{ py: 4, textAlign: 'center' }}>
          <CircularProgress size={24} aria-label={t('chats.loadingRooms')} />
        </Box>
      );
    }
    return <EmptyView />;
  }
  return (
    // A labelled region: a plain div may not carry aria-label (axe: aria-prohibited-attr), which axe reports the moment
    // the list is on screen before its rows are (nothing inside names it then).
    <List disablePadding component="div" role="region" aria-label={t('chats.title')} data-testid="room-list" sx={LIST_SX}>
      <Virtuoso
        style={{ height: '100%' }}
        data={ids}
        computeItemKey={(_, id) => id}
        endReached={endReached}
        increaseViewportBy={300}
        defaultItemHeight={ROW_HEIGHT_HINT_PX}
        itemContent={(_, id) => {
          const room = rooms[id];
          return room ? <RoomListItem room={room} channel={channelName(pages, room)} unread={unread[id] ?? 0} selected={id === selectedId} onSelect={onSelect} /> : null;
        }}
        components={{ Footer }}
      />
    </List>
  );
}
