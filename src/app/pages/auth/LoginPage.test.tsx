// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpError } from '../../../core';
import { testUser } from '../../../core/account/testUsers';
import { createFakeHttp, withoutClientConfig } from '../../../core/testing/fakeHttp';
import { renderPluginPage } from '../../../core/testing/renderPluginPage';
import { pageTranslations } from '../translations';
import { LoginPage } from './LoginPage';

describe('LoginPage', () => {
  beforeEach(() => localStorage.clear());

  it('prefills the e-mail from ?email= and shows the first message of the first field on failure', async () => {
    const http = createFakeHttp(() => {
      throw new HttpError(400, { non_field_errors: ['Unable to log in with provided credentials.'], email: ['ignored'] });
    });
    renderPluginPage(<LoginPage />, { translations: [pageTranslations], path: '/auth/login?email=ada%40example.com', http });

    expect(screen.getByRole('textbox', { name: 'Email' })).toHaveValue('ada@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'wrong-password');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(await screen.findByText('Unable to log in with provided credentials.')).toBeInTheDocument();
    expect(withoutClientConfig(http.calls)[0]).toMatchObject({ method: 'POST', path: '/account/login/', options: { auth: false, body: { email: 'ada@example.com', password: 'wrong-password' } } });
  });

  it('shows the raw error when the body carries no message', async () => {
    const http = createFakeHttp(() => {
      throw new Error('Failed to fetch');
    });
    renderPluginPage(<LoginPage />, { translations: [pageTranslations], path: '/auth/login', http });
    await userEvent.type(screen.getByRole('textbox', { name: 'Email' }), 'ada@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'secret-secret');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Failed to fetch')).toBeInTheDocument();
  });

  it.each([
    ['account_throttled', /Sign in from a device you have used before, or reset your password by e-mail/],
    ['throttled', /^Too many attempts\. Please try again later\.$/],
  ])('shows the login limit refusal %s in the reader’s words', async (code, words) => {
    const http = createFakeHttp(() => {
      throw new HttpError(429, { detail: 'server words', code });
    });
    renderPluginPage(<LoginPage />, { translations: [pageTranslations], path: '/auth/login', http });
    await userEvent.type(screen.getByRole('textbox', { name: 'Email' }), 'ada@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'secret-secret');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText(words)).toBeInTheDocument();
    expect(screen.queryByText('server words')).not.toBeInTheDocument();
  });

  it('validates before calling the server', async () => {
    const http = createFakeHttp(() => undefined);
    renderPluginPage(<LoginPage />, { translations: [pageTranslations], path: '/auth/login', http });
    await userEvent.type(screen.getByRole('textbox', { name: 'Email' }), 'not-an-address');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Enter a valid email address')).toBeInTheDocument();
    expect(await screen.findByText('This field is required')).toBeInTheDocument();
    expect(withoutClientConfig(http.calls)).toHaveLength(0);
  });

  it('goes where the authProvider says after signing in (no company yet: the picker)', async () => {
    const http = createFakeHttp((method, path) => {
      if (path === '/account/login/') return { access: 'a', refresh: 'r', user: testUser([]) };
      throw new Error(`unexpected ${method} ${path}`);
    });
    renderPluginPage(<LoginPage />, { translations: [pageTranslations], path: '/auth/login', http });
    await userEvent.type(screen.getByRole('textbox', { name: 'Email' }), 'ada@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'secret-secret');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/company/select'));
  });

  it('puts the cursor in the e-mail field, or in the password when the link brought the address', () => {
    const first = renderPluginPage(<LoginPage />, { translations: [pageTranslations], path: '/auth/login', http: createFakeHttp(() => undefined) });
    expect(screen.getByRole('textbox', { name: 'Email' })).toHaveFocus();
    first.unmount();
    renderPluginPage(<LoginPage />, { translations: [pageTranslations], path: '/auth/login?email=ada%40example.com', http: createFakeHttp(() => undefined) });
    expect(screen.getByLabelText('Password')).toHaveFocus();
  });

  it('links to password reset and sign-up', () => {
    renderPluginPage(<LoginPage />, { translations: [pageTranslations], path: '/auth/login', http: createFakeHttp(() => undefined) });
    expect(screen.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute('href', '/auth/reset-password');
    expect(screen.getByRole('link', { name: 'Create an account' })).toHaveAttribute('href', '/auth/signup');
  });
});
