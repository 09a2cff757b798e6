import {
  accountApiRef,
  authApiRef,
  errorBody,
  MdiIcon,
  ROUTE_PATHS,
  socialApiRef,
  SocialDialogClosedError,
  SocialSdkUnavailableError,
  useAlert,
  useApi,
} from '../../../core';
import { useEffect, useRef, useState } from 'react';
import { Button, CircularProgress, Divider, Stack, Typography } from '@mui/material';
import { mdiFacebook, mdiGoogle } from '../shared/icons';
import { useNotificationContext } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { firstErrorMessage } from '../../../../contract/errors';

export type SocialProvider = 'facebook' | 'google';

const PROVIDERS: { provider: SocialProvider; icon: string; label: string }[] = [
  { provider: 'facebook', icon: mdiFacebook, label: 'pages.social.facebook' },
  { provider: 'google', icon: mdiGoogle, label: 'pages.social.google' },
];

const MESSAGES: Record<SocialProvider, { closed: string; unavailable: string; notConfigured: string }> = {
  facebook: { closed: 'pages.social.facebookClosed', unavailable: 'pages.social.facebookUnavailable', notConfigured: 'pages.social.facebookNotConfigured' },
  google: { closed: 'pages.social.googleClosed', unavailable: 'pages.social.googleUnavailable', notConfigured: 'pages.social.googleNotConfigured' },
};

/**
 * "or" and the Facebook / Google sign-in buttons under a sign-in (or sign-up) form: the provider's
 * SDK gives an access token, POST /account/{provider}/ signs in (creating the account the first
 * time), then the user lands where a password login lands: the dashboard when a company is
 * selected, else the company picker.
 */
export function SocialSignInButtons({ disabled = false }: { disabled?: boolean }) {
  const { t } = useTranslation();
  const social = useApi(socialApiRef);
  const auth = useApi(authApiRef);
  const account = useApi(accountApiRef);
  const alert = useAlert();
  const navigate = useNavigate();
  const { resetNotifications } = useNotificationContext();
  const [busy, setBusy] = useState<SocialProvider | null>(null);
  // Providers the server says it has not configured (GET /api/client-config/ answers null) are not
  // offered at all; until the answer is known every provider shows, and a click still explains.
  const [unconfigured, setUnconfigured] = useState<SocialProvider[]>([]);
  const mounted = useRef(true);
  useEffect(() => {
    let live = true;
    Promise.resolve()
      .then(() => social.clientConfig())
      .then((config) => {
        if (live) setUnconfigured(PROVIDERS.map((p) => p.provider).filter((provider) => config?.[provider] === null));
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [social]);
  useEffect(
    () => () => {
      mounted.current = false;
    },
    [],
  );

  const signIn = async (provider: SocialProvider) => {
    setBusy(provider);
    try {
      const token = provider === 'facebook' ? await social.facebookLogin('login') : await social.googleLogin();
      await auth.socialLogin(provider, token);
      // What react-admin's useLogin does after authProvider.login, with the login's redirect rule.
      resetNotifications();
      navigate(account.getCompanyId() !== null ? ROUTE_PATHS.dashboard : ROUTE_PATHS['company-select']);
    } catch (e) {
      if (e instanceof SocialDialogClosedError) alert.warning(t(MESSAGES[provider].closed));
      // No app id on the server (outside demo mode, GET /api/client-config/ says null): not the user's connection.
      else if (e instanceof SocialSdkUnavailableError) {
        const config = await Promise.resolve()
          .then(() => social.clientConfig())
          .catch(() => null);
        alert.error(t(config?.[provider] === null ? MESSAGES[provider].notConfigured : MESSAGES[provider].unavailable));
      }
      else alert.error(firstErrorMessage(errorBody(e)) ?? t('pages.social.failed'));
      if (mounted.current) setBusy(null);
    }
  };

  const offered = PROVIDERS.filter(({ provider }) => !unconfigured.includes(provider));
  if (offered.length === 0) return null;

  return (
    <>
      <Divider sx={{ my: 2.5 }}>
        <Typography variant="body2" color="text.secondary">
          {t('pages.social.or')}
        </Typography>
      </Divider>
      <Stack spacing={1.5}>
        {offered.map(({ provider, icon, label }) => (
          <Button
            key={provider}
            variant="outlined"
            color="inherit"
            size="large"
            fullWidth
            disabled={disabled || busy !== null}
            aria-busy={busy === provider}
            onClick={() => void signIn(provider)}
            startIcon={busy === provider ? <CircularProgress size={18} color="inherit" aria-hidden /> : <MdiIcon path={icon} aria-hidden />}
            sx={{ py: 1.1, fontWeight: 600, borderColor: 'divider' }}
          >
            {t(label)}
          </Button>
        ))}
      </Stack>
    </>
  );
}
