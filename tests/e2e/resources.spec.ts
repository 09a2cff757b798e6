import { expect, test } from '@playwright/test';
import { ResourcesPage } from './pages/ResourcesPage';
import { expectNoSeriousA11yViolationsInBothThemes, useConsoleTheme } from './support/accessibility';
import { DEMO_ADMIN, DEMO_AGENT, DEMO_COMPANY } from './support/demo';
import { signInTo } from './support/session';

test('an agent searches the help: the matching article first, the empty view when nothing matches', async ({ page }) => {
  await signInTo(page, DEMO_AGENT, DEMO_COMPANY);
  const resources = new ResourcesPage(page);
  await resources.open();
  await expect(resources.count()).toHaveText('20 articles');

  await resources.search('invite');
  await expect(resources.articleTitles().first()).toHaveText('Invite your team');
  await resources.openArticle('Invite your team');
  await expect(page.getByText('Enter one or more e-mail addresses and choose their role.')).toBeVisible();

  await resources.search('templ');
  await expect(resources.articleTitles()).toContainText(['Create a WhatsApp template', 'Template review and status']);

  await resources.search('zebra quantum');
  await expect(resources.emptyView()).toContainText('Nothing Found.');
  await expect(resources.count()).toHaveText('0 articles');
});

test('an agent does not see the bot-service access key; the admin does', async ({ page, browser }) => {
  await signInTo(page, DEMO_AGENT, DEMO_COMPANY);
  const agentView = new ResourcesPage(page);
  await agentView.open();
  await agentView.tab('Integration');
  await expect(agentView.adminsOnlyNotice()).toHaveText('Only admins see the bot-service access key. Ask an admin of your company if you need it.');
  await expect(agentView.value('bot-endpoint')).toHaveText(/\/bot-service$/);
  await expect(agentView.accessKey()).toHaveCount(0);
  await agentView.tab('Downloads');
  await expect(page.getByRole('button', { name: 'Download the opt-out CSV' })).toHaveCount(0);

  const context = await browser.newContext();
  try {
    const adminPage = await context.newPage();
    await signInTo(adminPage, DEMO_ADMIN, DEMO_COMPANY);
    const adminView = new ResourcesPage(adminPage);
    await adminView.open();
    await adminView.tab('Integration');
    await expect(adminView.accessKey()).toHaveText(/^•+$/);
    await adminPage.getByRole('button', { name: 'Show the access key' }).click();
    await expect(adminView.accessKey()).toHaveText(/^[^•\s]{16,}$/);
    await expect(adminView.value('webhook')).toHaveText(/^http:\/\/[^/]+\/api\/webhooks\/meta\/$/);
    // The opt-out list downloads as CSV with the key.
    await adminView.tab('Downloads');
    const [download] = await Promise.all([adminPage.waitForEvent('download'), adminPage.getByRole('button', { name: 'Download the opt-out CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^opt-outs-\d{4}-\d{2}-\d{2}\.csv$/);
  } finally {
    await context.close();
  }
});

test('the OpenAPI document opens from /resources, and its readable view lists the API', async ({ page }) => {
  await signInTo(page, DEMO_AGENT, DEMO_COMPANY);
  const resources = new ResourcesPage(page);
  await resources.open();
  await resources.tab('Integration');
  const [opened] = await Promise.all([page.context().waitForEvent('page'), resources.openApiLink('api').click()]);
  await opened.waitForLoadState();
  expect(new URL(opened.url()).pathname).toBe('/api/openapi.json');
  const doc = JSON.parse((await opened.locator('pre').first().textContent())!.trim()) as { openapi: string; paths: Record<string, unknown> };
  expect(doc.openapi).toBe('3.1.0');
  expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/members/', '/account/login/', '/api/openapi.json']));
  await opened.close();

  await resources.tab('API reference');
  await expect(resources.referenceCount()).toContainText('Business Messaging Console API');
  await expect(resources.operation('GET', '/api/members/')).toContainText('Bearer token + Company header');
  await page.getByRole('searchbox', { name: 'Filter operations' }).fill('login');
  await resources.operation('POST', '/account/login/').getByRole('button').click();
  await expect(page.getByRole('table', { name: 'POST /account/login/' })).toContainText('password');
  await page.getByRole('button', { name: 'Bot service' }).click();
  await page.getByRole('searchbox', { name: 'Filter operations' }).fill('');
  await expect(resources.operation('GET', '/api/opt-out-csv/')).toContainText('access_key');
});

// Each state checked whole in the light theme, then in the dark one for the rules that depend on colours (support/accessibility.ts).
test('/resources has no serious accessibility violations, in both themes', async ({ page }) => {
  test.slow();
  await useConsoleTheme(page, 'light');
  await signInTo(page, DEMO_ADMIN, DEMO_COMPANY);
  const resources = new ResourcesPage(page);
  await resources.open();
  await resources.search('bot');
  await resources.openArticle('Build a bot');
  await expect(page.getByText('Only one bot answers on a channel.', { exact: false })).toBeVisible();
  await expectNoSeriousA11yViolationsInBothThemes(page, `/resources help`);
  await resources.tab('Integration');
  await expect(resources.accessKey()).toBeVisible();
  await expectNoSeriousA11yViolationsInBothThemes(page, `/resources integration`);
  await resources.tab('API reference');
  await expect(resources.operation('GET', '/api/members/')).toBeVisible();
  await resources.operation('GET', '/api/members/').getByRole('button').click();
  await expect(page.getByText('Access rule: company(members, view)')).toBeVisible();
  await expectNoSeriousA11yViolationsInBothThemes(page, `/resources API reference`);
});
