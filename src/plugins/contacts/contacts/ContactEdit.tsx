import { Box, Chip, Paper, Stack, Typography } from '@mui/material';
import { DeleteButton, Edit, SaveButton, ShowButton, Toolbar, TopToolbar, useEditContext, useNotify, useRecordContext } from 'react-admin';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { Contact } from '../../../../contract/contacts';
import { ContactsTabs } from '../ContactsTabs';
import { ContactForm, contactPayload } from './ContactForm';
import { ContactEditError } from './ContactLoadError';
import { ContactRooms } from './ContactRooms';

function EditToolbar() {
  return (
    <Toolbar sx={{ justifyContent: 'space-between' }}>
      <SaveButton />
      <DeleteButton mutationMode="pessimistic" successMessage="contacts.deleted" />
    </Toolbar>
  );
}

/** react-admin's own actions (the read-only view), none while the contact could not be loaded: an empty bar above the
 * page's explanation would read as something missing. */
function EditActions() {
  const { error } = useEditContext();
  if (error) return null;
  return (
    <TopToolbar>
      <ShowButton />
    </TopToolbar>
  );
}

/** What the form does not edit: the channel, the opt-out state and the conversations. */
function ContactFacts() {
  const contact = useRecordContext<Contact>();
  const { t } = useTranslation();
  const navigate = useNavigate();
  if (!contact) return null;
  return (
    <Paper variant="outlined" sx={{ p: 2, minWidth: { md: 280 } }}>
      <Stack spacing={1}>
        <Chip size="small" color={contact.opted_out ? 'warning' : 'default'} label={t(contact.opted_out ? 'contacts.optedOut' : 'contacts.optedIn')} sx={{ alignSelf: 'flex-start' }} />
        {contact.external_id && (
          <Typography variant="body2">
            {t('contacts.fields.external_id')}: {contact.external_id} {contact.platform ? `(${contact.platform})` : ''}
          </Typography>
        )}
        <Typography variant="subtitle2">{t('contacts.fields.rooms')}</Typography>
        <ContactRooms rooms={contact.rooms} onOpen={(id) => navigate(`/chats/${id}`)} />
      </Stack>
    </Paper>
  );
}

/** /contacts/{id}: the contact's details, attributes and tags (those who may manage chats), its conversations. */
export function ContactEdit() {
  const notify = useNotify();
  return (
    <Box>
      <ContactsTabs current="contacts" />
      <Edit<Contact>
        resource="contacts"
        mutationMode="pessimistic"
        transform={contactPayload}
        // A failed load is said in place (ContactEditError): no "Element does not exist" toast on top of it.
        queryOptions={{ select: (c: Contact) => ({ ...c, tag_names: c.tags.map((tag) => tag.name) }), onError: () => undefined }}
        mutationOptions={{ onSuccess: () => notify('contacts.saved', { type: 'success' }) }}
        redirect={false}
        title={false}
        error={<ContactEditError />}
        actions={<EditActions />}
        aside={
          <Box sx={{ ml: { md: 2 }, mt: { xs: 2, md: 0 } }}>
            <ContactFacts />
          </Box>
        }
        sx={{ px: { xs: 1, md: 2 }, '& .RaEdit-main': { flexDirection: { xs: 'column', md: 'row' }, alignItems: { xs: 'stretch', md: 'flex-start' } } }}
      >
        <ContactForm toolbar={<EditToolbar />} />
      </Edit>
    </Box>
  );
}
