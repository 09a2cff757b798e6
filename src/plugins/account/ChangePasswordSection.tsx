import { firstFailing, required, useAlert, useApi, httpApiRef, validateOnChangeAndBlur, NewPasswordInputs, SubmitButton } from '../../core';
import { useState } from 'react';
import { Box } from '@mui/material';
import { Form, PasswordInput } from 'react-admin';
import { useTranslation } from 'react-i18next';
import { passwordChangeErrorText } from './passwordChangeError';
import { SectionCard } from '../../core/components/SectionCard';

const emptyForm = { old_password: '', new_password1: '', new_password2: '' };

/** POST /account/password/change/ with the current and the new password. */
export function ChangePasswordSection() {
  const { t } = useTranslation();
  const http = useApi(httpApiRef);
  const alert = useAlert();
  const [saving, setSaving] = useState(false);
  /** Bumped after a success to clear the form. */
  const [formKey, setFormKey] = useState(0);

  const onSubmit = async (values: Record<string, unknown>) => {
    setSaving(true);
    try {
      await http.post('/account/password/change/', {
        old_password: values.old_password,
        new_password1: values.new_password1,
        new_password2: values.new_password2,
      });
      alert.success(t('account.password.success'));
      setFormKey((key) => key + 1);
    } catch (e) {
      alert.error(passwordChangeErrorText(e, t('account.password.failed')));
    } finally {
      setSaving(false);
    }
  };

  return (
    <SectionCard title={t('account.password.title')} subtitle={t('account.password.subtitle')}>
      <Form key={formKey} onSubmit={onSubmit} defaultValues={emptyForm} {...validateOnChangeAndBlur} noValidate>
        <PasswordInput
          source="old_password"
          label={t('account.password.old')}
          autoComplete="current-password"
          validate={firstFailing(required())}
          fullWidth
        />
        <NewPasswordInputs
          passwordSource="new_password1"
          passwordLabel={t('account.password.new')}
          confirmSource="new_password2"
          confirmLabel={t('account.password.confirm')}
          mismatchMessage={t('account.password.mismatch')}
        />
        <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
          <SubmitButton label={t('account.password.submit')} loading={saving} />
        </Box>
      </Form>
    </SectionCard>
  );
}
