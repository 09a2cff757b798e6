import { expect, test } from '@playwright/test';
import { SignupPage } from './pages/SignupPage';
import { LoginPage } from './pages/LoginPage';
import { CompanyPickerPage } from './pages/CompanyPickerPage';
import { linkFromLatestEmail } from './support/outbox';
import { uniqueEmail } from './support/demo';
import { createAccountViaApi } from './support/accounts';

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

test('an address that already has an account gets the same page; the e-mail tells its owner to sign in', async ({ page, request }) => {
  const owner = { email: uniqueEmail('signup-known'), password: 'Sturdy-Passphrase-42' };
  await createAccountViaApi(request, owner);

  const signup = new SignupPage(page);
  await signup.openCheckEmail();
  await signup.submitEmail(owner.email);
  // Exactly what a new address sees: nothing on the page says the account exists.
  await signup.expectWaitingForVerification(owner.email);

  // The owner's inbox explains it, with a link to sign in.
  const link = await linkFromLatestEmail(request, owner.email, '/auth/login');
  const mailTab = await page.context().newPage();
  await mailTab.goto(link);
  const login = new LoginPage(mailTab);
  await login.expectOnPage();
  await expect(mailTab.getByLabel('Email')).toHaveValue(owner.email);
  await mailTab.close();
});
