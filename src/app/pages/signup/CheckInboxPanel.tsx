import { errorText } from '../../../core';
import { useState } from 'react';
import { Alert, Avatar, Box, Button, LinearProgress, Stack, Typography } from '@mui/material';
import { mdiEmailFastOutline } from '../shared/icons';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useApi, httpApiRef, MdiIcon } from '../../../core';
import { onboardingCalls } from './onboardingCalls';
import { createAccountPath } from './signupEmail';
import { useVerificationPolling } from './useVerificationPolling';

interface CheckInboxPanelProps {
  email: string;
  needsWhatsappNumber: boolean;
  onUseAnotherEmail: () => void;
}

/** "Check your inbox": waits for the address to be verified (polling every 3 s) and offers to resend. */
export function CheckInboxPanel({ email, needsWhatsappNumber, onUseAnotherEmail }: CheckInboxPanelProps) {
  const { t } = useTranslation();
  const http = useApi(httpApiRef);
  const navigate = useNavigate();
  const [resendState, setResendState] = useState<{ sending: boolean; message?: string; error?: string }>({ sending: false });

  useVerificationPolling(email, () => navigate(createAccountPath(email)));

  const resend = async () => {
    setResendState({ sending: true });
    try {
      const sent = await onboardingCalls.submit(http, email, needsWhatsappNumber);
      setResendState(sent ? { sending: false, message: t('pages.checkInbox.resent') } : { sending: false, error: t('pages.checkInbox.sendFailed') });
    } catch (e) {
      setResendState({ sending: false, error: errorText(e, t('pages.checkInbox.sendFailed')) });
    }
  };

  return (
    <Stack spacing={2.5}>
      <Stack direction="row" spacing={2} alignItems="flex-start">
        <Avatar sx={{ bgcolor: 'secondary.light', color: 'primary.main', width: 48, height: 48 }}>
          <MdiIcon path={mdiEmailFastOutline} />
        </Avatar>
        <Box>
          <Typography>
            {t('pages.checkInbox.body')} <Box component="strong" sx={{ wordBreak: 'break-all' }}>{email}</Box>
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
            {t('pages.checkInbox.instructions')}
          </Typography>
        </Box>
      </Stack>

      <Box role="status" aria-live="polite">
        <LinearProgress sx={{ borderRadius: 1, mb: 1 }} />
        <Typography variant="caption" color="text.secondary">
          {t('pages.checkInbox.waiting')}
        </Typography>
      </Box>

      {resendState.message && <Alert severity="success">{resendState.message}</Alert>}
      {resendState.error && (
        <Alert severity="error" role="alert">
          {resendState.error}
        </Alert>
      )}

      <Stack direction="row" alignItems="center" justifyContent="space-between" flexWrap="wrap" gap={1}>
        <Typography variant="body2" color="text.secondary" component="div">
          {t('pages.checkInbox.notReceived')}{' '}
          <Button size="small" onClick={resend} disabled={resendState.sending} sx={{ minWidth: 0 }}>
            {t('pages.actions.resend')}
          </Button>
        </Typography>
        <Button size="small" color="inherit" onClick={onUseAnotherEmail}>
          {t('pages.checkInbox.useAnother')}
        </Button>
      </Stack>
    </Stack>
  );
}
