// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpError } from '../../../core';
import { createFakeHttp } from '../../../core/testing/fakeHttp';
import { renderPage } from '../testing/renderPage';
import { SignupCheckEmailPage } from './SignupCheckEmailPage';
import { SignupCreateAccountPage } from './SignupCreateAccountPage';
import { SignupVerifyEmailPage } from './SignupVerifyEmailPage';

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

describe('SignupCheckEmailPage', () => {
  it('tells an address that already has an account to sign in instead', async () => {
    const http = createFakeHttp(() => ({ email: 'ada@example.com', has_account: true, invited: false, companies: [] }));
    renderPage(<SignupCheckEmailPage />, { path: '/auth/signup/check-email', http });
    await userEvent.type(screen.getByRole('textbox', { name: 'Email' }), 'ada@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText(/already exists for ada@example.com/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in instead' })).toHaveAttribute('href', '/auth/login?email=ada%40example.com');
    expect(http.calls.map((c) => c.path)).toEqual(['/api/invites/check_email/']);
  });

  it('sends the request, mentions the inviting companies, and moves on once the address is verified', async () => {
    let verified = false;
    const http = createFakeHttp((_method, path) => {
      if (path === '/api/invites/check_email/') return { email: 'new@example.com', has_account: false, invited: true, companies: ['Demo Company'] };
      if (path === '/api/onboarding-request/submit/') return { success: true };
      if (path === '/api/onboarding-request/status/') return { verified };
      throw new Error(path);
    });
    renderPage(<SignupCheckEmailPage />, { path: '/auth/signup/check-email', http });
    expect(screen.getByRole('checkbox', { name: 'I need a WhatsApp number' })).toBeChecked();
    await userEvent.type(screen.getByRole('textbox', { name: 'Email' }), 'new@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));

    expect(await screen.findByText('Check your inbox')).toBeInTheDocument();
    expect(screen.getByText('new@example.com')).toBeInTheDocument();
    expect(screen.getByText('You have been invited to join Demo Company.')).toBeInTheDocument();
    expect(http.calls[1]).toMatchObject({ path: '/api/onboarding-request/submit/', options: { auth: false, body: { email: 'new@example.com', needs_whatsapp_number: true } } });
    expect(sessionStorage.getItem('signup.email')).toBe('new@example.com');

    verified = true;
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/auth/signup/create-account?email=new%40example.com'), { timeout: 5000 });
    expect(http.calls.find((c) => c.path === '/api/onboarding-request/status/')?.options).toMatchObject({ auth: false, query: { email: 'new@example.com' } });
  });

  it('shows the first field message when the request fails', async () => {
    const http = createFakeHttp(() => {
      throw new HttpError(400, { email: ['Enter a valid email address.'] });
    });
    renderPage(<SignupCheckEmailPage />, { path: '/auth/signup/check-email', http });
    await userEvent.type(screen.getByRole('textbox', { name: 'Email' }), 'new@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Enter a valid email address.')).toBeInTheDocument();
  });
});

describe('SignupVerifyEmailPage', () => {
  it('confirms the verification and continues to account creation with the reply e-mail', async () => {
    const http = createFakeHttp(() => ({ success: true, email: 'new@example.com' }));
    renderPage(<SignupVerifyEmailPage />, { path: '/auth/signup/verify-account-email?token=good', route: '/auth/signup/verify-account-email', http });
    expect(await screen.findByText('Your e-mail address is verified.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/auth/signup/create-account?email=new%40example.com');
  });

  it("shows the reply's error", async () => {
    const http = createFakeHttp(() => {
      throw new HttpError(400, { success: false, error: 'This link has expired.' });
    });
    renderPage(<SignupVerifyEmailPage />, { path: '/auth/signup/verify-account-email?token=old', route: '/auth/signup/verify-account-email', http });
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
    renderPage(<SignupCreateAccountPage />, { path: '/auth/signup/create-account', http });
    expect(screen.getByRole('textbox', { name: 'Email' })).toHaveValue('grace@example.com');
    await fill();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/auth/login?email=grace%40example.com'));
    expect(http.calls[0]).toMatchObject({
      path: '/account/registration/',
      options: { auth: false, body: { first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com', password1: 'Sturdy-Passphrase-42', password2: 'Sturdy-Passphrase-42' } },
    });
  });

  it('registers from an invite link: e-mail from the link, the invite token in the body, no stored sign-up e-mail needed', async () => {
    const http = createFakeHttp(() => ({ detail: 'created' }));
    renderPage(<SignupCreateAccountPage />, { path: '/auth/signup/create-account?invite=tok-123&email=new%40example.com', route: '/auth/signup/create-account', http });
    expect(screen.getByRole('textbox', { name: 'Email' })).toHaveValue('new@example.com');
    await fill();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/auth/login?email=new%40example.com'));
    expect(http.calls).toHaveLength(1);
    expect(http.calls[0]).toMatchObject({ path: '/account/registration/', options: { auth: false, body: { email: 'new@example.com', invite: 'tok-123' } } });
  });

  it('sends no invite field without an invite link', async () => {
    const http = createFakeHttp(() => ({ detail: 'created' }));
    renderPage(<SignupCreateAccountPage />, { path: '/auth/signup/create-account?email=grace%40example.com', route: '/auth/signup/create-account', http });
    await fill();
    await waitFor(() => expect(http.calls).toHaveLength(1));
    expect(http.calls[0].options.body).not.toHaveProperty('invite');
  });

  it("shows the server's message on failure", async () => {
    const http = createFakeHttp(() => {
      throw new HttpError(400, { email: ['A user is already registered with this e-mail address.'] });
    });
    renderPage(<SignupCreateAccountPage />, { path: '/auth/signup/create-account?email=grace%40example.com', http });
    await fill();
    expect(await screen.findByText('A user is already registered with this e-mail address.')).toBeInTheDocument();
  });
});
