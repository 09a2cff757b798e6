import { useEffect, useState } from 'react';
import { Box, Button, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { IntegrationLayout } from './IntegrationLayout';
import { ConnectionStateView } from './ConnectionStateView';
import { readSignupData, saveSignupData } from './signupData';
import { useSignupOwner } from './useSignupOwner';

/** /whatsapp-integration/account-already-connected: the number is connected to this or another company. */
export function AlreadyConnectedStep() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const owner = useSignupOwner();
  // Arrived from a signup that answered "already connected" (the start page saved this step), or a
  // reload of it; anything else (a link, a bookmark) shows the company's real state instead.
  const [arrived] = useState(() => {
    const saved = readSignupData();
    return saved?.current_step === 'account-already-connected' && saved.email === owner.email && saved.company === owner.company;
  });

  useEffect(() => {
    if (arrived) saveSignupData(owner, { current_step: 'account-already-connected' });
  }, [owner, arrived]);

  if (!arrived) return <ConnectionStateView />;

  return (
    <IntegrationLayout stage={2} title={t('whatsappIntegration.alreadyConnected.title')}>
      <Stack spacing={2}>
        <Typography>{t('whatsappIntegration.alreadyConnected.message')}</Typography>
        <Box>
          <Typography variant="subtitle2" component="h2">
            {t('whatsappIntegration.alreadyConnected.whatToDo')}
          </Typography>
          <Box component="ul" sx={{ pl: 2.5, my: 1, '& li': { mb: 0.5 } }}>
            <Typography component="li" variant="body2">
              {t('whatsappIntegration.alreadyConnected.thisCompany')}
            </Typography>
            <Typography component="li" variant="body2">
              {t('whatsappIntegration.alreadyConnected.otherCompany')}
            </Typography>
          </Box>
        </Box>
        <Stack direction="row" justifyContent="flex-end">
          <Button variant="contained" disableElevation onClick={() => navigate('/channels')} sx={{ fontWeight: 600 }}>
            {t('whatsappIntegration.alreadyConnected.goToChannels')}
          </Button>
        </Stack>
      </Stack>
    </IntegrationLayout>
  );
}
