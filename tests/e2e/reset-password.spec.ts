import { expect, test } from '@playwright/test';
import { ResetPasswordPage } from './pages/ResetPasswordPage';
import { LoginPage } from './pages/LoginPage';
import { createAccountViaApi } from './support/accounts';
import { linkFromLatestEmail } from './support/outbox';
import { uniqueEmail } from './support/demo';

test('a user who forgot the password resets it from the e-mailed link and signs in with the new one', async ({ page, request }) => {
  const email = uniqueEmail('reset');
  await createAccountViaApi(request, { email, password: 'Original-Secret-77' });

  const reset = new ResetPasswordPage(page);
  await reset.request(email);
  await reset.expectMessage(/reset link has been sent|check your/i);

  const link = await linkFromLatestEmail(request, email, '/auth/reset-password/');
  await reset.confirm(link, 'Brand-New-Secret-88');
  await reset.expectMessage('Password reset successful');

  const login = new LoginPage(page);
  await login.expectOnPage();
  await login.signIn(email, 'Original-Secret-77');
  await login.expectError('Unable to log in with provided credentials.');
  await login.signIn(email, 'Brand-New-Secret-88');
  await expect(page).toHaveURL(/\/company\/select/);

  // The link is single-use.
  await reset.confirm(link, 'Another-Secret-99');
  await reset.expectMessage('Password reset failed');
});
