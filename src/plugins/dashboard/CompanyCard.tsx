import { CompanyAvatar } from '../../core';
import type { ReactNode } from 'react';
import { Card, CardContent, CircularProgress, Divider, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { CompanyMembership } from '../../../contract/api';
import { useCompanyAccount } from './useCompanyAccount';

/** The selected company: logo, name, the user's role, the plan and the member count. */
export function CompanyCard({ company }: { company: CompanyMembership }) {
  const { t } = useTranslation();
  const { account, loading } = useCompanyAccount(company.id);

  return (
    <Card variant="outlined" sx={{ borderRadius: 3, height: '100%' }}>
      <CardContent sx={{ p: 3 }}>
        <Typography variant="overline" color="text.secondary">
          {t('dashboard.company.title')}
        </Typography>
        <Stack direction="row" spacing={2} alignItems="center" sx={{ mt: 1, mb: 2.5 }}>
          <CompanyAvatar name={company.name} logo={company.logo} size={56} />
          <Typography variant="h6" component="h2" fontWeight={600} sx={{ wordBreak: 'break-word' }}>
            {company.name}
          </Typography>
        </Stack>
        <Divider />
        <Stack divider={<Divider flexItem />} sx={{ mt: 0.5 }}>
          <Fact label={t('dashboard.company.role')} value={company.role?.name} />
          <Fact label={t('dashboard.company.plan')} value={company.subscription_plan_name || t('dashboard.company.defaultPlan')} />
          <Fact
            label={t('dashboard.company.members')}
            value={
              loading ? (
                <CircularProgress size={16} aria-label={t('dashboard.company.loadingMembers')} />
              ) : (
                account?.members_count ?? t('dashboard.company.unavailable')
              )
            }
          />
        </Stack>
      </CardContent>
    </Card>
  );
}

function Fact({ label, value }: { label: string; value: ReactNode }) {
  return (
    <Stack direction="row" justifyContent="space-between" alignItems="center" sx={{ py: 1.25, minHeight: 44 }}>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="body2" fontWeight={600} component="div">
        {value}
      </Typography>
    </Stack>
  );
}
