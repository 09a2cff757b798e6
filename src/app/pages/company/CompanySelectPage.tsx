import { Link, Typography } from '@mui/material';
import { useLogout } from 'react-admin';
import { useTranslation } from 'react-i18next';
import { useAccount, useSelectCompany } from '../../../core';
import { AuthLayout } from '../shared/AuthLayout';
import { CompanyPicker } from './CompanyPicker';
import { PendingInvitations } from './PendingInvitations';

/** /company/select: pick the company (tenant) to work in, and answer the invitations waiting for the user. */
export function CompanySelectPage() {
  const { t } = useTranslation();
  const { user, companyId } = useAccount();
  const selectCompany = useSelectCompany();
  const logout = useLogout();

  return (
    <AuthLayout
      maxWidth={480}
      title={t('pages.companySelect.title')}
      subtitle={t('pages.companySelect.subtitle')}
      footer={
        <>
          {user?.email && (
            <Typography component="span" variant="body2" sx={{ mr: 1 }}>
              {user.email}
            </Typography>
          )}
          <Link component="button" type="button" variant="body2" underline="hover" fontWeight={500} onClick={() => logout({}, '/auth/login')}>
            {t('pages.actions.signOut')}
          </Link>
        </>
      }
    >
      <PendingInvitations />
      <CompanyPicker companies={user?.companies ?? []} selectedId={companyId ?? null} onSelect={selectCompany} />
    </AuthLayout>
  );
}
