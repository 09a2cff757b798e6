import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { BillingPage, TEST_CARDS } from './pages/BillingPage';
import { ShellPage } from './pages/ShellPage';
import { expectNoSeriousA11yViolations, useConsoleTheme } from './support/accessibility';
import { acceptInvitationsViaApi, createAccountViaApi } from './support/accounts';
import { uniqueEmail } from './support/demo';
import { signInTo } from './support/session';

const PASSWORD = 'Billing-Console-Pass-42';
const NO_PERMISSION = 'You do not have permission to access this page.';

interface Person {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
}

const person = (prefix: string, firstName: string): Person => ({ email: uniqueEmail(prefix), password: PASSWORD, firstName, lastName: 'Billing' });

async function accessToken(request: APIRequestContext, user: Person): Promise<string> {
  const res = await request.post('/account/login/', { data: { email: user.email, password: user.password } });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { access: string }).access;
}

/** A fresh company of our own (the demo companies' plans stay as they are), its admin and, optionally, an agent. */
async function freshCompany(request: APIRequestContext, admin: Person, agent?: Person): Promise<number> {
  await createAccountViaApi(request, admin);
  const access = await accessToken(request, admin);
  const created = await request.post('/api/companies/', { headers: { Authorization: `Bearer ${access}` }, data: { name: `Billing Co ${Date.now().toString(36)}` } });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: number };
  if (agent) {
    await createAccountViaApi(request, agent);
    const invited = await request.post('/api/invites/bulk/', {
      headers: { Authorization: `Bearer ${access}`, Company: String(id) },
      data: { invites: [{ email: agent.email, role_id: 'agent' }] },
    });
    expect(invited.status(), await invited.text()).toBe(201);
    await acceptInvitationsViaApi(request, agent);
  }
  return id;
}

/** Types a URL in the address bar of the running console (a client-side navigation). */
async function typeUrl(page: Page, path: string) {
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

test('an admin subscribes through the checkout (a declined card first), comes back with the plan active and its invoice, switches plan at its prorated price, then cancels', async ({ page, request }) => {
  test.slow(); // sign-up, two checkouts and the provider's webhooks on a loaded machine
  const admin = person('billing-admin', 'Bill');
  await freshCompany(request, admin);
  await signInTo(page, admin);
  const shell = new ShellPage(page);
  const billing = new BillingPage(page);

  await shell.openFromMenu('Pricing');
  await billing.expectPricing();
  await billing.expectCurrentPlan('Free');
  await expectNoSeriousA11yViolations(page, '/pricing (light)');

  // A declined card: the checkout says so and nothing changes.
  await billing.subscribe('Starter');
  await billing.payWith(TEST_CARDS.declined);
  await billing.expectCheckoutError('Your card was declined.');

  // The success card: back on /account with the plan active and its first invoice.
  await billing.payWith(TEST_CARDS.success);
  await expect(page).toHaveURL(/\/account\?checkout=success&session_id=cs_/);
  await expect(billing.section).toBeVisible();
  await billing.expectPlan('Starter', 'Active');
  await expect(billing.section.getByText('Thank you! Your Starter plan is active.')).toBeVisible();
  await expect(billing.invoiceRows).toHaveCount(1);
  const invoice = billing.invoiceRows.first();
  await expect(invoice).toContainText('Paid');
  const pdf = invoice.getByRole('link', { name: /as PDF$/ });
  const pdfUrl = await pdf.getAttribute('href');
  expect(pdfUrl).toBeTruthy();
  const download = await page.request.get(pdfUrl!);
  expect(download.status()).toBe(200);
  expect(download.headers()['content-type']).toContain('application/pdf');
  await expectNoSeriousA11yViolations(page, '/account billing (light)');

  // /pricing now marks Starter as the current plan.
  await shell.openFromMenu('Pricing');
  await billing.expectCurrentPlan('Starter');

  // A switch to Growth asks first, with the prorated amount due today; confirmed, it is invoiced at once.
  await billing.planCard('Growth').getByRole('button', { name: 'Switch to Growth' }).click();
  const change = page.getByRole('dialog', { name: 'Switch from Starter to Growth' });
  await expect(change.getByTestId('plan-change-due')).toHaveText(/^\$\d+\.\d\d$/);
  const due = (await change.getByTestId('plan-change-due').textContent())!;
  await expect(change.getByTestId('plan-change-line')).toHaveCount(2);
  await expectNoSeriousA11yViolations(page, '/pricing plan change (light)');
  await change.getByRole('button', { name: `Switch and pay ${due}` }).click();
  await expect(page).toHaveURL(/\/account\?plan_changed=1$/);
  await expect(billing.section.getByText('Your plan is now Growth. The prorated invoice is in the list below.')).toBeVisible();
  await billing.expectPlan('Growth', 'Active');
  await expect(billing.invoiceRows).toHaveCount(2);
  await expect(billing.invoiceRows.first()).toContainText(due);

  // Cancel: the spec's alert, the subscription reloaded, and the account page.
  await billing.openAccount();
  await billing.expectPlan('Growth', 'Active');
  await billing.cancelSubscription();
  await billing.expectAlert('Subscription cancelled successfully');
  await expect(page).toHaveURL(/\/account$/);
  await expect(billing.section.getByText(/^Ends on /)).toBeVisible();
  await expect(billing.section.getByRole('button', { name: 'Resume subscription' })).toBeVisible();

  // Dark theme: the same pages pass axe.
  await useConsoleTheme(page, 'dark');
  await page.reload();
  await billing.expectPlan('Growth', 'Active');
  await expect(billing.invoiceRows).toHaveCount(2);
  await expect.poll(() => page.evaluate(() => getComputedStyle(document.body).backgroundColor)).not.toBe('rgb(245, 247, 251)');
  await expectNoSeriousA11yViolations(page, '/account billing (dark)');
  await shell.openFromMenu('Pricing');
  await billing.expectCurrentPlan('Growth');
  await expectNoSeriousA11yViolations(page, '/pricing (dark)');
});

test("an agent is refused /pricing with the spec's message and sees no billing on /account", async ({ page, request }) => {
  const admin = person('billing-owner', 'Olive');
  const agent = person('billing-agent', 'Aaron');
  await freshCompany(request, admin, agent);
  await signInTo(page, agent);
  const shell = new ShellPage(page);
  await shell.expectMenu(['Account'], ['Pricing']);

  await typeUrl(page, '/pricing');
  await shell.expectAlert(NO_PERMISSION);
  await expect(page).not.toHaveURL(/\/pricing/);
  await expect(page.getByRole('heading', { name: 'Plans and pricing' })).toHaveCount(0);

  await shell.openFromMenu('Account');
  await expect(page.getByRole('region', { name: 'Profile' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Billing', exact: true })).toHaveCount(0);
});
