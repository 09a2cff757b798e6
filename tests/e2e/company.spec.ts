import { expect, test } from '@playwright/test';
import { CompanyPickerPage } from './pages/CompanyPickerPage';
import { LoginPage } from './pages/LoginPage';
import { ShellPage } from './pages/ShellPage';
import { DEMO_ADMIN, DEMO_COMPANY, NORTHWIND } from './support/demo';

test('the company picker counts, filters case-insensitively and shows plans, then opens the dashboard', async ({ page }) => {
  const login = new LoginPage(page);
  await login.open();
  await login.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);

  const picker = new CompanyPickerPage(page);
  await picker.expectOnPage();
  await picker.expectResultCount('2 results');
  await expect(picker.row(DEMO_COMPANY)).toContainText('Growth');
  await expect(picker.row(NORTHWIND)).toContainText('Free plan');
  await expect(picker.row(NORTHWIND)).toContainText('Admin');

  await picker.filter('NORTH');
  await picker.expectResultCount('1 result');
  await expect(picker.row(DEMO_COMPANY)).toHaveCount(0);

  await picker.filter('no such company');
  await expect(page.getByText('No companies found.')).toBeVisible();

  await picker.filter('demo');
  await picker.choose(DEMO_COMPANY);
  await expect(page).toHaveURL(/\/dashboard/);
  const shell = new ShellPage(page);
  await expect(shell.companyName).toHaveText(DEMO_COMPANY);
  await expect(page.getByText(`Welcome back, ${DEMO_ADMIN.firstName}`)).toBeVisible();

  // Switching company from the app bar changes the workspace shown.
  await shell.switchCompany(NORTHWIND);
  await expect(page).toHaveURL(/\/dashboard/);
  await expect(shell.companyName).toHaveText(NORTHWIND);
});

test('shell routes need login, then a company', async ({ page }) => {
  await page.goto('/dashboard');
  await new LoginPage(page).expectOnPage();
  await new LoginPage(page).signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
  await new CompanyPickerPage(page).expectOnPage();
  await page.goto('/account');
  await new CompanyPickerPage(page).expectOnPage();
});
