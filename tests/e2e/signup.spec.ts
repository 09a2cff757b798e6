import { expect, test } from '@playwright/test';
import { SignupPage } from './pages/SignupPage';
import { LoginPage } from './pages/LoginPage';
import { CompanyPickerPage } from './pages/CompanyPickerPage';
import { linkFromLatestEmail } from './support/outbox';
import { uniqueEmail } from './support/demo';

test('a new business signs up, verifies the e-mail, logs in and creates its company', async ({ page, request }) => {
  const email = uniqueEmail('signup');
  const signup = new SignupPage(page);
  await signup.openCheckEmail();
  await signup.submitEmail(email);
  await signup.expectWaitingForVerification(email);

  // The verification e-mail went to the local outbox; following its link verifies the address.
  const link = await linkFromLatestEmail(request, email, '/auth/signup/verify-account-email');
  const verifyTab = await page.context().newPage();
  await verifyTab.goto(link);
  await expect(verifyTab.getByText('Your e-mail address is verified.')).toBeVisible();
  await verifyTab.close();

  // The waiting page notices the verification on its own and moves on to account creation.
  await expect(page).toHaveURL(/\/auth\/signup\/create-account/, { timeout: 15_000 });
  await signup.fillAccount({ firstName: 'Grace', lastName: 'Hopper', password: 'Sturdy-Passphrase-42' });

  const login = new LoginPage(page);
  await login.expectOnPage();
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await login.signIn(email, 'Sturdy-Passphrase-42');

  // No company yet: the picker shows its empty state and offers to create one.
  const picker = new CompanyPickerPage(page);
  await picker.expectOnPage();
  await expect(page.getByText('No companies found.')).toBeVisible();
  await picker.createCompany('Hopper Logistics');
  await expect(page).toHaveURL(/\/dashboard/);
  await expect(page.getByText('Hopper Logistics').first()).toBeVisible();
});

test('an address that already has an account is told to sign in instead', async ({ page }) => {
  const signup = new SignupPage(page);
  await signup.openCheckEmail();
  await signup.submitEmail('admin@demo.test');
  await expect(page.getByRole('link', { name: /sign in/i }).first()).toBeVisible();
  await expect(page).toHaveURL(/check-email/);
});
