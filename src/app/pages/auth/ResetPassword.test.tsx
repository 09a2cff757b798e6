// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpError } from '../../../core';
import { createFakeHttp } from '../../../core/testing/fakeHttp';
import { renderPluginPage } from '../../../core/testing/renderPluginPage';
import { pageTranslations } from '../translations';
import { ResetPasswordConfirmPage } from './ResetPasswordConfirmPage';
import { ResetPasswordRequestPage } from './ResetPasswordRequestPage';

describe('ResetPasswordRequestPage', () => {
  beforeEach(() => localStorage.clear());

  it('says a link was sent when the server accepts the address', async () => {
    const http = createFakeHttp(() => ({ detail: 'sent' }));
    renderPluginPage(<ResetPasswordRequestPage />, { translations: [pageTranslations], path: '/auth/reset-password', http });
    await userEvent.type(screen.getByRole('textbox', { name: 'Email' }), 'ada@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByText(/a reset link has been sent/)).toHaveTextContent('ada@example.com');
    expect(http.calls[0]).toMatchObject({ path: '/account/reset-password/', options: { auth: false, body: { email: 'ada@example.com' } } });
  });

  it("shows 'Invalid email address' when the request fails", async () => {
    const http = createFakeHttp(() => {
      throw new HttpError(400, { email: ['Enter a valid email address.'] });
    });
    renderPluginPage(<ResetPasswordRequestPage />, { translations: [pageTranslations], path: '/auth/reset-password', http });
    await userEvent.type(screen.getByRole('textbox', { name: 'Email' }), 'ada@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByText('Invalid email address')).toBeInTheDocument();
  });
});

describe('ResetPasswordConfirmPage', () => {
  beforeEach(() => localStorage.clear());
  const route = '/auth/reset-password/:token';

  async function fill(password: string, confirm: string) {
    await userEvent.type(screen.getByLabelText('New password'), password);
    await userEvent.type(screen.getByLabelText('Confirm password'), confirm);
    await userEvent.click(screen.getByRole('button', { name: 'Reset password' }));
  }

  it('requires both passwords to match before calling the server', async () => {
    const http = createFakeHttp(() => undefined);
    renderPluginPage(<ResetPasswordConfirmPage />, { translations: [pageTranslations], path: '/auth/reset-password/tok-1', route, http });
    await fill('Brand-New-Secret-88', 'Something-Else-88');
    expect(await screen.findByText('Passwords do not match')).toBeInTheDocument();
    expect(http.calls).toHaveLength(0);
  });

  it("sends token and password, says 'Password reset successful' and goes to login", async () => {
    const http = createFakeHttp(() => ({ detail: 'ok' }));
    const { alertText } = renderPluginPage(<ResetPasswordConfirmPage />, { translations: [pageTranslations], path: '/auth/reset-password/tok-1', route, http });
    await fill('Brand-New-Secret-88', 'Brand-New-Secret-88');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/auth/login'));
    expect(alertText()).toBe('Password reset successful');
    expect(http.calls[0]).toMatchObject({ path: '/account/reset-password/confirm/', options: { auth: false, body: { token: 'tok-1', password: 'Brand-New-Secret-88' } } });
  });

  it("shows 'Password reset failed' when the token is refused", async () => {
    const http = createFakeHttp(() => {
      throw new HttpError(400, { token: ['Invalid or expired token.'] });
    });
    renderPluginPage(<ResetPasswordConfirmPage />, { translations: [pageTranslations], path: '/auth/reset-password/used', route, http });
    await fill('Brand-New-Secret-88', 'Brand-New-Secret-88');
    expect(await screen.findByText('Password reset failed')).toBeInTheDocument();
  });
});
