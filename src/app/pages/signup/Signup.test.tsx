// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpError } from '../../../core';
import { createFakeHttp, withoutClientConfig } from '../../../core/testing/fakeHttp';
import { renderPluginPage } from '../../../core/testing/renderPluginPage';
import { pageTranslations } from '../translations';
import { SignupCheckEmailPage } from './SignupCheckEmailPage';
import { SignupCreateAccountPage } from './SignupCreateAccountPage';
import { SignupVerifyEmailPage } from './SignupVerifyEmailPage';

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

describe('SignupCheckEmailPage', () => {
  it('sends the request without asking whether the address has an account, and moves on once the address is verified', async () => {
    let verified = false;
    const http = createFakeHttp((_method, path) => {
      if (path === '/api/onboarding-request/submit/') return { success: true };
      if (path === '/api/onboarding-request/status/') return { verified };
      throw new Error(path);
    });
    renderPluginPage(<SignupCheckEmailPage />, { translations: [pageTranslations], path: '/auth/signup/check-email', http });
    expect(screen.getByRole('checkbox', { name: 'I need a WhatsApp number' })).toBeChecked();
    await userEvent.type(screen.getByRole('textbox', { name: 'Email' }), 'new@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));

    expect(await screen.findByText('Check your inbox')).toBeInTheDocument();
    expect(screen.getByText('new@example.com')).toBeInTheDocument();
    // The same page for every address: the e-mail tells the owner of an existing account to sign in.
    expect(screen.getByText(/If this address already has an account, the e-mail tells you how to sign in instead./)).toBeInTheDocument();
    expect(http.calls.map((c) => c.path)).not.toContain('/api/invites/check_email/');
    expect(withoutClientConfig(http.calls)[0]).toMatchObject({ path: '/api/onboarding-request/submit/', options: { auth: false, body: { email: 'new@example.com', needs_whatsapp_number: true } } });
    expect(sessionStorage.getItem('signup.email')).toBe('new@example.com');

    verified = true;
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/auth/signup/create-account?email=new%40example.com'), { timeout: 5000 });
    expect(http.calls.find((c) => c.path === '/api/onboarding-request/status/')?.options).toMatchObject({ auth: false, query: { email: 'new@example.com' } });
  });

  it('shows the first field message when the request fails', async () => {
    const http = createFakeHttp(() => {
      throw new HttpError(400, { email: ['Enter a valid email address.'] });
    });
    renderPluginPage(<SignupCheckEmailPage />, { translations: [pageTranslations], path: '/auth/signup/check-email', http });
    await userEvent.type(screen.getByRole('textbox', { name: 'Email' }), 'new@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Enter a valid email address.')).toBeInTheDocument();
  });
});

describe('SignupVerifyEmailPage', () => {
  it('confirms the verification and continues to account creation with the reply e-mail', async () => {
    const http = createFakeHttp(() => ({ success: true, email: 'new@example.com' }));
    renderPluginPage(<SignupVerifyEmailPage />, { translations: [pageTranslations], path: '/auth/signup/verify-account-email?token=good', route: '/auth/signup/verify-account-email', http });
    expect(await screen.findByText('Your e-mail address is verified.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/auth/signup/create-account?email=new%40example.com');
  });

  it("shows the reply's error", async () => {
    const http = createFakeHttp(() => {
      throw new HttpError(400, { success: false, error: 'This link has expired.' });
    });
    renderPluginPage(<SignupVerifyEmailPage />, { translations: [pageTranslations], path: '/auth/signup/verify-account-email?token=old', route: '/auth/signup/verify-account-email', http });
    expect(await screen.findByText('This link has expired.')).toBeInTheDocument();
  });
});

describe('SignupCreateAccountPage', () => {
  async function fill() {
    await userEvent.type(screen.getByRole('textbox', { name: 'First name' }), 'Grace');
    await userEvent.type(screen.getByRole('textbox', { name: 'Last name' }), 'Hopper');
    await userEvent.type(screen.getByLabelText('Password'), 'Sturdy-Passphrase-42');
    await userEvent.type(screen.getByLabelText('Confirm password'), 'Sturdy-Passphrase-42');
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }));
  }

  it('registers with the prefilled e-mail and goes to login with it', async () => {
    sessionStorage.setItem('signup.email', 'grace@example.com');
    const http = createFakeHttp(() => ({ detail: 'created' }));
    renderPluginPage(<SignupCreateAccountPage />, { translations: [pageTranslations], path: '/auth/signup/create-account', http });
    expect(screen.getByRole('textbox', { name: 'Email' })).toHaveValue('grace@example.com');
    await fill();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/auth/login?email=grace%40example.com'));
    expect(http.calls[0]).toMatchObject({
      path: '/account/registration/',
      options: { auth: false, body: { first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com', password1: 'Sturdy-Passphrase-42', password2: 'Sturdy-Passphrase-42' } },
    });
  });

  it('registers from an invite link: names the inviting company, e-mail from the link, the invite token in the body', async () => {
    const http = createFakeHttp((_method, path) =>
      path === '/api/invites/check_email/' ? { email: 'new@example.com', invited: true, companies: ['Demo Company'], has_account: false } : { detail: 'created' },
    );
    renderPluginPage(<SignupCreateAccountPage />, { translations: [pageTranslations], path: '/auth/signup/create-account?invite=tok-123&email=new%40example.com', route: '/auth/signup/create-account', http });
    expect(screen.getByRole('textbox', { name: 'Email' })).toHaveValue('new@example.com');
    expect(await screen.findByText('Demo Company invited you to join them. Create your account to accept.')).toBeInTheDocument();
    expect(http.calls[0]).toMatchObject({ path: '/api/invites/check_email/', options: { auth: false, query: { email: 'new@example.com', token: 'tok-123' } } });
    await fill();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/auth/login?email=new%40example.com'));
    expect(http.calls).toHaveLength(2);
    expect(http.calls[1]).toMatchObject({ path: '/account/registration/', options: { auth: false, body: { email: 'new@example.com', invite: 'tok-123' } } });
  });

  it('sends the holder of an invite link whose address has an account to sign in', async () => {
    const http = createFakeHttp(() => ({ email: 'ada@example.com', invited: true, companies: ['Northwind Shop'], has_account: true }));
    renderPluginPage(<SignupCreateAccountPage />, { translations: [pageTranslations], path: '/auth/signup/create-account?invite=tok-9&email=ada%40example.com', route: '/auth/signup/create-account', http });
    expect(await screen.findByText('Northwind Shop invited ada@example.com, which already has an account. Sign in to answer the invitation.')).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'Sign in' })[0]).toHaveAttribute('href', '/auth/login?email=ada%40example.com');
  });

  it('sends no invite field without an invite link', async () => {
    const http = createFakeHttp(() => ({ detail: 'created' }));
    renderPluginPage(<SignupCreateAccountPage />, { translations: [pageTranslations], path: '/auth/signup/create-account?email=grace%40example.com', route: '/auth/signup/create-account', http });
    await fill();
    await waitFor(() => expect(http.calls).toHaveLength(1));
    expect(http.calls[0].path).toBe('/account/registration/');
    expect(http.calls[0].options.body).not.toHaveProperty('invite');
  });

  it("shows the server's message on failure", async () => {
    const http = createFakeHttp(() => {
      throw new HttpError(400, { email: ['Verify this e-mail address before creating an account.'] });
    });
    renderPluginPage(<SignupCreateAccountPage />, { translations: [pageTranslations], path: '/auth/signup/create-account?email=grace%40example.com', http });
    await fill();
    expect(await screen.findByText('Verify this e-mail address before creating an account.')).toBeInTheDocument();
  });
});
