import { useAlert, useApi, httpApiRef, SubmitButton } from '../../../core';
import { useState } from 'react';
import { Box, Stack } from '@mui/material';
import { useNavigate, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { AuthLayout } from '../shared/AuthLayout';
import { FormError } from '../shared/FormError';
import { NewPasswordInputs, SimpleForm } from '../shared/form';
import { RouterLink } from '../shared/RouterLink';

/** /auth/reset-password/:token: sets a new password with the e-mailed token. */
export function ResetPasswordConfirmPage() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const http = useApi(httpApiRef);
  const alert = useAlert();
  const navigate = useNavigate();
  const [failed, setFailed] = useState(false);
  const [submitting, setSubmitting] = useState(false);

  const onSubmit = async (values: Record<string, unknown>) => {
    setFailed(false);
    setSubmitting(true);
    try {
      await http.post('/account/reset-password/confirm/', { token, password: values.password }, { auth: false });
      alert.success(t('pages.resetConfirm.success'));
      navigate('/auth/login', { replace: true });
    } catch {
      setFailed(true);
      setSubmitting(false);
    }
  };

  return (
    <AuthLayout
      title={t('pages.resetConfirm.title')}
      subtitle={t('pages.resetConfirm.subtitle')}
      footer={<RouterLink to="/auth/login">{t('pages.actions.backToSignIn')}</RouterLink>}
    >
      <SimpleForm onSubmit={onSubmit} defaultValues={{ password: '', confirm: '' }}>
        <FormError>{failed ? t('pages.resetConfirm.failed') : null}</FormError>
        <Stack>
          <NewPasswordInputs
            passwordName="password"
            passwordLabel={t('pages.fields.newPassword')}
            confirmName="confirm"
            confirmLabel={t('pages.fields.confirmPassword')}
            mismatchMessage={t('pages.validation.passwordsMismatch')}
          />
          <Box sx={{ mt: 1 }}>
            <SubmitButton block label={t('pages.actions.resetPassword')} loading={submitting} />
          </Box>
        </Stack>
      </SimpleForm>
    </AuthLayout>
  );
}
