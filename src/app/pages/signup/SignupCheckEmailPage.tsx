import { errorText, useApi, httpApiRef, SubmitButton } from '../../../core';
import { useState } from 'react';
import { Box, Stack } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { AuthLayout } from '../shared/AuthLayout';
import { FormError } from '../shared/FormError';
import { CheckboxInput, EmailInput, SimpleForm } from '../shared/form';
import { RouterLink } from '../shared/RouterLink';
import { SocialSignInButtons } from '../auth/SocialSignInButtons';
import { CheckInboxPanel } from './CheckInboxPanel';
import { onboardingCalls } from './onboardingCalls';
import { readSignupEmail, saveSignupEmail } from './signupEmail';

interface Request {
  email: string;
  needsWhatsappNumber: boolean;
}

/**
 * /auth/signup/check-email: first sign-up step; sends the verification e-mail and waits for it.
 * Every address gets the same answer (the server e-mails the owner of a known address how to sign
 * in instead), so this page never tells anyone whether an address has an account.
 */
export function SignupCheckEmailPage() {
  const { t } = useTranslation();
  const http = useApi(httpApiRef);
  const [problem, setProblem] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [request, setRequest] = useState<Request | null>(null);

  const onSubmit = async (values: Record<string, unknown>) => {
    const address = String(values.email).trim();
    const needsWhatsappNumber = values.needs_whatsapp_number !== false;
    setProblem(null);
    setSubmitting(true);
    try {
      const sent = await onboardingCalls.submit(http, address, needsWhatsappNumber);
      if (!sent) {
        setProblem(t('pages.checkInbox.sendFailed'));
        return;
      }
      saveSignupEmail(address);
      setRequest({ email: address, needsWhatsappNumber });
    } catch (e) {
      setProblem(errorText(e, t('pages.checkInbox.sendFailed')));
    } finally {
      setSubmitting(false);
    }
  };

  if (request) {
    return (
      <AuthLayout title={t('pages.checkInbox.title')}>
        <CheckInboxPanel
          email={request.email}
          needsWhatsappNumber={request.needsWhatsappNumber}
          onUseAnotherEmail={() => setRequest(null)}
        />
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      title={t('pages.checkEmail.title')}
      subtitle={t('pages.checkEmail.subtitle')}
      footer={
        <>
          {t('pages.checkEmail.haveAccount')} <RouterLink to="/auth/login">{t('pages.actions.signIn')}</RouterLink>
        </>
      }
    >
      <SimpleForm onSubmit={onSubmit} defaultValues={{ email: readSignupEmail(), needs_whatsapp_number: true }}>
        <FormError>{problem}</FormError>
        <Stack>
          <EmailInput label={t('pages.fields.email')} />
          <CheckboxInput
            name="needs_whatsapp_number"
            label={t('pages.checkEmail.needsWhatsapp')}
            helperText={t('pages.checkEmail.needsWhatsappHint')}
          />
          <Box>
            <SubmitButton block label={t('pages.actions.continue')} loading={submitting} />
          </Box>
        </Stack>
      </SimpleForm>
      {/* Signing in with Facebook or Google creates the account with the provider's verified e-mail. */}
      <SocialSignInButtons disabled={submitting} />
    </AuthLayout>
  );
}
