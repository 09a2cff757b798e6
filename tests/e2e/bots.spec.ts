import { expect, test } from '@playwright/test';
import { BotsPage } from './pages/BotsPage';
import { ChatsPage } from './pages/ChatsPage';
import { SimulatorPage } from './pages/SimulatorPage';
import { adminOfFreshCompany } from './support/accounts';
import { DEMO_ADMIN, DEMO_COMPANY } from './support/demo';
import { signInTo } from './support/session';
import { expectNoSeriousA11yViolationsInBothThemes, useConsoleTheme } from './support/accessibility';

test('an admin builds a bot on the canvas, tries it, puts it on the sandbox, and a customer is handed over to the agent', async ({ browser, request }) => {
  test.setTimeout(360_000); // many steps on 2 shared cores
  const suffix = Date.now().toString(36);
  const botName = `Shop helper ${suffix}`;
  const welcome = `Welcome to the shop ${suffix}! How can we help?`;
  const prices = 'Our prices start at 10 euros.';
  const person = 'A person will answer you here shortly.';

  // A company of its own: its sandbox's bot moves here, which the specs on the demo's sandbox (its bot's answers) must not see.
  const admin = await adminOfFreshCompany(request, 'bot-builder', 'Bot Co', 'Ada');
  const adminContext = await browser.newContext({ viewport: { width: 1500, height: 950 } });
  const page = await adminContext.newPage();
  await signInTo(page, admin.user, admin.company);
  const bots = new BotsPage(page);

  // create: 'Bot has been created', then the canvas
  await bots.openList();
  const botId = await bots.create(botName);
  await expect(page.getByTestId('init-node')).toBeVisible();

  // three steps, with options connected by dragging
  await bots.addStep(welcome, { expectAlert: true });
  await bots.addStep(prices);
  await bots.addStep(person);
  await bots.panel.getByRole('button', { name: 'Add action' }).click(); // a hand-over (the default action)
  await expect(bots.panel.getByRole('combobox', { name: 'Actions' })).toHaveText('Hand over to a person');
  await bots.closePanel();

  await bots.addOption(welcome, 'Prices');
  await bots.addOption(welcome, 'Person');
  await bots.addOption(prices, 'Menu');
  await bots.closePanel();
  await bots.expectSaved();

  await bots.connect('Prices', prices);
  await expect(bots.edgeLabel('PRICES')).toBeVisible();
  await bots.connect('Person', person);
  await expect(bots.edgeLabel('PERSON')).toBeVisible();
  await bots.connect('Menu', welcome);
  await expect(bots.edgeLabel('MENU')).toBeVisible();
  await bots.expectSaved();
  // the welcome step (the first) is the start step, and no step is unreachable any more
  await expect(bots.step(welcome).getByText('Start step')).toBeVisible();
  await expect(bots.step(person).getByTestId('step-warnings')).toHaveCount(0);

  // reload: the bot is as it was
  await page.reload();
  await expect(bots.steps).toHaveCount(3);
  for (const label of [welcome, prices, person]) await expect(bots.step(label)).toBeVisible();
  for (const option of ['Prices', 'Person', 'Menu']) await expect(bots.option(option)).toBeVisible();
  for (const edge of ['PRICES', 'PERSON', 'MENU']) await expect(bots.edgeLabel(edge)).toBeVisible();
  // Auto layout: the edge back up to the menu goes round the steps between, not across them (issue #25).
  await page.getByRole('button', { name: 'Auto layout' }).click();
  await bots.expectSaved();
  await expect.poll(() => bots.edgePointsInsideNodes('MENU', 'Menu')).toBe(0);

  // the test chat runs the real runtime and highlights the current step
  await bots.startTestChat();
  await expect(bots.botLine(welcome)).toBeVisible();
  await expect(bots.step(welcome)).toHaveAttribute('data-active', 'true');
  await bots.pressTestButton('Prices');
  await expect(bots.botLine(prices)).toBeVisible();
  await expect(bots.step(prices)).toHaveAttribute('data-active', 'true');
  await expect(bots.step(welcome)).not.toHaveAttribute('data-active', 'true');

  // customers meet the published version: publish the draft, then put it on the sandbox channel
  await expect(bots.publishState).toHaveText('Not published yet');
  await bots.publish(1);
  await bots.openDetail(botId);
  await expect(page.getByTestId('bot-outline')).toContainText(welcome);
  await bots.assignChannel(/^Sandbox/);

  // a customer meets it in the simulator, presses a button and is handed over
  const link = await SimulatorPage.linkFor(request, admin.user, admin.company);
  const customerContext = await browser.newContext();
  const customerPage = await customerContext.newPage();
  const simulator = new SimulatorPage(customerPage);
  const customer = `Bot tester ${suffix}`;
  await simulator.open(link);
  await simulator.startAs(customer, `bot-tester-${suffix}`);
  await simulator.send('Hello');
  await expect(simulator.message(welcome, 'bot')).toBeVisible();
  await customerPage.getByTestId('sandbox-message').getByRole('button', { name: 'Person', exact: true }).last().click();
  await expect(simulator.message(person, 'bot')).toBeVisible();

  // the agent sees the conversation with the bot paused, and takes over
  const chats = new ChatsPage(page);
  await chats.open();
  await chats.openRoom(customer);
  await expect(chats.message(welcome)).toBeVisible();
  await expect(chats.message(person)).toBeVisible();
  await expect(chats.pausedChip).toBeVisible();
  await chats.send('Hi, I am Ada and I will help you.');
  await expect(simulator.message('Hi, I am Ada and I will help you.', 'agent')).toBeVisible();

  await customerContext.close();
  await adminContext.close();
});

test('a step is deleted with the keyboard and brought back with undo; a bot is deleted from the list after confirmation', async ({ page }) => {
  await signInTo(page, DEMO_ADMIN, DEMO_COMPANY);
  const bots = new BotsPage(page);
  await bots.openList();
  const name = `Temporary ${Date.now().toString(36)}`;
  await bots.create(name);
  await bots.addStep('Short lived step', { expectAlert: true });
  await bots.closePanel();
  await bots.expectSaved();
  await bots.step('Short lived step').click({ position: { x: 40, y: 60 } });
  await page.keyboard.press('Delete');
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Success : Step has been deleted!')).toBeVisible();
  await expect(bots.steps).toHaveCount(0);
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(bots.step('Short lived step')).toBeVisible();
  // Alerts show one after the other: the deletion's (5 s) may still be up when the undo's save answers.
  await expect(page.getByText('Step has been added to your bot!')).toBeVisible({ timeout: 20_000 });
  await bots.expectSaved();
  await page.reload();
  await expect(bots.step('Short lived step')).toBeVisible();

  await bots.openList();
  await page.getByRole('button', { name: `Delete bot ${name}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Bot deleted successfully')).toBeVisible();
  await expect(page.getByText(name, { exact: true })).toHaveCount(0);
});

// Checked whole in the light theme, then in the dark one for the rules that depend on colours (support/accessibility.ts).
// The list, a bot's page and its outline are pages of the accessibility walk (accessibility.spec.ts); the canvas
// with a step's panel and the test chat open is a state only this test reaches.
test('the bot canvas passes axe in both themes with its step panel and test chat open', async ({ page }) => {
  test.setTimeout(180_000);
  await useConsoleTheme(page, 'light');
  await signInTo(page, DEMO_ADMIN, DEMO_COMPANY);
  const bots = new BotsPage(page);
  await bots.openList();
  await page.getByText('Demo assistant', { exact: true }).click();
  await expect(bots.steps.first()).toBeVisible();
  const id = Number(/generic-flow\/(\d+)/.exec(page.url())![1]);
  await bots.openStepPanel('Anything else?');
  await bots.startTestChat();
  await expect(bots.botLine('Hi! I am the Demo Company assistant.')).toBeVisible();
  await expectNoSeriousA11yViolationsInBothThemes(page, `/flows/generic-flow/${id}`);
});

test('a bot taller than the screen opens at its start: the start and the first step in view, not cut off above; a phone gets no minimap', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signInTo(page, DEMO_ADMIN, DEMO_COMPANY);
  await page.goto('/bots');
  await page.getByText('Demo assistant', { exact: true }).click();
  const canvas = page.getByTestId('bot-canvas');
  const start = page.getByTestId('init-node');
  await expect(page.getByTestId('step-node').first()).toBeVisible();
  // Inside the canvas's box (the demo's graph is taller than it at the smallest opening size).
  const startInView = async () => {
    const [c, s] = [await canvas.boundingBox(), await start.boundingBox()];
    return !!c && !!s && s.y >= c.y && s.y + s.height <= c.y + c.height;
  };
  await expect.poll(startInView).toBe(true);
  const [c, s] = [await canvas.boundingBox(), await page.getByTestId('step-node').first().boundingBox()];
  expect(s!.y).toBeLessThan(c!.y + c!.height);
  const miniMap = page.locator('.react-flow__minimap');
  await expect(miniMap).toBeVisible();

  // On a phone the minimap would cover a third of the graph: the canvas draws none there, and still opens at its start.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.getByTestId('step-node').first()).toBeVisible();
  await expect.poll(startInView).toBe(true);
  await expect(miniMap).toHaveCount(0);
  await expect(page.getByRole('button', { name: /fit view/i })).toBeVisible();
});
