import { Button, Stack, Typography } from '@mui/material';
import { mdiLogout } from '@mdi/js';
import { useLogout } from 'react-admin';
import { useTranslation } from 'react-i18next';
import { SectionCard } from '../../core/components/SectionCard';
import { MdiIcon } from '../../core';

/** Signs out through the authProvider and returns to the login page. */
export function SignOutSection() {
  const { t } = useTranslation();
  const logout = useLogout();
  return (
    <SectionCard title={t('account.signOut.title')}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} alignItems={{ sm: 'center' }} justifyContent="space-between">
        <Typography variant="body2" color="text.secondary">
          {t('account.signOut.subtitle')}
        </Typography>
        <Button
          variant="outlined"
          color="error"
          startIcon={<MdiIcon path={mdiLogout} />}
          onClick={() => logout({}, '/auth/login')}
          sx={{ fontWeight: 600, flexShrink: 0 }}
        >
          {t('account.signOut.action')}
        </Button>
      </Stack>
    </SectionCard>
  );
}
