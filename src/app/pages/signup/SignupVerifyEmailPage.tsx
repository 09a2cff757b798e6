import { errorBody, errorText } from '../../../core';
import { useEffect, useState } from 'react';
import { Alert, Avatar, Box, Button, CircularProgress, Stack, Typography } from '@mui/material';
import { mdiCheckDecagramOutline } from '../shared/icons';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useApi, httpApiRef, type HttpProvider, MdiIcon } from '../../../core';
import { AuthLayout } from '../shared/AuthLayout';
import { RouterLink } from '../shared/RouterLink';
import { onboardingCalls, type VerifyReply } from './onboardingCalls';
import { createAccountPath, readSignupEmail, saveSignupEmail } from './signupEmail';

type Outcome = { state: 'verifying' } | { state: 'verified'; email: string } | { state: 'failed'; error: string };

/** One verification per token, even when React runs the effect twice (tokens may be single-use). */
const verifications = new Map<string, Promise<VerifyReply>>();
function verifyOnce(http: HttpProvider, token: string): Promise<VerifyReply> {
  let pending = verifications.get(token);
  if (!pending) {
    pending = onboardingCalls.verify(http, token);
    verifications.set(token, pending);
  }
  return pending;
}

/** The reply's `error` text, whether it came as a failed call or as `success: false`. */
function verifyErrorText(error: unknown): string {
  const body = errorBody(error) as VerifyReply | undefined;
  return body?.error || errorText(error);
}

/** /auth/signup/verify-account-email?token=: the page the verification e-mail links to. */
export function SignupVerifyEmailPage() {
  const { t } = useTranslation();
  const http = useApi(httpApiRef);
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [outcome, setOutcome] = useState<Outcome>(
    token ? { state: 'verifying' } : { state: 'failed', error: t('pages.verifyEmail.missingToken') },
  );

  useEffect(() => {
    if (!token) return undefined;
    let current = true;
    verifyOnce(http, token).then(
      (reply) => {
        if (!current) return;
        if (reply?.success === false || reply?.error) {
          setOutcome({ state: 'failed', error: reply.error || t('pages.verifyEmail.failedTitle') });
          return;
        }
        const email = reply?.email || readSignupEmail();
        if (email) saveSignupEmail(email);
        setOutcome({ state: 'verified', email });
      },
      (error) => {
        if (current) setOutcome({ state: 'failed', error: verifyErrorText(error) });
      },
    );
    return () => {
      current = false;
    };
  }, [http, token, t]);

  return (
    <AuthLayout title={t('pages.verifyEmail.title')}>
      {outcome.state === 'verifying' && (
        <Stack direction="row" spacing={2} alignItems="center" role="status">
          <CircularProgress size={24} />
          <Typography>{t('pages.verifyEmail.verifying')}</Typography>
        </Stack>
      )}

      {outcome.state === 'verified' && (
        <Stack spacing={3}>
          <Stack direction="row" spacing={2} alignItems="center">
            <Avatar sx={{ bgcolor: 'success.main', width: 48, height: 48 }}>
              <MdiIcon path={mdiCheckDecagramOutline} />
            </Avatar>
            <Box>
              <Typography fontWeight={600}>{t('pages.verifyEmail.success')}</Typography>
              <Typography variant="body2" color="text.secondary">
                {t('pages.verifyEmail.nextStep')}
              </Typography>
            </Box>
          </Stack>
          <Button
            variant="contained"
            size="large"
            disableElevation
            fullWidth
            sx={{ fontWeight: 600 }}
            onClick={() => navigate(createAccountPath(outcome.email))}
          >
            {t('pages.actions.continue')}
          </Button>
        </Stack>
      )}

      {outcome.state === 'failed' && (
        <Stack spacing={2}>
          <Alert severity="error" role="alert">
            {outcome.error}
          </Alert>
          <Stack direction="row" justifyContent="space-between">
            <RouterLink to="/auth/signup/check-email">{t('pages.verifyEmail.startAgain')}</RouterLink>
            <RouterLink to="/auth/login">{t('pages.actions.backToSignIn')}</RouterLink>
          </Stack>
        </Stack>
      )}
    </AuthLayout>
  );
}
