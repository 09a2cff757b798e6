import { Box } from '@mui/material';
import { Create, useNotify, useRedirect } from 'react-admin';
import { useTranslation } from 'react-i18next';
import { isHttpError } from '../../../core';
import { ContactsTabs } from '../ContactsTabs';
import { ContactForm, contactPayload } from './ContactForm';

/** /contacts/create: a contact made by hand; a phone or external id another contact has opens that contact (409). */
export function ContactCreate() {
  const { t } = useTranslation();
  const notify = useNotify();
  const redirect = useRedirect();
  return (
    <Box>
      <ContactsTabs current="contacts" />
      <Create
        resource="contacts"
        title={t('contacts.create.title')}
        transform={contactPayload}
        redirect="edit"
        mutationOptions={{
          onSuccess: (data: { id: number }) => {
            notify('contacts.created', { type: 'success' });
            redirect('edit', 'contacts', data.id);
          },
          onError: (error: unknown) => {
            const body = isHttpError(error) ? (error.body as { id?: number } | null) : null;
            if (isHttpError(error) && error.status === 409 && body?.id) {
              notify('contacts.create.exists', { type: 'warning' });
              redirect('edit', 'contacts', body.id);
            } else notify(error instanceof Error ? error.message : String(error), { type: 'error' });
          },
        }}
        sx={{ px: { xs: 1, md: 2 }, maxWidth: 720 }}
      >
        <ContactForm />
      </Create>
    </Box>
  );
}
