import { useEffect } from 'react';
import { Button, List, ListItem, ListItemIcon, ListItemText, Stack, Typography } from '@mui/material';
import { mdiAccountKeyOutline, mdiCellphoneMessage, mdiCellphoneRemove } from '@mdi/js';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { MdiIcon, useAccess, useAccount } from '../../../core';
import { AskAdminToConnect } from './AskAdminToConnect';
import { IntegrationLayout } from './IntegrationLayout';
import { saveSignupData } from './signupData';
import { integrationPath, useSignupOwner } from './useSignupOwner';

const NEEDS = [
  { key: 'facebook', icon: mdiAccountKeyOutline },
  { key: 'phone', icon: mdiCellphoneMessage },
  { key: 'notInUse', icon: mdiCellphoneRemove },
] as const;

/** /whatsapp-integration/intro-step: what the user needs before connecting a number; who to ask when it is not them. */
export function IntroStep() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { company } = useAccount();
  const { canManage } = useAccess('channels');
  const owner = useSignupOwner();

  useEffect(() => {
    saveSignupData(owner, { current_step: 'intro-step' });
  }, [owner]);

  return (
    <IntegrationLayout stage={0} title={t('whatsappIntegration.intro.title')} subtitle={t('whatsappIntegration.intro.subtitle', { company: company?.name ?? '' })}>
      <Typography variant="subtitle2" component="h2">
        {t('whatsappIntegration.intro.needsTitle')}
      </Typography>
      <List>
        {NEEDS.map(({ key, icon }) => (
          <ListItem key={key} disableGutters alignItems="flex-start">
            <ListItemIcon sx={{ minWidth: 40, mt: 0.5 }}>
              <MdiIcon path={icon} color="primary" />
            </ListItemIcon>
            <ListItemText primary={t(`whatsappIntegration.intro.needs.${key}`)} />
          </ListItem>
        ))}
      </List>
      {!canManage && <AskAdminToConnect />}
      <Stack direction={{ xs: 'column-reverse', sm: 'row' }} spacing={1.5} justifyContent="space-between" sx={{ mt: 1 }}>
        <Button onClick={() => navigate('/channels')}>
          {t('whatsappIntegration.intro.backToChannels')}
        </Button>
        {/* Members who may not connect a number are not offered a start they would be refused. */}
        {canManage && (
          <Button variant="contained" disableElevation onClick={() => navigate(integrationPath('start'))} sx={{ fontWeight: 600 }}>
            {t('whatsappIntegration.intro.getStarted')}
          </Button>
        )}
      </Stack>
    </IntegrationLayout>
  );
}
