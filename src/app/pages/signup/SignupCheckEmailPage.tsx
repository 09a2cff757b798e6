import { errorText, useApi, httpApiRef, validateOnChangeAndBlur, EmailInput, SubmitButton } from '../../../core';
import { useState } from 'react';
import { Alert, Box, Stack } from '@mui/material';
import { Form } from 'react-admin';
import { useTranslation } from 'react-i18next';
import { AuthLayout } from '../shared/AuthLayout';
import { CheckboxInput } from '../shared/CheckboxInput';
import { RouterLink } from '../shared/RouterLink';
import { SocialSignInButtons } from '../auth/SocialSignInButtons';
import { CheckInboxPanel } from './CheckInboxPanel';
import { onboardingCalls } from './onboardingCalls';
import { readSignupEmail, saveSignupEmail } from './signupEmail';

type Problem = { kind: 'hasAccount'; email: string } | { kind: 'message'; text: string };

interface Request {
  email: string;
  needsWhatsappNumber: boolean;
  invitedBy: string[];
}

/** /auth/signup/check-email: first sign-up step; sends the verification e-mail and waits for it. */
export function SignupCheckEmailPage() {
  const { t } = useTranslation();
  const http = useApi(httpApiRef);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [request, setRequest] = useState<Request | null>(null);

  const onSubmit = async (values: Record<string, unknown>) => {
    const address = String(values.email).trim();
    const needsWhatsappNumber = values.needs_whatsapp_number !== false;
    setProblem(null);
    setSubmitting(true);
    try {
      const check = await onboardingCalls.checkEmail(http, address);
      if (check?.has_account) {
        setProblem({ kind: 'hasAccount', email: address });
        return;
      }
      const sent = await onboardingCalls.submit(http, address, needsWhatsappNumber);
      if (!sent) {
        setProblem({ kind: 'message', text: t('pages.checkInbox.sendFailed') });
        return;
      }
      saveSignupEmail(address);
      setRequest({ email: address, needsWhatsappNumber, invitedBy: check?.invited ? check.companies ?? [] : [] });
    } catch (e) {
      setProblem({ kind: 'message', text: errorText(e, t('pages.checkInbox.sendFailed')) });
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
          invitedBy={request.invitedBy}
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
      <Form onSubmit={onSubmit} defaultValues={{ email: readSignupEmail(), needs_whatsapp_number: true }} {...validateOnChangeAndBlur} noValidate>
        <ProblemAlert problem={problem} />
        <Stack>
          <EmailInput label={t('pages.fields.email')} />
          <CheckboxInput
            source="needs_whatsapp_number"
            label={t('pages.checkEmail.needsWhatsapp')}
            helperText={t('pages.checkEmail.needsWhatsappHint')}
            defaultValue
          />
          <Box>
            <SubmitButton block label={t('pages.actions.continue')} loading={submitting} />
          </Box>
        </Stack>
      </Form>
      {/* Signing in with Facebook or Google creates the account with the provider's verified e-mail. */}
      <SocialSignInButtons disabled={submitting} />
    </AuthLayout>
  );
}

function ProblemAlert({ problem }: { problem: Problem | null }) {
  const { t } = useTranslation();
  if (!problem) return null;
  if (problem.kind === 'message') {
    return (
      <Alert severity="error" role="alert" sx={{ mb: 2 }}>
        {problem.text}
      </Alert>
    );
  }
  return (
    <Alert
      severity="error"
      role="alert"
      sx={{ mb: 2 }}
      action={
        <RouterLink to={`/auth/login?email=${encodeURIComponent(problem.email)}`} sx={{ whiteSpace: 'nowrap', alignSelf: 'center', mr: 1 }}>
          {t('pages.checkEmail.signInInstead')}
        </RouterLink>
      }
    >
      {t('pages.checkEmail.hasAccount', { email: problem.email })}
    </Alert>
  );
}
