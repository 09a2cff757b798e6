import { Box, Chip, Stack, Typography } from '@mui/material';
import { Show, useRecordContext } from 'react-admin';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { Contact } from '../../../../contract/contacts';
import { useAccess } from '../../../core';
import { ContactsTabs } from '../ContactsTabs';
import { useAttributes } from '../model/hooks';
import { ContactShowError } from './ContactLoadError';
import { ContactRooms } from './ContactRooms';
import { formatAttribute } from '../model/format';

function ContactDetails() {
  const contact = useRecordContext<Contact>();
  const attributes = useAttributes();
  const { t } = useTranslation();
  const navigate = useNavigate();
  if (!contact) return null;
  const line = (label: string, value: string | null) => (
    <Box>
      <Typography variant="caption" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="body2">{value || t('contacts.noValue')}</Typography>
    </Box>
  );
  return (
    <Stack spacing={1.5} sx={{ p: 2 }}>
      <Typography variant="h6">{contact.name}</Typography>
      {line(t('contacts.fields.phone'), contact.phone)}
      {line(t('contacts.fields.email'), contact.email)}
      {line(t('contacts.fields.external_id'), contact.external_id)}
      <Stack direction="row" spacing={0.5} useFlexGap flexWrap="wrap">
        {contact.tags.map((tag) => (
          <Chip key={tag.id} size="small" label={tag.name} />
        ))}
      </Stack>
      <Chip size="small" color={contact.opted_out ? 'warning' : 'default'} label={t(contact.opted_out ? 'contacts.optedOut' : 'contacts.optedIn')} sx={{ alignSelf: 'flex-start' }} />
      {(attributes.data ?? []).map((a) => line(a.name, formatAttribute(a, contact.attributes[a.key], t)))}
      <Typography variant="subtitle2">{t('contacts.fields.rooms')}</Typography>
      <ContactRooms rooms={contact.rooms} onOpen={(id) => navigate(`/chats/${id}`)} />
    </Stack>
  );
}

/** /contacts/{id}/show: a contact as those who may only view chats see it (read-only; the page says who can change it). */
export function ContactShow() {
  const { t } = useTranslation();
  // The page is also reached by its address by those who may change the contact (its Edit button then shows).
  const { canManage } = useAccess('chats');
  return (
    <Box>
      <ContactsTabs current="contacts" />
      {!canManage && (
        <Typography variant="body2" color="text.secondary" sx={{ px: { xs: 2, md: 3 }, pt: 1 }}>
          {t('contacts.readOnly')}
        </Typography>
      )}
      <Show<Contact>
        resource="contacts"
        title={false}
        // The page says why in place (ContactShowError): no "Element does not exist" toast on top of it.
        queryOptions={{ onError: () => undefined }}
        error={<ContactShowError />}
        sx={{ px: { xs: 1, md: 2 } }}
      >
        <ContactDetails />
      </Show>
    </Box>
  );
}
