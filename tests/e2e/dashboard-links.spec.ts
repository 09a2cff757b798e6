import { expect, test } from '@playwright/test';
import { CompanyPickerPage } from './pages/CompanyPickerPage';
import { ShellPage } from './pages/ShellPage';
import { TodayAtAGlance } from './pages/StatsPage';
import { expectNoSeriousA11yViolations } from './support/accessibility';
import { createAccountViaApi } from './support/accounts';
import { DEMO_ADMIN, DEMO_COMPANY, uniqueEmail } from './support/demo';
import { signInTo } from './support/session';

test('the dashboard’s Unassigned figure opens the inbox filtered to unassigned conversations, a filter the inbox keeps in its URL', async ({ page }) => {
  await signInTo(page, DEMO_ADMIN, DEMO_COMPANY);
  const today = new TodayAtAGlance(page);
  await today.open();
  await expect(today.figure('unassigned')).toHaveAttribute('href', '/chats?filter=unassigned');
  await today.figure('unassigned').click();
  await expect(page).toHaveURL(/\/chats\?filter=unassigned$/);
  const unassignedOnly = page.getByLabel('Unassigned only');
  await expect(unassignedOnly).toBeChecked();
  await expectNoSeriousA11yViolations(page, '/chats?filter=unassigned');

  // Off in the inbox: the URL loses the filter; on again: it has it back.
  await unassignedOnly.click();
  await expect(page).toHaveURL(/\/chats$/);
  await expect(unassignedOnly).not.toBeChecked();
  await unassignedOnly.click();
  await expect(page).toHaveURL(/\/chats\?filter=unassigned$/);
});

test('a new company’s dashboard lists the getting-started steps still to do, and marks a step done once taken', async ({ page, request }) => {
  // A company of its own: nothing done yet (the demo companies have taken every step).
  const owner = { email: uniqueEmail('steps-admin'), password: 'Steps-Console-Pass-42', firstName: 'Sam', lastName: 'Steps' };
  await createAccountViaApi(request, owner);
  const login = await request.post('/account/login/', { data: { email: owner.email, password: owner.password } });
  expect(login.status(), await login.text()).toBe(200);
  const access = ((await login.json()) as { access: string }).access;
  const name = `Steps Co ${Date.now().toString(36)}`;
  const created = await request.post('/api/companies/', { headers: { Authorization: `Bearer ${access}` }, data: { name } });
  expect(created.status(), await created.text()).toBe(201);
  const companyId = ((await created.json()) as { id: number }).id;

  await signInTo(page, owner);
  if (/\/company\/select/.test(page.url())) await new CompanyPickerPage(page).choose(name);
  await expect(new ShellPage(page).companyName).toHaveText(name);
  await page.goto('/dashboard');
  const steps = page.getByTestId('getting-started');
  await expect(steps.getByRole('heading', { name: 'Getting started' })).toBeVisible();
  await expect(steps.getByTestId('getting-started-channels')).toHaveAttribute('data-done', 'false');
  await expect(steps.getByTestId('getting-started-team')).toHaveAttribute('data-done', 'false');

  // Inviting a teammate takes the team step: marked done, still a link.
  const invite = await request.post('/api/invites/bulk/', {
    headers: { Authorization: `Bearer ${access}`, Company: String(companyId) },
    data: { invites: [{ email: uniqueEmail('steps-agent'), role_id: 'agent' }] },
  });
  expect(invite.status(), await invite.text()).toBe(201);
  await page.reload();
  await expect(steps.getByTestId('getting-started-team')).toHaveAttribute('data-done', 'true');
  await expect(steps.getByRole('link', { name: /Invite your team \(done\)/ })).toHaveAttribute('href', '/team');
  await expect(steps.getByTestId('getting-started-channels')).toHaveAttribute('data-done', 'false');
  await expectNoSeriousA11yViolations(page, '/dashboard (getting started)');
});
