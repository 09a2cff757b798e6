import { expect, test } from '@playwright/test';
import { ChannelsPage } from './pages/ChannelsPage';
import { LoginPage } from './pages/LoginPage';
import { DEMO_ADMIN, NORTHWIND } from './support/demo';
import { signInTo } from './support/session';

test('a visitor signs in with Google (the local fake), and closing Facebook’s dialog only warns', async ({ page }) => {
  const login = new LoginPage(page);
  await login.open();

  await page.getByRole('button', { name: 'Continue with Facebook' }).click();
  await page.getByTestId('fake-facebook-cancel').click();
  await expect(page.getByText('Facebook login was closed')).toBeVisible();
  await login.expectOnPage();

  await page.getByRole('button', { name: 'Continue with Google' }).click();
  const email = `google-${Date.now().toString(36)}@gmail.example.com`;
  await page.getByTestId('fake-google-email').fill(email);
  await page.getByTestId('fake-google-first-name').fill('Grace');
  await page.getByTestId('fake-google-continue').click();
  // A new account has no company yet.
  await expect(page).toHaveURL(/\/company\/select/);
});

test('an admin connects a Facebook page and its Instagram account, then disconnects the page', async ({ page }) => {
  await signInTo(page, DEMO_ADMIN, NORTHWIND);
  const channels = new ChannelsPage(page);
  await channels.open();

  const first = `Page${Date.now().toString(36)}`;
  await page.getByRole('button', { name: 'Connect Facebook page' }).first().click();
  await page.getByTestId('fake-facebook-first-name').fill(first);
  await page.getByTestId('fake-facebook-continue').click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText(`${first}'s Shop`)).toBeVisible();
  await dialog.getByRole('button', { name: 'Connect' }).click();
  await expect(page.getByText('Channel connected')).toBeVisible();
  await expect(channels.channel(`${first}'s Shop`)).toContainText('Connected');

  // The same Facebook user's Instagram account is still free.
  await page.getByRole('button', { name: 'Connect Instagram account' }).first().click();
  await page.getByTestId('fake-facebook-first-name').fill(first);
  await page.getByTestId('fake-facebook-continue').click();
  await expect(dialog.getByText(`@${first.toLowerCase()}.shop`)).toBeVisible();
  await dialog.getByRole('button', { name: 'Connect' }).click();
  await expect(channels.channel(`@${first.toLowerCase()}.shop`)).toContainText('Connected');

  // Disconnecting keeps the conversations and shows the channel as disconnected.
  const card = channels.channel(`${first}'s Shop`);
  await card.getByRole('button', { name: /Disconnect/ }).click();
  await page.getByRole('dialog').getByRole('button', { name: /Disconnect/ }).click();
  await expect(page.getByText('Channel disconnected')).toBeVisible();
  await expect(card).toContainText('Disconnected');
});
