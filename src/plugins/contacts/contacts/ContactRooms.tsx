import { List, ListItem, ListItemButton, ListItemText, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { ContactRoom } from '../../../../contract/contacts';
import { formatDate } from '../../../core';

/** The contact's conversations, newest first; choosing one opens it (in place in the inbox, or the inbox from the contacts page). */
export function ContactRooms({ rooms, currentRoomId, onOpen }: { rooms: ContactRoom[]; currentRoomId?: number; onOpen: (roomId: number) => void }) {
  const { t, i18n } = useTranslation();
  if (!rooms.length) return <Typography variant="body2" color="text.secondary">{t('contacts.rooms.none')}</Typography>;
  return (
    <List dense disablePadding>
      {rooms.map((room) => (
        <ListItem key={room.id} disablePadding>
          <ListItemButton
            selected={room.id === currentRoomId}
            onClick={() => onOpen(room.id)}
            aria-label={t('contacts.rooms.open', { platform: room.platform })}
            sx={{ borderRadius: 1 }}
          >
            <ListItemText
              primary={room.id === currentRoomId ? t('contacts.panel.current') : `${room.platform} · ${t(`contacts.rooms.status.${room.status}`)}`}
              secondary={formatDate(room.last_message_at ?? room.created_at, i18n.language, { dateStyle: 'medium', timeStyle: 'short' })}
            />
          </ListItemButton>
        </ListItem>
      ))}
    </List>
  );
}
