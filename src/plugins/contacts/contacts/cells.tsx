import { Chip, Stack, Typography } from '@mui/material';
import { useRecordContext } from 'react-admin';
import { useTranslation } from 'react-i18next';
import type { Contact } from '../../../../contract/contacts';
import { formatDate } from '../../../core';

export function TagsCell() {
  const contact = useRecordContext<Contact>();
  if (!contact?.tags.length) return null;
  return (
    <Stack direction="row" spacing={0.5} useFlexGap flexWrap="wrap">
      {contact.tags.map((tag) => (
        <Chip key={tag.id} size="small" label={tag.name} />
      ))}
    </Stack>
  );
}

export function DateCell({ source }: { source: 'created_at' | 'last_message_at' }) {
  const contact = useRecordContext<Contact>();
  const { t, i18n } = useTranslation();
  const value = contact?.[source];
  return <Typography variant="body2">{value ? formatDate(value, i18n.language, { dateStyle: 'medium', timeStyle: 'short' }) : t('contacts.noValue')}</Typography>;
}

export function NameCell() {
  const contact = useRecordContext<Contact>();
  const { t } = useTranslation();
  if (!contact) return null;
  return (
    <Stack direction="row" spacing={1} alignItems="center">
      <Typography variant="body2" fontWeight={600}>
        {contact.name}
      </Typography>
      {contact.opted_out && <Chip size="small" color="warning" variant="outlined" label={t('contacts.fields.opted_out')} />}
    </Stack>
  );
}

/** A contact on a phone: the name, then its phone and e-mail under it (the columns they have on a wide screen). */
export function PhoneContactCell() {
  const contact = useRecordContext<Contact>();
  if (!contact) return null;
  return (
    <Stack spacing={0.25} sx={{ minWidth: 0 }}>
      <NameCell />
      {[contact.phone, contact.email].filter(Boolean).map((line) => (
        <Typography key={line} variant="caption" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
          {line}
        </Typography>
      ))}
      <TagsCell />
    </Stack>
  );
}
