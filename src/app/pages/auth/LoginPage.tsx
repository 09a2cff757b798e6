import { authApiRef, errorBody, errorText, useApi, SubmitButton } from '../../../core';
import { useState } from 'react';
import { Box, Stack } from '@mui/material';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { AuthLayout } from '../shared/AuthLayout';
import { FormError } from '../shared/FormError';
import { EmailInput, requiredRule, SimpleForm, TextInput } from '../shared/form';
import { RouterLink } from '../shared/RouterLink';
import { SocialSignInButtons } from './SocialSignInButtons';

interface Credentials {
  email: string;
  password: string;
}

/** /auth/login: signs in through the authProvider, which answers where to go next. */
export function LoginPage() {
  const { t } = useTranslation();
  const auth = useApi(authApiRef);
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const prefilledEmail = params.get('email') ?? '';
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const onSubmit = async (values: Record<string, unknown>) => {
    const { email: address, password } = values as unknown as Credentials;
    setError(null);
    setSubmitting(true);
    try {
      // the authProvider answers where to go next (react-admin's useLogin did the same)
      const answer = (await auth.login({ email: address.trim(), password })) as { redirectTo?: unknown } | undefined;
      navigate(typeof answer?.redirectTo === 'string' ? answer.redirectTo : '/');
    } catch (e) {
      // The login limits' refusals in the reader's language (server/core/auth/loginThrottle.ts).
      const code = (errorBody(e) as { code?: unknown } | undefined)?.code;
      setError(code === 'account_throttled' ? t('pages.login.accountThrottled') : code === 'throttled' ? t('pages.login.throttled') : errorText(e));
      setSubmitting(false);
    }
  };

  return (
    <AuthLayout
      title={t('pages.login.title')}
      subtitle={t('pages.login.subtitle')}
      footer={
        <>
          {t('pages.login.noAccount')} <RouterLink to="/auth/signup">{t('pages.actions.createAnAccount')}</RouterLink>
        </>
      }
    >
      <SimpleForm onSubmit={onSubmit} defaultValues={{ email: prefilledEmail, password: '' }}>
        <FormError>{error}</FormError>
        <Stack>
          {/* the cursor waits where typing starts: the password when the link brought the address */}
          <EmailInput label={t('pages.fields.email')} autoFocus={!prefilledEmail} />
          <TextInput
            name="password"
            type="password"
            label={t('pages.fields.password')}
            autoComplete="current-password"
            autoFocus={!!prefilledEmail}
            rules={[requiredRule]}
          />
          <Box sx={{ textAlign: 'right', mt: -0.5, mb: 2.5 }}>
            <RouterLink to="/auth/reset-password" variant="body2">
              {t('pages.actions.forgotPassword')}
            </RouterLink>
          </Box>
          <SubmitButton block label={t('pages.actions.signIn')} loading={submitting} />
        </Stack>
      </SimpleForm>
      <SocialSignInButtons disabled={submitting} />
    </AuthLayout>
  );
}
