import { memo } from 'react';
import { ListItemButton } from '@mui/material';
import { mdiAccountOutline, mdiBlockHelper, mdiPause } from '@mdi/js';
import { useTranslation } from 'react-i18next';
import { isAgentTagName, isRoomPaused, type Room } from '../../../../contract/chats';
import { csatRatingOf } from '../../../../contract/csat';
import { systemLineOf } from '../../../../contract/customerEvents';
import { initials, shortTime, systemLineLabel, unreadBadge } from '../format';
import { lastMessage } from '../model/rooms';
import { PLATFORM_ICONS } from './platformIcons';
import { ROOM_ROW } from './roomRowStyles';

/** Kinds whose preview is a label when they carry no text. */
const LABELLED = new Set(['location', 'contacts', 'template', 'interactive']);

interface Props {
  room: Room;
  channel: string;
  unread: number;
  selected: boolean;
  onSelect: (id: number) => void;
}

/** An mdi icon as a plain svg drawn by the list's rules (named when `label` is given, else hidden from screen readers). */
function RowIcon({ path, label, color, size, className }: { path: string; label?: string; color?: string; size?: number; className?: string }) {
  return (
    <svg
      className={className ? `${ROOM_ROW.icon} ${className}` : ROOM_ROW.icon}
      viewBox="0 0 24 24"
      focusable="false"
      {...(label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true })}
      style={color || size ? { color, fontSize: size } : undefined}
    >
      {label && <title>{label}</title>}
      <path d={path} />
    </svg>
  );
}

/**
 * One conversation in the list: avatar, name, last message, time, unread count and state icons. Its parts are plain
 * elements drawn by the list's rules (roomRowStyles.ts), not styled components: a row renders no style of its own.
 */
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
  const platform = PLATFORM_ICONS[room.platform] ?? PLATFORM_ICONS.sandbox;
  return (
    <ListItemButton
      selected={selected}
      onClick={() => onSelect(room.id)}
      data-testid="room-item"
      data-room-id={room.id}
      aria-current={selected ? 'true' : undefined}
      className={unread ? `${ROOM_ROW.row} ${ROOM_ROW.unread}` : ROOM_ROW.row}
    >
      <div className={ROOM_ROW.avatar} aria-hidden="true">
        {initials(room.name)}
      </div>
      <div className={ROOM_ROW.body}>
        <div className={ROOM_ROW.line}>
          <h6 className={ROOM_ROW.name} data-testid="room-item-name">
            {room.name}
          </h6>
          <span className={ROOM_ROW.time}>{shortTime(room.last_message_at ?? last?.created_at, i18n.language)}</span>
        </div>
        <div className={ROOM_ROW.status}>
          <p className={ROOM_ROW.preview} data-testid="room-item-preview">
            {last && last.origin !== 'user' ? '↪ ' : ''}
            {preview}
          </p>
          {room.blocked_at && <RowIcon path={mdiBlockHelper} label={t('chats.room.blocked')} color="var(--RoomRow-error)" />}
          {isRoomPaused(room) && <RowIcon path={mdiPause} label={t('chats.room.pauseBot')} color="var(--RoomRow-warning)" />}
          {unread > 0 && (
            <span className={ROOM_ROW.badge} data-testid="room-unread" role="img" aria-label={t('chats.unread', { count: unreadBadge(unread) })}>
              {unreadBadge(unread)}
            </span>
          )}
        </div>
        <p className={ROOM_ROW.channel} data-testid="room-item-channel">
          <RowIcon
            path={platform.path}
            label={t(`chats.platform.${room.platform}`, { defaultValue: room.platform })}
            color={platform.color ?? undefined}
            className={ROOM_ROW.platform}
          />
          {channel}
          {agents.length > 0 && (
            <>
              {' · '}
              <RowIcon path={mdiAccountOutline} size={12} /> {agents.map((a) => a.name).join(', ')}
            </>
          )}
        </p>
      </div>
    </ListItemButton>
  );
});
