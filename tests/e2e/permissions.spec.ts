import { expect, test } from '@playwright/test';
import { ShellPage } from './pages/ShellPage';
import { DEMO_AGENT, DEMO_COMPANY, NORTHWIND } from './support/demo';
import { signInTo } from './support/session';

// In Northwind Shop the agent role may not view your_account (a per-company override in the demo data).
test('a route without view access is refused with the spec message and the user goes back', async ({ page }) => {
  await signInTo(page, DEMO_AGENT, NORTHWIND);
  const shell = new ShellPage(page);
  await shell.expectMenu(['Dashboard'], ['Account']);

  await page.goto('/dashboard');
  await expect(page.getByText('Welcome back')).toBeVisible();
  // Typing the URL of a denied page: the alert shows and the previous page stays.
  await page.evaluate(() => {
    window.history.pushState({}, '', '/account');
    window.dispatchEvent(new PopStateEvent('popstate'));
  });
  await shell.expectAlert('You do not have permission to access this page.');
  await expect(page).toHaveURL(/\/dashboard/);
  await expect(page.getByRole('heading', { name: 'Change password' })).toHaveCount(0);

  // A fresh load of the denied URL also never shows it.
  await page.goto('/account');
  await expect(page).toHaveURL(/\/dashboard/);
  await shell.expectAlert('You do not have permission to access this page.');
});

test('after a company switch, a user without view access on the current route goes to the root', async ({ page }) => {
  await signInTo(page, DEMO_AGENT, DEMO_COMPANY);
  const shell = new ShellPage(page);
  await shell.openFromMenu('Account');
  await expect(page).toHaveURL(/\/account/);
  await shell.switchCompany(NORTHWIND);
  await expect(page).toHaveURL(/\/dashboard/);
  await expect(shell.companyName).toHaveText(NORTHWIND);
});

test('the API refuses what the console hides: a foreign company and a missing permission', async ({ page, request }) => {
  const login = await request.post('/account/login/', { data: { email: DEMO_AGENT.email, password: DEMO_AGENT.password } });
  const { access, user } = await login.json();
  const northwind = user.companies.find((c: { name: string }) => c.name === NORTHWIND);
  const auth = { Authorization: `Bearer ${access}` };

  const patch = await request.patch(`/api/companies/${northwind.id}/`, { headers: { ...auth, Company: String(northwind.id) }, data: { name: 'Hijacked' } });
  expect(patch.status()).toBe(403);

  const foreign = await request.get('/api/roles/', { headers: { ...auth, Company: '999999' } });
  expect(foreign.status()).toBe(403);
  void page;
});
