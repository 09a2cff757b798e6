// @vitest-environment jsdom
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  AlertHost,
  alertApiRef,
  HttpError,
  overrideApi,
  sessionApiRef,
  socialApiRef,
  SocialDialogClosedError,
  SocialSdkUnavailableError,
  type SocialApi,
} from '../../../core';
import { membership, testUser } from '../../../core/account/testUsers';
import { createFakeHttp } from '../../../core/testing/fakeHttp';
import type { RequestOptions } from '../../../core';
import { renderPluginPage } from '../../../core/testing/renderPluginPage';
import { pageTranslations } from '../translations';
import { SignupCheckEmailPage } from '../signup/SignupCheckEmailPage';
import { LoginPage } from './LoginPage';
import { deferred } from '../../../core/testing/deferred';

/** GET /api/client-config/ of a server with both providers (live or, in demo mode, the fakes). */
const configured = vi.fn(async () => ({
  facebook: { app_id: 'app', config_id: 'cfg', sdk_url: '/sdk.js', version: 'v23.0', page_scopes: [], login_scopes: ['email'] },
  google: { client_id: 'gid', script_url: '/gsi.js' },
}));

/** A SocialApi whose SDK calls answer what each test says (tokens by default). */
function fakeSocial(overrides: Partial<SocialApi> = {}) {
  return {
    clientConfig: configured,
    facebookLogin: vi.fn(async (_scopes: 'login' | 'pages') => 'fb-user-token'),
    facebookEmbeddedSignup: vi.fn(async () => {
      throw new Error('not used here');
    }),
    googleLogin: vi.fn(async () => 'google-access-token'),
    ...overrides,
  } satisfies SocialApi;
}

type Handler = (method: string, path: string, options: RequestOptions) => unknown;

function renderLogin(social: SocialApi, handler: Handler = () => undefined, ui = <LoginPage />, path = '/auth/login') {
  const http = createFakeHttp(handler);
  const page = renderPluginPage(
    <>
      {ui}
      <AlertHost />
    </>,
    { translations: [pageTranslations], path, http, overrides: [overrideApi(socialApiRef, social)] },
  );
  const facebook = () => screen.getByRole('button', { name: 'Continue with Facebook' });
  const google = () => screen.getByRole('button', { name: 'Continue with Google' });
  const alert = () => page.console.get(alertApiRef).getState();
  return { ...page, http, facebook, google, alert };
}

describe('SocialSignInButtons', () => {
  beforeEach(() => localStorage.clear());

  it('shows "or" and both providers under the login form, with their icons', () => {
    const { facebook, google } = renderLogin(fakeSocial());
    expect(screen.getByText('or')).toBeInTheDocument();
    expect(facebook()).toBeEnabled();
    expect(google()).toBeEnabled();
    expect(facebook().querySelector('svg')).not.toBeNull();
    expect(google().querySelector('svg')).not.toBeNull();
    // Below the password form's submit button.
    const buttons = screen.getAllByRole('button').map((b) => b.textContent);
    expect(buttons.indexOf('Continue with Facebook')).toBeGreaterThan(buttons.indexOf('Sign in'));
  });

  it('Facebook: signs in with the SDK token and lands on the dashboard when a company is selected', async () => {
    const social = fakeSocial();
    const { http, facebook, console } = renderLogin(social, (_method, path) => {
      if (path === '/account/facebook/') return { access: 'acc', refresh: 'ref', user: testUser([membership(3)]) };
      throw new Error(`unexpected ${path}`);
    });
    await userEvent.click(facebook());
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/dashboard'));
    expect(social.facebookLogin).toHaveBeenCalledWith('login');
    expect(http.calls).toEqual([
      { method: 'POST', path: '/account/facebook/', options: expect.objectContaining({ auth: false, body: { access_token: 'fb-user-token' } }) },
    ]);
    expect(console.get(sessionApiRef).getRefreshToken()).toBe('ref');
  });

  it('Google: a user without a selected company goes to the company picker', async () => {
    const social = fakeSocial();
    const { http, google } = renderLogin(social, (_method, path) => {
      if (path === '/account/google/') return { access: 'acc', refresh: 'ref', user: testUser([membership(1), membership(2)]) };
      throw new Error(`unexpected ${path}`);
    });
    await userEvent.click(google());
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/company/select'));
    expect(social.googleLogin).toHaveBeenCalledTimes(1);
    expect(http.calls[0]).toMatchObject({ path: '/account/google/', options: { auth: false, body: { access_token: 'google-access-token' } } });
  });

  it('disables both buttons with a spinner on the clicked one while signing in', async () => {
    const sdk = deferred<string>();
    const server = deferred<unknown>();
    const social = fakeSocial({ googleLogin: vi.fn(() => sdk.promise) });
    const { facebook, google } = renderLogin(social, () => server.promise);

    await userEvent.click(google());
    expect(google()).toBeDisabled();
    expect(facebook()).toBeDisabled();
    expect(google()).toHaveAttribute('aria-busy', 'true');
    expect(within(google()).getByRole('progressbar', { hidden: true })).toBeInTheDocument();
    expect(within(facebook()).queryByRole('progressbar', { hidden: true })).toBeNull();

    sdk.resolve('google-access-token'); // the SDK is done, the server still works: still busy
    await waitFor(() => expect(social.googleLogin).toHaveBeenCalled());
    expect(facebook()).toBeDisabled();

    server.reject(new HttpError(401, { non_field_errors: ['Invalid or expired access token.'] }));
    await waitFor(() => expect(google()).toBeEnabled());
    expect(facebook()).toBeEnabled();
    expect(within(google()).queryByRole('progressbar', { hidden: true })).toBeNull();
  });

  it('a closed Facebook dialog warns "Facebook login was closed" and calls nothing', async () => {
    const { http, facebook, alert } = renderLogin(
      fakeSocial({
        facebookLogin: vi.fn(async () => {
          throw new SocialDialogClosedError('facebook');
        }),
      }),
    );
    await userEvent.click(facebook());
    expect(await screen.findByTestId('alert-text')).toHaveTextContent('Facebook login was closed');
    expect(alert().type).toBe('warning');
    expect(http.calls).toHaveLength(0);
    expect(facebook()).toBeEnabled();
    expect(screen.getByTestId('location')).toHaveTextContent('/auth/login');
  });

  it('a closed Google window warns "Google sign-in was closed"', async () => {
    const { google, alert } = renderLogin(
      fakeSocial({
        googleLogin: vi.fn(async () => {
          throw new SocialDialogClosedError('google');
        }),
      }),
    );
    await userEvent.click(google());
    expect(await screen.findByTestId('alert-text')).toHaveTextContent('Google sign-in was closed');
    expect(alert().type).toBe('warning');
  });

  it.each([
    ['facebook', 'Continue with Facebook', 'Facebook could not be loaded. Check your connection or content blocker and try again.'],
    ['google', 'Continue with Google', 'Google could not be loaded. Check your connection or content blocker and try again.'],
  ] as const)('%s: an SDK that cannot load shows an error', async (provider, button, message) => {
    const unavailable = vi.fn(async () => {
      throw new SocialSdkUnavailableError(provider, 'script blocked');
    });
    const { http, alert } = renderLogin(fakeSocial({ clientConfig: configured, ...(provider === 'facebook' ? { facebookLogin: unavailable } : { googleLogin: unavailable }) }));
    await userEvent.click(screen.getByRole('button', { name: button }));
    expect(await screen.findByTestId('alert-text')).toHaveTextContent(message);
    expect(alert().type).toBe('error');
    expect(http.calls).toHaveLength(0);
  });

  it.each([
    ['facebook', 'Continue with Facebook', 'Continue with Google'],
    ['google', 'Continue with Google', 'Continue with Facebook'],
  ] as const)('%s: a provider the server has not configured is not offered', async (provider, hidden, shown) => {
    const clientConfig = vi.fn(async () => ({ ...(await configured()), [provider]: null }));
    renderLogin(fakeSocial({ clientConfig }));
    await waitFor(() => expect(screen.queryByRole('button', { name: hidden })).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: shown })).toBeInTheDocument();
  });

  it('offers no social sign-in (nor its "or") when the server has configured none', async () => {
    renderLogin(fakeSocial({ clientConfig: vi.fn(async () => ({ facebook: null, google: null })) }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Continue with Facebook' })).not.toBeInTheDocument());
    expect(screen.queryByRole('button', { name: 'Continue with Google' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeInTheDocument();
  });

  it.each([
    ['facebook', 'Continue with Facebook', 'Facebook sign-in is not configured on this server.'],
    ['google', 'Continue with Google', 'Google sign-in is not configured on this server.'],
  ] as const)('%s: clicked before the configuration was known, a provider the server has not configured says so', async (provider, button, message) => {
    // The first look-up fails (buttons stay), the one after the click answers null for the provider.
    const clientConfig = vi
      .fn<SocialApi['clientConfig']>()
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValue({ facebook: null, google: null });
    // What the SDK loader throws when GET /api/client-config/ answers null for the provider.
    const notConfigured = vi.fn(async () => {
      throw new SocialSdkUnavailableError(provider, 'not configured');
    });
    const { http, alert } = renderLogin(fakeSocial({ clientConfig, ...(provider === 'facebook' ? { facebookLogin: notConfigured } : { googleLogin: notConfigured }) }));
    await userEvent.click(screen.getByRole('button', { name: button }));
    expect(await screen.findByTestId('alert-text')).toHaveTextContent(message);
    expect(alert().type).toBe('error');
    expect(http.calls).toHaveLength(0);
  });

  it('shows the first message of the server’s answer', async () => {
    const { facebook, alert } = renderLogin(fakeSocial(), () => {
      throw new HttpError(400, { email: ['Your Facebook account has no e-mail address. Sign up with your e-mail instead.'] });
    });
    await userEvent.click(facebook());
    expect(await screen.findByTestId('alert-text')).toHaveTextContent('Your Facebook account has no e-mail address. Sign up with your e-mail instead.');
    expect(alert().type).toBe('error');
    expect(screen.getByTestId('location')).toHaveTextContent('/auth/login');
  });

  it('falls back to "Sign-in failed" when the failure carries no server message', async () => {
    const { google } = renderLogin(fakeSocial(), () => {
      throw new TypeError('Failed to fetch');
    });
    await userEvent.click(google());
    expect(await screen.findByTestId('alert-text')).toHaveTextContent('Sign-in failed');
    expect(google()).toBeEnabled();
  });

  it('is offered on the sign-up page too', async () => {
    const { google } = renderLogin(
      fakeSocial(),
      (_method, path) => {
        if (path === '/account/google/') return { access: 'acc', refresh: 'ref', user: testUser([]) };
        throw new Error(`unexpected ${path}`);
      },
      <SignupCheckEmailPage />,
      '/auth/signup/check-email',
    );
    expect(screen.getByRole('button', { name: 'Continue with Facebook' })).toBeInTheDocument();
    await userEvent.click(google());
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/company/select'));
  });
});
