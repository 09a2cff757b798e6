import { useApi, httpApiRef, SubmitButton } from '../../../core';
import { useState } from 'react';
import { Alert, Box, Stack } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { AuthLayout } from '../shared/AuthLayout';
import { FormError } from '../shared/FormError';
import { EmailInput, SimpleForm } from '../shared/form';
import { RouterLink } from '../shared/RouterLink';

/** /auth/reset-password: asks the server to e-mail a reset link. */
export function ResetPasswordRequestPage() {
  const { t } = useTranslation();
  const http = useApi(httpApiRef);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const [submitting, setSubmitting] = useState(false);

  const onSubmit = async (values: Record<string, unknown>) => {
    const address = String(values.email).trim();
    setFailed(false);
    setSubmitting(true);
    try {
      await http.post('/account/reset-password/', { email: address }, { auth: false });
      setSentTo(address);
    } catch {
      setFailed(true);
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <AuthLayout
      title={t('pages.resetRequest.title')}
      subtitle={sentTo ? undefined : t('pages.resetRequest.subtitle')}
      footer={<RouterLink to="/auth/login">{t('pages.actions.backToSignIn')}</RouterLink>}
    >
      {sentTo ? (
        <Alert severity="success" role="status">
          {t('pages.resetRequest.sent', { email: sentTo })}
        </Alert>
      ) : (
        <SimpleForm onSubmit={onSubmit} defaultValues={{ email: '' }}>
          <FormError>{failed ? t('pages.resetRequest.failed') : null}</FormError>
          <Stack>
            <EmailInput label={t('pages.fields.email')} />
            <Box sx={{ mt: 1 }}>
              <SubmitButton block label={t('pages.actions.sendResetLink')} loading={submitting} />
            </Box>
          </Stack>
        </SimpleForm>
      )}
    </AuthLayout>
  );
}
