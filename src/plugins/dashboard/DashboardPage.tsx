import { Box, Grid, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { isServedPath, useAccount, useApi, useConsole, featureFlagsApiRef, permissionApiRef } from '../../core';
import { CompanyCard } from './CompanyCard';
import { GettingStartedCard } from './GettingStartedCard';
import { TodayCard } from './TodayCard';
import { availableSteps, gettingStartedSteps } from './gettingStartedSteps';

/** /dashboard: a greeting, the selected company and the next steps the user can take. */
export default function DashboardPage() {
  const { t } = useTranslation();
  const { user, company } = useAccount();
  const featureFlags = useApi(featureFlagsApiRef);
  const permissions = useApi(permissionApiRef);
  const { routes, resources } = useConsole();
  const steps = availableSteps(
    gettingStartedSteps,
    (feature) => featureFlags.isEnabled(feature),
    (area) => permissions.canView(area),
    (path) => isServedPath(path, routes, resources),
  );
  // Today's figures come from the stats plugin's API: shown when that plugin is loaded (it serves /stats).
  const showToday = isServedPath('/stats', routes, resources);

  return (
    <Box sx={{ p: { xs: 2, md: 3 }, maxWidth: 1200 }}>
      <Typography variant="h4" component="h1" fontWeight={700} sx={{ mb: 0.5 }}>
        {user?.first_name ? t('dashboard.greeting', { name: user.first_name }) : t('dashboard.greetingNoName')}
      </Typography>
      {company && (
        <Typography color="text.secondary" sx={{ mb: 3 }}>
          {t('dashboard.subtitle', { company: company.name })}
        </Typography>
      )}
      <Grid container spacing={3}>
        {company && showToday && (
          <Grid size={12}>
            <TodayCard />
          </Grid>
        )}
        {company && (
          <Grid size={{ xs: 12, md: 5, lg: 4 }}>
            <CompanyCard company={company} />
          </Grid>
        )}
        <Grid size={{ xs: 12, md: 7, lg: 8 }}>
          <GettingStartedCard steps={steps} withProgress={!!company && showToday} />
        </Grid>
      </Grid>
    </Box>
  );
}
