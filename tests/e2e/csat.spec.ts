import { expect, test, type Page } from '@playwright/test';
import { ChannelsPage } from './pages/ChannelsPage';
import { ChatsPage } from './pages/ChatsPage';
import { SimulatorPage } from './pages/SimulatorPage';
import { StatsPage } from './pages/StatsPage';
import { DEMO_ADMIN, DEMO_COMPANY } from './support/demo';
import { signInTo } from './support/session';

/** The sandbox channel's CSAT switch on /channels, turned to `on` (saved and said). */
async function setCsat(page: Page, on: boolean) {
  const channels = new ChannelsPage(page);
  await channels.open();
  const toggle = channels.channel('Sandbox').getByRole('switch', { name: 'Ask for a rating when resolved' });
  if ((await toggle.isChecked()) !== on) {
    await toggle.click();
    await expect(page.getByText(on ? 'Satisfaction survey turned on' : 'Satisfaction survey turned off')).toBeVisible();
  }
  await expect(toggle).toBeChecked({ checked: on });
}

test('with CSAT on the sandbox, resolving asks the customer for a rating; their 5 shows in the thread, leaves the room resolved and counts on /stats; business hours are on /account', async ({ browser, request }) => {
  const link = await SimulatorPage.linkFor(request, DEMO_ADMIN, DEMO_COMPANY);
  const adminContext = await browser.newContext({ timezoneId: 'UTC' });
  const customerContext = await browser.newContext();
  const page = await adminContext.newPage();
  await signInTo(page, DEMO_ADMIN, DEMO_COMPANY);

  // The demo company's business hours: its week in Paris, in the company settings.
  await page.goto('/account');
  const hours = page.getByRole('region', { name: 'Business hours' });
  await expect(hours.getByRole('combobox', { name: 'Time zone' })).toHaveValue('Europe/Paris');
  await expect(hours.getByLabel('Monday: opens (2)')).toHaveValue('13:30');
  await expect(hours.getByTestId('hours-sun')).toContainText('Closed');

  await setCsat(page, true);
  try {
    // A conversation of its own, so nothing another spec reads moves.
    const stamp = Date.now().toString(36);
    const name = `Rating Customer ${stamp}`;
    const simulator = new SimulatorPage(await customerContext.newPage());
    await simulator.open(link);
    await simulator.startAs(name, `csat-${stamp}`);
    await simulator.send(`Where is my parcel? ${stamp}`);

    const chats = new ChatsPage(page);
    await chats.open();
    await page.getByTestId('room-tab-all').click();
    await chats.openRoom(name);
    await page.getByTestId('resolve-room').click();
    await expect(page.getByTestId('status-chip')).toHaveText('Resolved');

    // The customer gets the question with its choices, and picks 5.
    await expect(simulator.message('How would you rate our help?', 'bot')).toBeVisible();
    await customerContext.pages()[0].getByRole('button', { name: '5 - Excellent' }).click();

    // The rating shows as an event row; the room stays resolved.
    await expect(page.getByTestId('csat-event')).toContainText('Customer rated the conversation 5/5');
    await expect(page.getByTestId('status-chip')).toHaveText('Resolved');

    // /stats counts it (the demo's own ratings are there too: the score is a percentage).
    const stats = new StatsPage(page);
    await stats.open();
    await expect(stats.total('csat')).toHaveText(/^\d+(\.\d)? %$/);
    await expect(page.getByTestId('stats-total-csat')).toContainText('responses');
  } finally {
    await setCsat(page, false);
    await adminContext.close();
    await customerContext.close();
  }
});
