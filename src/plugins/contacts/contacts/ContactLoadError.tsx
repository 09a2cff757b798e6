import { Alert, Button, Stack } from '@mui/material';
import { useEditContext, useShowContext } from 'react-admin';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import { errorText, isHttpError } from '../../../core';

/**
 * Why a contact's page could not open, said in its place (react-admin would toast "Element does not exist" and
 * leave for the list): a contact not in this company (deleted, or a link from another company), or the server's
 * reason; with the way back to the list either way.
 */
export function ContactLoadError({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const missing = isHttpError(error) && error.status === 404;
  return (
    <Stack spacing={2} sx={{ p: { xs: 2, md: 3 }, alignItems: 'flex-start' }}>
      <Alert severity={missing ? 'warning' : 'error'}>
        {missing ? t('contacts.notFound') : t('contacts.loadError', { error: errorText(error) })}
      </Alert>
      <Button component={RouterLink} to="/contacts" variant="outlined">
        {t('contacts.backToList')}
      </Button>
    </Stack>
  );
}

/** For `<Show error>`: the failed load of /contacts/{id}/show. */
export function ContactShowError() {
  return <ContactLoadError error={useShowContext().error} />;
}

/** For `<Edit error>`: the failed load of /contacts/{id}. */
export function ContactEditError() {
  return <ContactLoadError error={useEditContext().error} />;
}
