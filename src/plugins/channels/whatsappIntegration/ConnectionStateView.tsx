import { Button, CircularProgress, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useAccess, useAccount } from '../../../core';
import { AskAdminToConnect } from './AskAdminToConnect';
import { IntegrationLayout } from './IntegrationLayout';
import { integrationPath } from './useSignupOwner';
import { useWhatsAppConnection } from './useWhatsAppConnection';

/**
 * An outcome page (integration-success, account-already-connected) opened without a signup of its
 * own — a bookmark, a link, a reload after the local data was cleared: shows where the company
 * really is, read from its channels. Connected: the numbers and the way to chats. Nothing connected:
 * says so, with the next step (connect, or whom to ask).
 */
export function ConnectionStateView() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { company } = useAccount();
  const { canManage } = useAccess('channels');
  const { loading, numbers } = useWhatsAppConnection(true);

  if (loading) {
    return (
      <IntegrationLayout stage={2} title={t('whatsappIntegration.state.checkingTitle')}>
        <Stack direction="row" spacing={1.5} alignItems="center" role="status">
          <CircularProgress size={20} aria-hidden />
          <Typography variant="body2">{t('whatsappIntegration.state.checking')}</Typography>
        </Stack>
      </IntegrationLayout>
    );
  }

  if (numbers.length > 0) {
    return (
      <IntegrationLayout stage={2} finished title={t('whatsappIntegration.success.title')}>
        <Stack spacing={2.5}>
          {numbers.map((number) => (
            <Typography key={number} variant="h6" component="p" data-testid="connected-number">
              {t('whatsappIntegration.success.number', { number })}
            </Typography>
          ))}
          <Typography color="text.secondary">{t('whatsappIntegration.success.message')}</Typography>
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

  return (
    <IntegrationLayout stage={0} title={t('whatsappIntegration.state.notConnectedTitle')}>
      <Stack spacing={2.5}>
        <Typography>{t('whatsappIntegration.state.notConnected', { company: company?.name ?? '' })}</Typography>
        {!canManage && <AskAdminToConnect />}
        <Stack direction={{ xs: 'column-reverse', sm: 'row' }} spacing={1.5} justifyContent="flex-end">
          <Button onClick={() => navigate('/channels')}>
            {t('whatsappIntegration.success.goToChannels')}
          </Button>
          {canManage && (
            <Button
              variant="contained"
              disableElevation
              onClick={() => navigate(integrationPath('intro-step'))}
              sx={{ fontWeight: 600 }}
            >
              {t('whatsappIntegration.state.connect')}
            </Button>
          )}
        </Stack>
      </Stack>
    </IntegrationLayout>
  );
}
