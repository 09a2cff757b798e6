/**
 * Issue #25, "Bot canvas saves half-finished edits and shows raw server errors": the canvas saves to
 * the bot's draft, so choosing Image before uploading is no error; the choice survives a reload;
 * Publish is refused naming the step until the image is uploaded; once published, a sandbox
 * customer gets the image. And the publish controls fit a 390 px screen.
 */
import { expect, test } from '@playwright/test';
import { BotsPage } from './pages/BotsPage';
import { SimulatorPage } from './pages/SimulatorPage';
import { adminOfFreshCompany } from './support/accounts';
import { DEMO_ADMIN, DEMO_COMPANY } from './support/demo';
import { signInTo } from './support/session';

// A 1×1 PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

test('an image chosen before its upload is kept in the draft, refused at publish with its step named, then published to the customer', async ({ browser, request }) => {
  test.setTimeout(360_000); // many steps on 2 shared cores (as bots.spec.ts)
  const suffix = Date.now().toString(36);
  const welcome = `Our photo of the day ${suffix}`;
  // A company of its own: its sandbox's bot moves here, which the specs on the demo's sandbox (its bot's answers) must not see.
  const admin = await adminOfFreshCompany(request, 'photo-admin', 'Photo Co', 'Ada');
  const context = await browser.newContext({ viewport: { width: 1500, height: 950 } });
  const page = await context.newPage();
  await signInTo(page, admin.user, admin.company);
  const bots = new BotsPage(page);
  await bots.openList();
  const botId = await bots.create(`Photo bot ${suffix}`);

  await bots.addStep(welcome);
  await bots.panel.getByRole('button', { name: 'Add message' }).click();
  await bots.panel.getByRole('combobox', { name: 'Type' }).nth(1).click();
  await page.getByRole('listbox').getByRole('option', { name: 'Image' }).click();
  await bots.expectSaved();
  // No error popup, the node says what is missing in plain words.
  await expect(page.getByText(/^Error /)).toHaveCount(0);
  const problem = 'Message 2 is set to Image but no file is uploaded yet.';
  await expect(bots.step(welcome).getByTestId('step-problems')).toHaveText(problem);
  await expect(bots.panel.getByTestId('panel-problems')).toContainText(problem);

  // Reload: the draft keeps the Image choice.
  await page.reload();
  await expect(bots.step(welcome).getByTestId('step-problems')).toHaveText(problem);
  await bots.openStepPanel(welcome);
  await expect(bots.panel.getByRole('combobox', { name: 'Type' }).nth(1)).toHaveText('Image');
  await expect(bots.publishState).toHaveText('Not published yet');

  // Publish is refused, naming the step; nothing goes live.
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(bots.publishRefusal).toContainText(`Step "${welcome}": message 2 is set to Image but no file is uploaded yet.`);
  await expect(bots.publishState).toHaveText('Not published yet');

  // Upload the image: the problem is gone, Publish goes through.
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), bots.panel.getByRole('button', { name: 'Upload media' }).click()]);
  await chooser.setFiles({ name: 'photo.png', mimeType: 'image/png', buffer: PNG });
  await expect(bots.step(welcome).getByTestId('step-problems')).toHaveCount(0);
  await expect(page.getByTestId('problems-count')).toHaveText('Ready to publish');
  await bots.publish(1);

  // The versions list names version 1 as live.
  await page.getByRole('button', { name: 'Versions' }).click();
  await expect(page.getByTestId('bot-version')).toHaveCount(1);
  await expect(page.getByTestId('bot-version').first()).toContainText('Version 1 · Published');
  await expect(page.getByTestId('bot-version').first()).toContainText('(Live)');
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();

  // A sandbox customer gets the text and the image.
  await bots.openDetail(botId);
  await bots.assignChannel(/^Sandbox/);
  const link = await SimulatorPage.linkFor(request, admin.user, admin.company);
  const customerContext = await browser.newContext();
  const simulator = new SimulatorPage(await customerContext.newPage());
  await simulator.open(link);
  await simulator.startAs(`Photo fan ${suffix}`, `photo-fan-${suffix}`);
  await simulator.send('Hello');
  await expect(simulator.message(welcome, 'bot')).toBeVisible();
  const image = simulator.message('', 'bot').locator('img');
  await expect(image).toHaveCount(1);
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);

  // A bot's canvas lives under /flows (the spec's route) yet belongs to Bots: the menu marks Bots, not Flows.
  await bots.openList();
  await page.getByText(`Photo bot ${suffix}`, { exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/flows/generic-flow/${botId}$`));
  await expect(page.getByRole('menuitem', { name: 'Bots', exact: true })).toHaveClass(/RaMenuItemLink-active/);
  await expect(page.getByRole('menuitem', { name: 'Flows', exact: true })).toHaveCSS('color', await page.getByRole('menuitem', { name: 'Pricing', exact: true }).evaluate((el) => getComputedStyle(el).color));
  await customerContext.close();
  await context.close();
});

test('at 390 px the canvas shows its publish state, the Publish button and the versions', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await signInTo(page, DEMO_ADMIN, DEMO_COMPANY);
  const bots = new BotsPage(page);
  await bots.openList();
  await page.getByText('Demo assistant', { exact: true }).click();
  await expect(page).toHaveURL(/\/flows\/generic-flow\/\d+$/);
  await expect(bots.publishState).toBeVisible();
  const publish = page.getByRole('button', { name: 'Publish', exact: true });
  await expect(publish).toBeVisible();
  for (const control of [bots.publishState, publish]) {
    const box = (await control.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
  }
  await page.getByRole('button', { name: 'Versions' }).click();
  const drawer = page.getByRole('dialog');
  await expect(drawer.getByRole('heading', { name: 'Published versions' })).toBeVisible();
  await expect(drawer.getByTestId('bot-version').or(drawer.getByTestId('bot-versions-empty')).first()).toBeVisible();
  expect((await drawer.boundingBox())!.width).toBeLessThanOrEqual(390);
  await context.close();
});
