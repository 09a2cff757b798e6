import { expect, test } from '@playwright/test';
import { LoginPage } from './pages/LoginPage';
import { ShellPage } from './pages/ShellPage';
import { AccountPage } from './pages/AccountPage';
import { CompanyPickerPage } from './pages/CompanyPickerPage';
import { createAccountViaApi } from './support/accounts';
import { uniqueEmail } from './support/demo';

test('a user changes the password, sees the spec messages, signs out and back in', async ({ page, request }) => {
  const email = uniqueEmail('account');
  await createAccountViaApi(request, { email, password: 'First-Password-11', firstName: 'Linus' });

  const login = new LoginPage(page);
  await login.open();
  await login.signIn(email, 'First-Password-11');
  await new CompanyPickerPage(page).createCompany('Linus Hardware');
  await expect(page).toHaveURL(/\/dashboard/);

  const shell = new ShellPage(page);
  await shell.openFromMenu('Account');
  const account = new AccountPage(page);
  await account.expectProfile(email);

  // Wrong old password: the server's message is not on new_password2, so the generic one shows.
  await account.changePassword('Not-The-Password-1', 'Second-Password-22', 'Second-Password-22');
  await shell.expectAlert('Password update failed');

  // A too common new password: the server's new_password2 message shows.
  await account.changePassword('First-Password-11', 'password123', 'password123');
  await shell.expectAlert(/too common/i);

  await account.changePassword('First-Password-11', 'Second-Password-22', 'Second-Password-22');
  await shell.expectAlert('Password successful changed');

  // Sign-out goes to login, and the shell is closed afterwards.
  await shell.signOut();
  await login.expectOnPage();
  await page.goto('/dashboard');
  await login.expectOnPage();

  await login.signIn(email, 'Second-Password-22');
  await expect(page).toHaveURL(/\/dashboard/);
});

test('an admin renames the company and the shell shows the new name', async ({ page, request }) => {
  const email = uniqueEmail('rename');
  await createAccountViaApi(request, { email, password: 'Rename-Password-33' });
  const login = new LoginPage(page);
  await login.open();
  await login.signIn(email, 'Rename-Password-33');
  await new CompanyPickerPage(page).createCompany('Old Name Ltd');
  const shell = new ShellPage(page);
  await expect(shell.companyName).toHaveText('Old Name Ltd');
  await shell.openFromMenu('Account');
  await new AccountPage(page).renameCompany('New Name Ltd');
  await expect(shell.companyName).toHaveText('New Name Ltd');
});

test('light and dark theme, and the language switches at run time', async ({ page, request }) => {
  const email = uniqueEmail('prefs');
  await createAccountViaApi(request, { email, password: 'Prefs-Password-44' });
  const login = new LoginPage(page);
  await login.open();
  await login.signIn(email, 'Prefs-Password-44');
  await new CompanyPickerPage(page).createCompany('Prefs Co');
  const shell = new ShellPage(page);

  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const light = await background();
  await shell.toggleTheme();
  await expect.poll(background).not.toBe(light);

  await shell.chooseLanguage('Français');
  await expect(shell.menuEntry('Tableau de bord')).toBeVisible();
  await shell.chooseLanguage('English');
  await expect(shell.menuEntry('Dashboard')).toBeVisible();
});
