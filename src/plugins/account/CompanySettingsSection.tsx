import { CompanyAvatar, LogoInput, errorText, firstFailing, SubmitButton } from '../../core';
import { useState } from 'react';
import { Alert, Box, Stack, Typography } from '@mui/material';
import { Form, TextInput } from 'react-admin';
import { useTranslation } from 'react-i18next';
import type { CompanyMembership } from '../../../contract/api';
import { maxLength, required, useAccess, useAlert, useApi, authApiRef, httpApiRef, validateOnChangeAndBlur } from '../../core';
import { SectionCard } from '../../core/components/SectionCard';

const COMPANY_NAME_MAX = 100;

/** Name and logo of the selected company: editable with manage access to your_account, read-only otherwise. */
export function CompanySettingsSection({ company }: { company: CompanyMembership }) {
  const { t } = useTranslation();
  const { canManage } = useAccess('your_account');
  return (
    <SectionCard title={t('account.company.title')}>
      {canManage ? <CompanySettingsForm company={company} /> : <CompanySummary company={company} />}
    </SectionCard>
  );
}

function CompanySummary({ company }: { company: CompanyMembership }) {
  const { t } = useTranslation();
  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={2} alignItems="center">
        <CompanyAvatar name={company.name} logo={company.logo} size={56} />
        <Box>
          <Typography variant="caption" color="text.secondary">
            {t('account.company.name')}
          </Typography>
          <Typography fontWeight={600}>{company.name}</Typography>
        </Box>
      </Stack>
      <Alert severity="info" variant="outlined">
        {t('account.company.readOnly')}
      </Alert>
    </Stack>
  );
}

function CompanySettingsForm({ company }: { company: CompanyMembership }) {
  const { t } = useTranslation();
  const http = useApi(httpApiRef);
  const auth = useApi(authApiRef);
  const alert = useAlert();
  const [saving, setSaving] = useState(false);

  const onSubmit = async (values: Record<string, unknown>) => {
    setSaving(true);
    try {
      await http.patch(`/api/companies/${company.id}/`, {
        name: String(values.name).trim(),
        logo: (values.logo as string | null) || null,
      });
      await auth.loadUser();
      alert.success(t('account.company.saved'));
    } catch (e) {
      alert.error(errorText(e));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Form key={company.id} onSubmit={onSubmit} defaultValues={{ name: company.name, logo: company.logo }} {...validateOnChangeAndBlur} noValidate>
      <TextInput
        source="name"
        label={t('account.company.name')}
        autoComplete="organization"
        validate={firstFailing(required(), maxLength(COMPANY_NAME_MAX))}
        fullWidth
      />
      <LogoInput source="logo" nameSource="name" />
      <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
        <SubmitButton label={t('account.company.save')} loading={saving} />
      </Box>
    </Form>
  );
}
