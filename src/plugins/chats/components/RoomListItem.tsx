import { memo } from 'react';
import { Avatar, Badge, Box, ListItemAvatar, ListItemButton, Typography } from '@mui/material';
import { mdiAccountOutline, mdiBlockHelper, mdiPause } from '@mdi/js';
import { useTranslation } from 'react-i18next';
import { isAgentTagName, isRoomPaused, type Room } from '../../../../contract/chats';
import { csatRatingOf } from '../../../../contract/csat';
import { systemLineOf } from '../../../../contract/customerEvents';
import { MdiIcon } from '../../../core';
import { initials, shortTime, systemLineLabel } from '../format';
import { lastMessage } from '../model/rooms';
import { PlatformIcon } from './PlatformIcon';

/** Kinds whose preview is a label when they carry no text. */
const LABELLED = new Set(['location', 'contacts', 'template', 'interactive']);

interface Props {
  room: Room;
  channel: string;
  unread: number;
  selected: boolean;
  onSelect: (id: number) => void;
}

/** One conversation in the list: avatar, name, last message, time, unread count and state icons. */
export const RoomListItem = memo(function RoomListItem({ room, channel, unread, selected, onSelect }: Props) {
  const { t, i18n } = useTranslation();
  const last = lastMessage(room);
  // Issue #22: a CSAT rating's event row reads in the console's language.
  const rating = last?.origin === 'system' ? csatRatingOf(last.data) : null;
  // Issue #25: so does a line the channel added (a number change, a message it cannot show).
  const line = last?.origin === 'system' ? systemLineOf(last.data) : null;
  const preview = rating !== null
    ? t('chats.csatRated', { rating })
    : line
    ? systemLineLabel(t, line)
    : last
    ? last.text || (last.media_url ? t(`chats.media.${last.type}`, { defaultValue: t('chats.media.document') }) : LABELLED.has(last.type) ? t(`chats.media.${last.type}`) : (last.text ?? ''))
    : '';
  const agents = room.tags.filter((x) => isAgentTagName(x.name));
  return (
    <ListItemButton
      selected={selected}
      onClick={() => onSelect(room.id)}
      data-testid="room-item"
      data-room-id={room.id}
      aria-current={selected ? 'true' : undefined}
      sx={{ alignItems: 'flex-start', py: 1, borderBottom: 1, borderColor: 'divider' }}
    >
      <ListItemAvatar sx={{ minWidth: 48 }}>
        <Avatar sx={{ bgcolor: 'secondary.main', color: 'secondary.contrastText', width: 36, height: 36, fontSize: 14 }}>{initials(room.name)}</Avatar>
      </ListItemAvatar>
      <Box sx={{ minWidth: 0, flex: 1 }}>
        <Box sx={{ display: 'flex', alignItems: 'baseline', gap: 1 }}>
          <Typography variant="subtitle2" noWrap sx={{ flex: 1, fontWeight: unread ? 700 : 500 }} data-testid="room-item-name">
            {room.name}
          </Typography>
          <Typography variant="caption" color={unread ? 'primary' : 'text.secondary'} sx={{ flexShrink: 0 }}>
            {shortTime(room.last_message_at ?? last?.created_at, i18n.language)}
          </Typography>
        </Box>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
          <Typography variant="body2" color="text.secondary" noWrap sx={{ flex: 1 }} data-testid="room-item-preview">
            {last && last.origin !== 'user' ? '↪ ' : ''}
            {preview}
          </Typography>
          {room.blocked_at && <MdiIcon path={mdiBlockHelper} aria-label={t('chats.room.blocked')} sx={{ fontSize: 14, color: 'error.main' }} />}
          {isRoomPaused(room) && <MdiIcon path={mdiPause} aria-label={t('chats.room.pauseBot')} sx={{ fontSize: 14, color: 'warning.main' }} />}
          {unread > 0 && (
            <Badge badgeContent={unread} max={99} color="primary" data-testid="room-unread" aria-label={t('chats.unread', { count: unread })} sx={{ '& .MuiBadge-badge': { position: 'static', transform: 'none' } }} />
          )}
        </Box>
        <Typography variant="caption" color="text.secondary" noWrap component="p" data-testid="room-item-channel">
          <PlatformIcon platform={room.platform} sx={{ mr: 0.5, mt: -0.25 }} />
          {channel}
          {agents.length > 0 && (
            <>
              {' · '}
              <MdiIcon path={mdiAccountOutline} sx={{ fontSize: 12, verticalAlign: 'middle' }} /> {agents.map((a) => a.name).join(', ')}
            </>
          )}
        </Typography>
      </Box>
    </ListItemButton>
  );
});
