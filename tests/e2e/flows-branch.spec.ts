import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { FlowBranchPage, type FlowFixture } from './pages/FlowBranchPage';
import { SimulatorPage } from './pages/SimulatorPage';
import { adminOfFreshCompany } from './support/accounts';
import { signInTo } from './support/session';
import { expectNoSeriousA11yViolations, useConsoleTheme, type ConsoleTheme } from './support/accessibility';

/**
 * The flows' branching view (/flows/branch/{flowName}, feature branching_flows: off at start-up, on
 * for this server through CONSOLE_FEATURES in playwright.config.ts) and a channel's default flow.
 * Each test has its own admin and company (with its own sandbox channel), so nothing here touches
 * the demo companies other specs use.
 */
function freshCompany(request: APIRequestContext, prefix: string) {
  return adminOfFreshCompany(request, prefix, 'Branch Co', 'Flora');
}

/** Signs in (one company: straight to the dashboard) and waits until the console's shell has the session and the company. */
async function signedIn(page: Page, admin: { user: { email: string; password: string }; company: string }) {
  await signInTo(page, admin.user);
  await expect(page).toHaveURL(/\/dashboard/);
  await expect(page.getByTestId('company-switcher-name')).toHaveText(admin.company);
}

function tour(suffix: string): FlowFixture {
  return {
    flow_name: `Shop tour ${suffix}`,
    description: 'A tour of the shop',
    company_name: 'Branch Co',
    company_domain: 'branch.example',
    extra_context: ['Delivery takes two days.'],
    intro_msg: `Welcome to the shop tour ${suffix}!`,
    keywords: [],
    steps: [
      { step_id: 'welcome', next_step_id: null, step_msg: 'What would you like to see?', type: 'options', options: [{ text: 'Prices', next_step_id: 'prices' }, { text: 'Returns', next_step_id: null }] },
      { step_id: 'prices', next_step_id: null, step_msg: 'Our prices start at 10 euros.', type: 'text', options: [] },
    ],
  };
}

test('with branching_flows on, an admin adds a step on the branch view, connects an option to it, saves, and finds it again after a reload', async ({ page, request }) => {
  test.setTimeout(240_000);
  const suffix = Date.now().toString(36);
  const admin = await freshCompany(request, 'branch-admin');
  const flow = tour(suffix);
  await FlowBranchPage.createFlow(request, admin.headers, flow);
  await signedIn(page, admin);

  const branch = new FlowBranchPage(page);
  await branch.open(flow.flow_name);
  await expect(branch.steps).toHaveCount(2);
  await expect(page.getByTestId('branch-start-node')).toContainText(flow.intro_msg);
  await expect(branch.edgeLabel('Prices')).toBeVisible();

  const returns = 'Returns are free within 30 days.';
  const stepId = await branch.addStep(returns);
  await branch.closePanel();
  await branch.connectOption('welcome', 'Returns', stepId);
  await expect(page.getByTestId('branch-save-status')).toHaveAttribute('data-status', 'unsaved');
  await branch.save();

  await page.reload();
  await expect(branch.steps).toHaveCount(3);
  await expect(branch.stepByLabel(returns)).toBeVisible();
  await expect(branch.edgeLabel('Returns')).toBeVisible();
  await expect(branch.edgeLabel('Prices')).toBeVisible();

  // the saved flow is the server's: the option leads to the new step
  const integration = (await (await request.get('/api/bots/integration/', { headers: admin.headers })).json()) as { access_key: string };
  const flows = (await (await request.get(`/bot-service/api/flows/?access_key=${integration.access_key}`)).json()) as FlowFixture[];
  const saved = flows.find((f) => f.flow_name === flow.flow_name)!;
  expect(saved.steps.map((s) => s.step_id)).toEqual(['welcome', 'prices', stepId]);
  expect(saved.steps[0].options).toEqual([
    { text: 'Prices', next_step_id: 'prices' },
    { text: 'Returns', next_step_id: stepId },
  ]);

  // a link is removed with the keyboard: focus it, select it (Enter), Delete, save
  const link = page.locator('.react-flow__edge', { has: page.locator('.react-flow__edge-text', { hasText: 'Returns' }) });
  await link.focus();
  await page.keyboard.press('Enter');
  await expect(link).toHaveClass(/selected/);
  await page.keyboard.press('Delete');
  await expect(branch.edgeLabel('Returns')).toHaveCount(0);
  await branch.save();
});

test('a flow taller than the screen opens at its start: the start and the first step in view, not cut off above', async ({ page, request }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const suffix = Date.now().toString(36);
  const admin = await freshCompany(request, 'branch-tall');
  // Twelve steps one after the other: taller than the canvas at the smallest opening size (80 %).
  const steps = Array.from({ length: 12 }, (_, i) => ({
    step_id: `s${i}`,
    next_step_id: i < 11 ? `s${i + 1}` : null,
    step_msg: `Step ${i + 1} of the long tour.`,
    type: 'text' as const,
    options: [],
  }));
  const flow = { ...tour(suffix), flow_name: `Long tour ${suffix}`, steps };
  await FlowBranchPage.createFlow(request, admin.headers, flow);
  await signedIn(page, admin);

  const branch = new FlowBranchPage(page);
  await branch.open(flow.flow_name);
  const canvas = page.getByTestId('branch-canvas');
  const inView = async (node: Locator) => {
    const [c, n] = [await canvas.boundingBox(), await node.boundingBox()];
    return !!c && !!n && n.y >= c.y && n.y + n.height <= c.y + c.height;
  };
  await expect.poll(() => inView(page.getByTestId('branch-start-node'))).toBe(true);
  await expect.poll(() => inView(branch.step('s0'))).toBe(true);
  // The graph is taller than the canvas: its last step is below, reached by the minimap or "fit view".
  expect(await inView(branch.step('s11'))).toBe(false);
});

test("a new conversation on a channel with a default flow gets the flow's intro", async ({ browser, page, request }) => {
  test.setTimeout(240_000);
  const suffix = Date.now().toString(36);
  const admin = await freshCompany(request, 'default-flow');
  const flow = tour(suffix);
  await FlowBranchPage.createFlow(request, admin.headers, flow);
  await signedIn(page, admin);

  // the channels page: the sandbox's default flow
  await page.goto('/channels');
  const sandbox = page.getByRole('listitem').filter({ hasText: 'Sandbox' }).first();
  const select = sandbox.getByRole('combobox', { name: 'Default flow' });
  await expect(select).toHaveText('None');
  await select.click();
  await page.getByRole('listbox').getByRole('option', { name: flow.flow_name }).click();
  await expect(page.getByText('Default flow saved')).toBeVisible();
  await expect(select).toHaveText(flow.flow_name);

  // a customer writes for the first time: the flow's intro and first step answer
  const link = await SimulatorPage.linkFor(request, admin.user, admin.company);
  const customerContext = await browser.newContext();
  const simulator = new SimulatorPage(await customerContext.newPage());
  await simulator.open(link);
  await simulator.startAs(`Default tester ${suffix}`, `default-tester-${suffix}`);
  await simulator.send('Hello!');
  await expect(simulator.message(flow.intro_msg, 'bot')).toBeVisible();
  await expect(simulator.message('What would you like to see?', 'bot')).toBeVisible();
  await customerContext.close();
});

for (const theme of ['light', 'dark'] as ConsoleTheme[]) {
  test(`the branch view passes axe in the ${theme} theme, with its step panel open`, async ({ page, request }) => {
    test.setTimeout(180_000);
    const suffix = Date.now().toString(36);
    const admin = await freshCompany(request, `branch-axe-${theme}`);
    const flow = tour(suffix);
    await FlowBranchPage.createFlow(request, admin.headers, flow);
    await useConsoleTheme(page, theme);
    await signedIn(page, admin);
    const branch = new FlowBranchPage(page);
    await branch.open(flow.flow_name);
    await expectNoSeriousA11yViolations(page, `/flows/branch (${theme})`);
    await expect(async () => {
      await branch.step('welcome').getByRole('button', { name: 'Edit step: welcome' }).click();
      await expect(branch.panel).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 20_000 });
    // The pointer leaves the node's button, and its tooltip is gone: axe read a tooltip fading in (half opaque) as low contrast.
    await branch.panel.hover({ position: { x: 5, y: 5 } });
    await expect(page.getByRole('tooltip')).toHaveCount(0);
    await expectNoSeriousA11yViolations(page, `/flows/branch with the step panel (${theme})`);
  });
}
