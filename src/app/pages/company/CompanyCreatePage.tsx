import { LogoInput, errorText, firstFailing, SubmitButton } from '../../../core';
import { useState } from 'react';
import { Box, Stack } from '@mui/material';
import { Form, TextInput } from 'react-admin';
import { useTranslation } from 'react-i18next';
import type { Company } from '../../../../contract/api';
import { maxLength, required, useApi, useSelectCompany, authApiRef, httpApiRef, validateOnChangeAndBlur } from '../../../core';
import { AuthLayout } from '../shared/AuthLayout';
import { FormError } from '../shared/FormError';
import { RouterLink } from '../shared/RouterLink';

export const COMPANY_NAME_MAX = 100;

/** /company/create: creates a company, reloads the user's memberships and opens the new company. */
export function CompanyCreatePage() {
  const { t } = useTranslation();
  const http = useApi(httpApiRef);
  const auth = useApi(authApiRef);
  const selectCompany = useSelectCompany();
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const onSubmit = async (values: Record<string, unknown>) => {
    setError(null);
    setSubmitting(true);
    try {
      const company = await http.post<Company>('/api/companies/', {
        name: String(values.name).trim(),
        logo: (values.logo as string | null) || null,
      });
      await auth.loadUser();
      selectCompany(company.id, { to: '/dashboard' }); // a new company starts on its dashboard
    } catch (e) {
      setError(errorText(e));
      setSubmitting(false);
    }
  };

  return (
    <AuthLayout
      title={t('pages.companyCreate.title')}
      subtitle={t('pages.companyCreate.subtitle')}
      footer={<RouterLink to="/company/select">{t('pages.companyCreate.backToCompanies')}</RouterLink>}
    >
      <Form onSubmit={onSubmit} defaultValues={{ name: '', logo: null }} {...validateOnChangeAndBlur} noValidate>
        <FormError>{error}</FormError>
        <Stack>
          <TextInput
            source="name"
            label={t('pages.fields.companyName')}
            autoComplete="organization"
            validate={firstFailing(required(), maxLength(COMPANY_NAME_MAX))}
            fullWidth
          />
          <LogoInput source="logo" nameSource="name" />
          <Box sx={{ mt: 1 }}>
            <SubmitButton block label={t('pages.actions.createCompany')} loading={submitting} />
          </Box>
        </Stack>
      </Form>
    </AuthLayout>
  );
}
