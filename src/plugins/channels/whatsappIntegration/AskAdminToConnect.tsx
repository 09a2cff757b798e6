import { Alert, AlertTitle, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useAccount } from '../../../core';
import { useCompanyAdmins } from './useCompanyAdmins';

/**
 * For members who may not connect numbers (no manage access to channels): who can, instead of a
 * "Get started" that would be refused one step later. Names the admins when the member may read the team.
 */
export function AskAdminToConnect() {
  const { t } = useTranslation();
  const { company } = useAccount();
  const admins = useCompanyAdmins(true);
  return (
    <Alert severity="info" variant="outlined" data-testid="ask-admin" sx={{ mb: 2 }}>
      <AlertTitle>{t('whatsappIntegration.askAdmin.title')}</AlertTitle>
      <Typography variant="body2">{t('whatsappIntegration.askAdmin.message', { company: company?.name ?? '' })}</Typography>
      {admins && (
        <Typography variant="body2" sx={{ mt: 0.5 }} data-testid="company-admins">
          {t('whatsappIntegration.askAdmin.admins', { names: admins.join(', '), smart_count: admins.length, count: admins.length })}
        </Typography>
      )}
    </Alert>
  );
}
