import { expect, test } from '@playwright/test';
import { ChatsPage } from './pages/ChatsPage';
import { FlowsPage } from './pages/FlowsPage';
import { SimulatorPage } from './pages/SimulatorPage';
import { expectNoSeriousA11yViolationsInBothThemes, useConsoleTheme } from './support/accessibility';
import { DEMO_ADMIN, DEMO_COMPANY, NORTHWIND } from './support/demo';
import { signInTo } from './support/session';

// A 1×1 PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

/**
 * The flows console end to end, on Northwind (the Demo Company's demo flow stays as it is) with a
 * flow name and keyword of its own: create, fill (media, three steps, keyword), reorder with the
 * keyboard, try it, restore an earlier version, then a customer starts it in the simulator by its
 * keyword and the agent watches it in /chats.
 */
test('a flow is created, filled, reordered with the keyboard, tried, restored, and runs for a customer by its keyword', async ({ browser, request }) => {
  test.setTimeout(240_000);
  const stamp = Date.now().toString(36);
  const name = `Tour ${stamp}`;
  const keyword = `tour${stamp}`;
  const intro = `Welcome to the Northwind tour ${stamp}`;

  const context = await browser.newContext();
  const page = await context.newPage();
  await signInTo(page, DEMO_ADMIN, NORTHWIND);
  const flows = new FlowsPage(page);
  await flows.openList();
  await flows.create({ name, description: 'A short tour', companyName: 'Northwind Shop', domain: 'northwind.test', context: ['Delivery takes two days.'] });

  await flows.field(/Intro message/).fill(intro);
  await flows.uploadIntroMedia({ name: 'tour.png', mimeType: 'image/png', buffer: PNG });
  await flows.addStep(`First stop ${stamp}`);
  await flows.addStep(`Second stop ${stamp}`);
  await flows.addStep(`Pick one ${stamp}`, ['Done']);
  await flows.field(/Find-out-more message/).fill('See you soon.');
  await flows.addKeyword(keyword);
  // the preview follows the edits
  await expect(page.getByTestId('flow-preview').getByText(intro)).toBeVisible();
  await expect(page.getByTestId('flow-preview').getByTestId('preview-media')).toHaveCount(1);
  await flows.save(); // version 2
  expect(await flows.stepIds()).toEqual(['step_1', 'step_2', 'step_3']);

  // keyboard only: the third step to the top
  await flows.moveStepWithKeyboard('step_3', 'ArrowUp', 2);
  await expect.poll(() => flows.stepIds()).toEqual(['step_3', 'step_1', 'step_2']);
  await expect(page.getByTestId('flow-preview').getByTestId('preview-step').first()).toContainText(`Pick one ${stamp}`);
  await flows.save(); // version 3

  // try it: the real runtime on the editor's flow
  await flows.startTestChat();
  await expect(flows.testChatLog.getByText(intro)).toBeVisible();
  await expect(flows.testChatLog.getByText(`Pick one ${stamp}`)).toBeVisible();
  await flows.testChatLog.getByRole('button', { name: 'Done' }).click();
  await expect(flows.testChatLog.getByText(`First stop ${stamp}`)).toBeVisible();
  await expect(flows.testChatLog.getByText('See you soon.')).toBeVisible();

  // restore version 2 (before the reorder): a new version 4
  await flows.openHistory();
  await expect(flows.version(3)).toContainText('Steps reordered');
  // Each version names the person who saved it, not the bot-service key.
  await expect(flows.version(3)).toContainText('Ada Admin');
  await expect(flows.version(3)).not.toContainText('key ');
  await flows.restore(2);
  await expect(flows.version(4)).toContainText('Restored version 2');
  await flows.closeHistory();
  await expect.poll(() => flows.stepIds()).toEqual(['step_1', 'step_2', 'step_3']);

  // a customer starts it by its keyword in the simulator; the agent watches it in /chats
  const chats = new ChatsPage(page);
  await chats.open();
  await chats.expectLive();
  const customerContext = await browser.newContext();
  const customerPage = await customerContext.newPage();
  const simulator = new SimulatorPage(customerPage);
  await simulator.open(await SimulatorPage.linkFor(request, DEMO_ADMIN, NORTHWIND));
  const customer = `Flow customer ${stamp}`;
  await simulator.startAs(customer, `flow-${stamp}`);
  await simulator.send(keyword);
  await expect(simulator.message(intro, 'bot')).toBeVisible();
  await expect(simulator.message(`First stop ${stamp}`, 'bot')).toBeVisible();
  await expect(simulator.message(`Pick one ${stamp}`, 'bot')).toBeVisible();
  await chats.openRoom(customer);
  await expect(chats.message(intro)).toBeVisible();
  await expect(chats.message(`Pick one ${stamp}`)).toBeVisible();
  await customerPage.getByRole('button', { name: 'Done' }).last().click();
  await expect(simulator.message('See you soon.', 'bot')).toBeVisible();
  await expect(chats.message('See you soon.')).toBeVisible();

  // the editor counts the customer on each step
  await flows.openList();
  await page.getByRole('link', { name }).click();
  await expect(page.getByLabel('Customers who reached step step_3: 1; who left there: 0')).toBeVisible();

  await customerContext.close();
  await context.close();
});

// Each state checked whole in the light theme, then in the dark one for the rules that depend on colours (support/accessibility.ts).
// The list, the creation form and the editor as they open are pages of the accessibility walk (accessibility.spec.ts);
// these are the states only this test reaches: a context item added, the version history open.
test('the flow pages pass axe in both themes: creation with a context item, the editor with its history', async ({ page }) => {
  test.setTimeout(180_000);
  await useConsoleTheme(page, 'light');
  await signInTo(page, DEMO_ADMIN, DEMO_COMPANY);
  const flows = new FlowsPage(page);
  await page.goto('/flows/create');
  await expect(page.getByRole('heading', { name: 'Create a flow', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Add a context item' }).click();
  await expectNoSeriousA11yViolationsInBothThemes(page, `/flows/create`);
  await page.goto(`/flows/edit/${encodeURIComponent('Demo Company tour')}`);
  await expect(page.getByRole('heading', { name: 'Demo Company tour', level: 1 })).toBeVisible();
  await expect(flows.steps.first()).toBeVisible();
  await flows.openHistory();
  await expect(page.getByTestId('flow-version').first()).toBeVisible();
  await expectNoSeriousA11yViolationsInBothThemes(page, `/flows/edit/… version history`);
});
