import { errorText, useAlert, useApi, httpApiRef, SubmitButton } from '../../../core';
import { useEffect, useState } from 'react';
import { Alert, Box, Stack } from '@mui/material';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { AuthLayout } from '../shared/AuthLayout';
import { FormError } from '../shared/FormError';
import { EmailInput, maxLengthRule, NewPasswordInputs, requiredRule, SimpleForm, TextInput } from '../shared/form';
import { RouterLink } from '../shared/RouterLink';
import { clearSignupEmail, readSignupEmail } from './signupEmail';
import { onboardingCalls } from './onboardingCalls';

interface AccountForm {
  first_name: string;
  last_name: string;
  email: string;
  password: string;
  confirm: string;
}

/**
 * /auth/signup/create-account: last sign-up step, registers the (verified) address. Opened from an
 * invitation link (`?invite=…&email=…`), it names the inviting company and, when the address already
 * has an account, sends its owner to sign in and answer the invitation there.
 */
export function SignupCreateAccountPage() {
  const { t } = useTranslation();
  const http = useApi(httpApiRef);
  const alert = useAlert();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const invite = params.get('invite');
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const invitation = useInvitation(invite, params.get('email'));

  const onSubmit = async (values: Record<string, unknown>) => {
    const form = values as unknown as AccountForm;
    const address = form.email.trim();
    setError(null);
    setSubmitting(true);
    try {
      await http.post(
        '/account/registration/',
        {
          first_name: form.first_name.trim(),
          last_name: (form.last_name ?? '').trim(),
          email: address,
          password1: form.password,
          password2: form.confirm,
          // An invite link (/auth/signup/create-account?invite=…&email=…) registers without the onboarding check.
          ...(invite ? { invite } : {}),
        },
        { auth: false },
      );
      clearSignupEmail();
      alert.success(t('pages.createAccount.success'));
      navigate(`/auth/login?email=${encodeURIComponent(address)}`, { replace: true });
    } catch (e) {
      setError(errorText(e));
      setSubmitting(false);
    }
  };

  const defaultValues: AccountForm = {
    first_name: '',
    last_name: '',
    email: params.get('email') || readSignupEmail(),
    password: '',
    confirm: '',
  };

  return (
    <AuthLayout
      title={t('pages.createAccount.title')}
      subtitle={t('pages.createAccount.subtitle')}
      footer={
        <>
          {t('pages.checkEmail.haveAccount')} <RouterLink to="/auth/login">{t('pages.actions.signIn')}</RouterLink>
        </>
      }
    >
      {invitation?.hasAccount ? (
        <Alert
          severity="info"
          sx={{ mb: 2 }}
          action={
            <RouterLink to={`/auth/login?email=${encodeURIComponent(invitation.email)}`} sx={{ whiteSpace: 'nowrap', alignSelf: 'center', mr: 1 }}>
              {t('pages.actions.signIn')}
            </RouterLink>
          }
        >
          {t('pages.createAccount.hasAccount', { company: invitation.company, email: invitation.email })}
        </Alert>
      ) : (
        invitation && (
          <Alert severity="info" sx={{ mb: 2 }}>
            {t('pages.createAccount.invited', { company: invitation.company })}
          </Alert>
        )
      )}
      <SimpleForm onSubmit={onSubmit} defaultValues={{ ...defaultValues }}>
        <FormError>{error}</FormError>
        <Stack>
          <Stack direction={{ xs: 'column', sm: 'row' }} columnGap={2}>
            <TextInput name="first_name" label={t('pages.fields.firstName')} autoComplete="given-name" rules={[requiredRule, maxLengthRule(150)]} />
            <TextInput name="last_name" label={t('pages.fields.lastName')} autoComplete="family-name" rules={[maxLengthRule(150)]} />
          </Stack>
          <EmailInput label={t('pages.fields.email')} />
          <NewPasswordInputs
            passwordName="password"
            passwordLabel={t('pages.fields.password')}
            confirmName="confirm"
            confirmLabel={t('pages.fields.confirmPassword')}
            mismatchMessage={t('pages.validation.passwordsMismatch')}
          />
          <Box sx={{ mt: 1 }}>
            <SubmitButton block label={t('pages.actions.createAccount')} loading={submitting} />
          </Box>
        </Stack>
      </SimpleForm>
    </AuthLayout>
  );
}

interface Invitation {
  email: string;
  company: string;
  hasAccount: boolean;
}

/** With an invitation link's token, the company that invited the address (nothing without one, or on failure). */
function useInvitation(token: string | null, email: string | null): Invitation | null {
  const http = useApi(httpApiRef);
  const [invitation, setInvitation] = useState<Invitation | null>(null);
  useEffect(() => {
    if (!token || !email) return;
    let current = true;
    onboardingCalls
      .checkInvite(http, email, token)
      .then((check) => {
        if (current && check?.invited && check.companies.length > 0) {
          setInvitation({ email: check.email, company: check.companies[0], hasAccount: check.has_account === true });
        }
      })
      .catch(() => undefined); // the form works without it; registration reports a bad link
    return () => {
      current = false;
    };
  }, [http, token, email]);
  return invitation;
}
