import { useCallback, useEffect, useState } from 'react';
import { Alert, Button, CircularProgress, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import type { SignupStatusResponse } from '../../../../contract/channels';
import { errorText, httpApiRef, useApi } from '../../../core';
import { IntegrationLayout } from './IntegrationLayout';
import { SignupProgress } from './SignupProgress';
import { ConnectionStateView } from './ConnectionStateView';
import { fetchDisplayNumber, fetchSignupStatus, isConnectedStatus, retrySignup } from './signupCalls';
import { clearSignupData, readSignupData, saveSignupData } from './signupData';
import { SIGNUP_POLL_MS, useSignupStatusPolling } from './useSignupStatusPolling';
import { useSignupOwner } from './useSignupOwner';

/**
 * /whatsapp-integration/integration-success: the connected number; after a partial_failure the
 * failed step with "Retry setup" (POST retry/, then polling again). The local signup data is
 * cleared once the signup is completed.
 */
export function IntegrationSuccessStep({ pollMs = SIGNUP_POLL_MS }: { pollMs?: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const http = useApi(httpApiRef);
  const owner = useSignupOwner();
  const location = useLocation();
  const fromNavigation = (location.state as { status?: SignupStatusResponse } | null)?.status ?? null;
  const [externalId] = useState(() => fromNavigation?.external_id || readSignupData()?.external_id || null);
  const [status, setStatus] = useState<SignupStatusResponse | null>(fromNavigation);
  const [number, setNumber] = useState<string | null>(null);
  const [retrying, setRetrying] = useState(false);
  const [retryError, setRetryError] = useState<string | null>(null);
  /** The saved signup is unknown to the server (expired, another database): no signup to show. */
  const [lookupFailed, setLookupFailed] = useState(false);

  // A reload: the status comes from the server.
  useEffect(() => {
    if (status || !externalId) return undefined;
    let cancelled = false;
    fetchSignupStatus(http, externalId).then(
      (answer) => !cancelled && setStatus(answer),
      () => !cancelled && setLookupFailed(true),
    );
    return () => {
      cancelled = true;
    };
  }, [externalId, http, status]);

  useEffect(() => {
    if (status?.status === 'completed') clearSignupData();
    else saveSignupData(owner, { current_step: 'integration-success', ...(externalId ? { external_id: externalId } : {}) });
  }, [status?.status, owner, externalId]);

  const channelId = status?.channel_id ?? 0;
  const statusExternalId = status?.external_id ?? '';
  useEffect(() => {
    if (!channelId && !statusExternalId) return undefined;
    let cancelled = false;
    fetchDisplayNumber(http, { channel_id: channelId, external_id: statusExternalId }).then(
      (found) => !cancelled && setNumber(found),
      () => undefined,
    );
    return () => {
      cancelled = true;
    };
  }, [channelId, statusExternalId, http]);

  const inProgress = status?.status === 'in_progress';
  const onPolled = useCallback((answer: SignupStatusResponse) => {
    setStatus(answer);
    return answer.status !== 'in_progress';
  }, []);
  useSignupStatusPolling(inProgress && externalId ? externalId : null, onPolled, pollMs);

  const retry = async () => {
    if (!externalId || retrying) return;
    setRetrying(true);
    setRetryError(null);
    try {
      setStatus(await retrySignup(http, externalId));
    } catch (error) {
      setRetryError(errorText(error));
    } finally {
      setRetrying(false);
    }
  };

  // Opened without a signup of its own (a link, a bookmark): the company's real state, not a success never seen.
  if (!status && (!externalId || lookupFailed)) return <ConnectionStateView />;

  const failedStep = status?.steps.find((s) => s.status === 'failed') ?? null;
  const partial = status?.status === 'partial_failure' || (status?.status === 'failed' && !!failedStep);

  return (
    <IntegrationLayout stage={2} finished={status?.status === 'completed'} title={t(titleKey(status))}>
      <Stack spacing={2.5}>
        {!status && (
          <Stack direction="row" spacing={1.5} alignItems="center" role="status">
            <CircularProgress size={20} aria-hidden />
            <Typography variant="body2">{t('whatsappIntegration.state.checking')}</Typography>
          </Stack>
        )}
        {number && (
          <Typography variant="h6" component="p" data-testid="connected-number">
            {t('whatsappIntegration.success.number', { number })}
          </Typography>
        )}
        {status && isConnectedStatus(status) && <Typography color="text.secondary">{t('whatsappIntegration.success.message')}</Typography>}
        {inProgress && (
          <>
            <Stack direction="row" spacing={1.5} alignItems="center" role="status">
              <CircularProgress size={20} aria-hidden />
              <Typography variant="body2">{t('whatsappIntegration.success.retrying')}</Typography>
            </Stack>
            <SignupProgress steps={status?.steps} active />
          </>
        )}
        {!inProgress && partial && (
          <Alert
            severity="warning"
            action={
              <Button color="inherit" size="small" onClick={retry} disabled={retrying || !externalId} sx={{ whiteSpace: 'nowrap' }}>
                {t('whatsappIntegration.success.retry')}
              </Button>
            }
          >
            {t('whatsappIntegration.success.partial', {
              step: failedStep ? t(`whatsappIntegration.steps.${failedStep.name}`) : status?.error ?? '',
            })}
            {(failedStep?.error || status?.error) && (
              <Typography variant="body2" sx={{ mt: 0.5 }}>
                {failedStep?.error ?? status?.error}
              </Typography>
            )}
            <Typography variant="body2" sx={{ mt: 0.5 }}>
              {t('whatsappIntegration.success.partialHelp')}
            </Typography>
          </Alert>
        )}
        {retryError && <Alert severity="error">{t('whatsappIntegration.success.retryFailed', { error: retryError })}</Alert>}
        <Stack direction={{ xs: 'column-reverse', sm: 'row' }} spacing={1.5} justifyContent="flex-end">
          <Button onClick={() => navigate('/channels')}>
            {t('whatsappIntegration.success.goToChannels')}
          </Button>
          <Button variant="contained" disableElevation onClick={() => navigate('/chats')} sx={{ fontWeight: 600 }}>
            {t('whatsappIntegration.success.openChats')}
          </Button>
        </Stack>
      </Stack>
    </IntegrationLayout>
  );
}

/** The page's title says where the signup stands: still checking, setting up, failed or connected. */
function titleKey(status: SignupStatusResponse | null): string {
  if (!status) return 'whatsappIntegration.state.checkingTitle';
  if (status.status === 'in_progress') return 'whatsappIntegration.state.settingUpTitle';
  if (status.status === 'failed') return 'whatsappIntegration.start.failed.title';
  return 'whatsappIntegration.success.title';
}
