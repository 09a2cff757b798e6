import { useCallback, useEffect, useRef, useState } from 'react';
import { Alert, AlertTitle, Box, Button, CircularProgress, Stack, Typography } from '@mui/material';
import { mdiFacebook } from '@mdi/js';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { SignupStatusResponse } from '../../../../contract/channels';
import {
  MdiIcon,
  SocialDialogClosedError,
  SocialSdkUnavailableError,
  errorText,
  httpApiRef,
  socialApiRef,
  useAccess,
  useAlert,
  useApi,
  type EmbeddedSignupResult,
} from '../../../core';
import { AskAdminToConnect } from './AskAdminToConnect';
import { IntegrationLayout } from './IntegrationLayout';
import { SignupProgress } from './SignupProgress';
import { isConnectedStatus, submitEmbeddedSignup } from './signupCalls';
import { readSignupData, saveSignupData } from './signupData';
import { useSignupStatusPolling, SIGNUP_POLL_MS } from './useSignupStatusPolling';
import { integrationPath, useSignupOwner } from './useSignupOwner';

/** Meta's Facebook blue (#0866FF) with white text in both themes: 4.8:1 (the older #1877F2 is 4.2:1, below AA). */
const FACEBOOK_BUTTON = { bgcolor: '#0866FF', color: '#FFFFFF', '&:hover': { bgcolor: '#0657D9' } } as const;

type Phase =
  | { kind: 'idle' }
  | { kind: 'facebook' }
  | { kind: 'submitting' }
  | { kind: 'provisioning'; externalId: string; status: SignupStatusResponse | null }
  | { kind: 'failed'; message: string; status: SignupStatusResponse | null }
  | { kind: 'sdk-unavailable'; notConfigured: boolean };

/** /whatsapp-integration/start: only members who can manage channels may connect a number. */
export function StartStep({ pollMs = SIGNUP_POLL_MS }: { pollMs?: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { canManage } = useAccess('channels');
  if (!canManage) {
    // reached by a link: the page says who can connect the number, and the way back
    return (
      <IntegrationLayout stage={1} title={t('whatsappIntegration.askAdmin.title')}>
        <AskAdminToConnect />
        <Button onClick={() => navigate('/channels')}>
          {t('whatsappIntegration.intro.backToChannels')}
        </Button>
      </IntegrationLayout>
    );
  }
  return <StartFlow pollMs={pollMs} />;
}

/**
 * "Continue with Facebook": the embedded signup, then POST embedded_signup/ and the server's
 * progress (polled every 2 s) until the number is connected, already connected or failed.
 * A reload while the server works resumes the polling from the local data.
 */
function StartFlow({ pollMs }: { pollMs: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const social = useApi(socialApiRef);
  const http = useApi(httpApiRef);
  const alert = useAlert();
  const owner = useSignupOwner();
  const mounted = useRef(true);
  const running = useRef(false);
  /** A final status was handled: answers of a poll still in flight are ignored. */
  const settled = useRef(false);

  const [phase, setPhase] = useState<Phase>(() => {
    const saved = readSignupData();
    if (saved?.external_id && saved.current_step === 'provisioning' && saved.company === owner.company && saved.email === owner.email) {
      return { kind: 'provisioning', externalId: saved.external_id, status: null };
    }
    return { kind: 'idle' };
  });

  useEffect(() => {
    mounted.current = true;
    if (phase.kind === 'idle') saveSignupData(owner, { current_step: 'start' });
    return () => {
      mounted.current = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the step is recorded once, on arrival
  }, []);

  /** Acts on a status; true when it is final (polling stops at once, later answers are ignored). */
  const handleStatus = useCallback(
    (status: SignupStatusResponse): boolean => {
      if (!mounted.current || settled.current) return true;
      const externalId = status.external_id || null;
      if (status.already_connected) {
        settled.current = true;
        saveSignupData(owner, { current_step: 'account-already-connected' });
        navigate(integrationPath('account-already-connected'), { replace: true });
        return true;
      }
      if (isConnectedStatus(status)) {
        settled.current = true;
        saveSignupData(owner, { current_step: 'integration-success', external_id: externalId });
        navigate(integrationPath('integration-success'), { replace: true, state: { status } });
        return true;
      }
      if (status.status === 'failed') {
        settled.current = true;
        saveSignupData(owner, { current_step: 'failed', external_id: externalId });
        setPhase({ kind: 'failed', message: status.error ?? t('whatsappIntegration.start.failed.unknown'), status });
        return true;
      }
      if (externalId) {
        saveSignupData(owner, { current_step: 'provisioning', external_id: externalId });
        setPhase({ kind: 'provisioning', externalId, status });
      }
      return false;
    },
    [navigate, owner, t],
  );

  useSignupStatusPolling(phase.kind === 'provisioning' ? phase.externalId : null, handleStatus, pollMs);

  const start = async () => {
    if (running.current) return;
    running.current = true;
    settled.current = false;
    try {
      setPhase({ kind: 'facebook' });
      saveSignupData(owner, { current_step: 'facebook-login' });
      let result: EmbeddedSignupResult;
      try {
        result = await social.facebookEmbeddedSignup();
      } catch (error) {
        if (!mounted.current) return;
        if (error instanceof SocialDialogClosedError) {
          alert.warning(t('whatsappIntegration.start.facebookClosed'));
          saveSignupData(owner, { current_step: 'start' });
          setPhase({ kind: 'idle' });
        } else if (error instanceof SocialSdkUnavailableError) {
          saveSignupData(owner, { current_step: 'start' });
          // No Meta app on the server (GET /api/client-config/ says facebook null): retrying cannot help.
          const config = await Promise.resolve()
            .then(() => social.clientConfig())
            .catch(() => null);
          if (!mounted.current) return;
          setPhase({ kind: 'sdk-unavailable', notConfigured: config?.facebook === null });
        } else {
          saveSignupData(owner, { current_step: 'failed' });
          setPhase({ kind: 'failed', message: errorText(error) || t('whatsappIntegration.start.failed.unknown'), status: null });
        }
        return;
      }
      if (!mounted.current) return;
      const saved = saveSignupData(owner, {
        phone_number_id: result.phone_number_id,
        waba_id: result.waba_id,
        code: result.code,
        non_json_data: result.non_json_data ?? null,
        external_id: null,
        current_step: 'submitting',
      });
      if (!result.phone_number_id) {
        saveSignupData(owner, { current_step: 'failed' });
        setPhase({ kind: 'failed', message: t('whatsappIntegration.start.noPhoneNumber'), status: null });
        return;
      }
      setPhase({ kind: 'submitting' });
      try {
        const status = await submitEmbeddedSignup(http, {
          phone_number_id: result.phone_number_id,
          waba_id: result.waba_id,
          code: result.code,
          non_json_data: result.non_json_data,
          company: owner.company ?? 0,
          email: saved.email ?? '',
        });
        handleStatus({ ...status, external_id: status.external_id || result.phone_number_id });
      } catch (error) {
        if (!mounted.current) return;
        saveSignupData(owner, { current_step: 'failed' });
        setPhase({ kind: 'failed', message: errorText(error) || t('whatsappIntegration.start.failed.unknown'), status: null });
      }
    } finally {
      running.current = false;
    }
  };

  const busy = phase.kind === 'facebook' || phase.kind === 'submitting' || phase.kind === 'provisioning';
  const showProgress = phase.kind === 'submitting' || phase.kind === 'provisioning' || (phase.kind === 'failed' && !!phase.status?.steps.length);
  const progressSteps = phase.kind === 'provisioning' || phase.kind === 'failed' ? phase.status?.steps : undefined;

  return (
    <IntegrationLayout stage={1} title={t('whatsappIntegration.start.title')} subtitle={t('whatsappIntegration.start.subtitle')}>
      <Stack spacing={2.5}>
        {phase.kind === 'sdk-unavailable' && phase.notConfigured && (
          <Box role="status" sx={{ border: 1, borderColor: 'divider', borderRadius: 2, p: 2 }}>
            <Typography fontWeight={600}>{t('whatsappIntegration.start.notConfigured.title')}</Typography>
            <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
              {t('whatsappIntegration.start.notConfigured.message')}
            </Typography>
          </Box>
        )}
        {phase.kind === 'sdk-unavailable' && !phase.notConfigured && (
          <Box role="status" sx={{ border: 1, borderColor: 'divider', borderRadius: 2, p: 2 }}>
            <Typography fontWeight={600}>{t('whatsappIntegration.start.sdkUnavailable.title')}</Typography>
            <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
              {t('whatsappIntegration.start.sdkUnavailable.message')}
            </Typography>
            <Button onClick={start} variant="outlined" size="small" sx={{ mt: 1.5 }}>
              {t('whatsappIntegration.start.sdkUnavailable.retry')}
            </Button>
          </Box>
        )}
        {phase.kind === 'failed' && (
          <Alert
            severity="error"
            action={
              <Button color="inherit" size="small" onClick={start} sx={{ whiteSpace: 'nowrap' }}>
                {t('whatsappIntegration.start.failed.retry')}
              </Button>
            }
          >
            <AlertTitle>{t('whatsappIntegration.start.failed.title')}</AlertTitle>
            {phase.message}
          </Alert>
        )}
        {busy && (
          <Stack direction="row" spacing={1.5} alignItems="center" role="status">
            <CircularProgress size={20} aria-hidden />
            <Typography variant="body2">
              {phase.kind === 'facebook'
                ? t('whatsappIntegration.start.waitingForFacebook')
                : phase.kind === 'submitting'
                  ? t('whatsappIntegration.start.submitting')
                  : t('whatsappIntegration.start.provisioning')}
            </Typography>
          </Stack>
        )}
        {showProgress && <SignupProgress steps={progressSteps} active={phase.kind !== 'failed'} />}
        {(phase.kind === 'idle' || phase.kind === 'facebook') && (
          <Stack direction={{ xs: 'column-reverse', sm: 'row' }} spacing={1.5} justifyContent="space-between">
            <Button onClick={() => navigate(integrationPath('intro-step'))} disabled={busy}>
              {t('whatsappIntegration.start.back')}
            </Button>
            <Button
              variant="contained"
              disableElevation
              onClick={start}
              disabled={busy}
              startIcon={<MdiIcon path={mdiFacebook} />}
              sx={{ fontWeight: 600, ...FACEBOOK_BUTTON }}
            >
              {t('whatsappIntegration.start.continue')}
            </Button>
          </Stack>
        )}
      </Stack>
    </IntegrationLayout>
  );
}
