import { Box, Grid, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { permissionApiRef, useAccount, useApiRegistry } from '../../core';
import { ChangePasswordSection } from './ChangePasswordSection';
import { BusinessHoursSection } from './BusinessHoursSection';
import { CompanySettingsSection } from './CompanySettingsSection';
import { ProfileSection } from './ProfileSection';
import { SignOutSection } from './SignOutSection';
import { accountSectionsApiRef } from './sections';

/** /account: profile, password change, company settings (name and logo, business hours) and sign-out. */
export default function AccountPage() {
  const { t } = useTranslation();
  const { user, company } = useAccount();
  const registry = useApiRegistry();
  const permissions = registry.get(permissionApiRef);
  // Sections other plugins add (billing …), each for members who may view its area.
  const extra = registry.has(accountSectionsApiRef)
    ? registry.get(accountSectionsApiRef).list().filter((s) => !s.area || permissions.canView(s.area))
    : [];

  return (
    <Box sx={{ p: { xs: 2, md: 3 }, maxWidth: 1100 }}>
      <Typography variant="h4" component="h1" fontWeight={700}>
        {t('account.title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        {t('account.subtitle')}
      </Typography>
      <Grid container spacing={3}>
        <Grid size={{ xs: 12, md: 6 }}>
          <Stack spacing={3}>
            {user && <ProfileSection user={user} />}
            {company && <CompanySettingsSection company={company} />}
          </Stack>
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <Stack spacing={3}>
            <ChangePasswordSection />
            <SignOutSection />
          </Stack>
        </Grid>
        {company && (
          <Grid size={12}>
            <BusinessHoursSection />
          </Grid>
        )}
        {extra.map(({ id, component: Section }) => (
          <Grid key={id} size={12}>
            <Section />
          </Grid>
        ))}
      </Grid>
    </Box>
  );
}
