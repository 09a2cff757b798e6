import { List, ListItem, ListItemText, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { ContactBroadcast } from '../../../../contract/contacts';
import { formatDate } from '../../../core';

/** The broadcasts this contact was sent, newest first, each with what became of it (a broadcast is no room message). */
export function ContactBroadcasts({ broadcasts }: { broadcasts: ContactBroadcast[] }) {
  const { t, i18n } = useTranslation();
  if (!broadcasts.length) return <Typography variant="body2" color="text.secondary">{t('contacts.broadcasts.none')}</Typography>;
  return (
    <List dense disablePadding aria-label={t('contacts.broadcasts.title')} data-testid="contact-broadcasts">
      {broadcasts.map((b) => (
        <ListItem key={b.id} disablePadding>
          <ListItemText
            primary={b.name}
            secondary={[t(`contacts.broadcasts.states.${b.state}`, { defaultValue: b.state }), b.sent_at ? formatDate(b.sent_at, i18n.language, { dateStyle: 'medium', timeStyle: 'short' }) : null].filter(Boolean).join(' · ')}
          />
        </ListItem>
      ))}
    </List>
  );
}
