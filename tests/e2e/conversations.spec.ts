import { expect, test, type Locator } from '@playwright/test';
import { ChatsPage } from './pages/ChatsPage';
import { SimulatorPage } from './pages/SimulatorPage';
import { DEMO_ADMIN, DEMO_AGENT, DEMO_COMPANY } from './support/demo';
import { signInTo } from './support/session';

/** The number a tab shows: "Mine (3)" → 3. */
async function countOf(tab: Locator): Promise<number> {
  const match = /\((\d+)\)/.exec((await tab.textContent()) ?? '');
  return match ? Number(match[1]) : NaN;
}

test('an agent assigns a conversation to themselves, finds it in Mine, resolves it and it leaves the open view for everyone; the customer re-opens it', async ({ browser, request }) => {
  const link = await SimulatorPage.linkFor(request, DEMO_AGENT, DEMO_COMPANY);
  const agentContext = await browser.newContext();
  const adminContext = await browser.newContext();
  const customerContext = await browser.newContext();
  const agentPage = await agentContext.newPage();
  const adminPage = await adminContext.newPage();

  // A conversation of its own, so nothing another spec reads moves.
  const stamp = Date.now().toString(36);
  const name = `Status Customer ${stamp}`;
  const simulator = new SimulatorPage(await customerContext.newPage());
  await simulator.open(link);
  await simulator.startAs(name, `status-${stamp}`);
  await simulator.send(`I need help ${stamp}`);

  await signInTo(agentPage, DEMO_AGENT, DEMO_COMPANY);
  const chats = new ChatsPage(agentPage);
  await chats.open();
  await expect(chats.room(name)).toBeVisible();
  const mineTab = agentPage.getByTestId('room-tab-mine');
  await expect(mineTab).toHaveText(/\(\d+\)/);
  const mineBefore = await countOf(mineTab);

  // The admin watches the same (default: open) view.
  await signInTo(adminPage, DEMO_ADMIN, DEMO_COMPANY);
  const adminChats = new ChatsPage(adminPage);
  await adminChats.open();
  await expect(adminChats.room(name)).toBeVisible();

  // Assign to me: the Mine tab counts it, and lists it.
  await chats.openRoom(name);
  await agentPage.getByTestId('assignee-button').click();
  await agentPage.getByTestId('assign-to-me').click();
  await expect(agentPage.getByTestId('assignee-name')).toHaveText('Alex');
  await expect.poll(() => countOf(mineTab)).toBe(mineBefore + 1);
  await mineTab.click();
  await expect(chats.room(name)).toBeVisible();

  // Resolve: the room leaves the open view at once, here and on the admin's screen.
  await agentPage.getByTestId('resolve-room').click();
  await expect(chats.room(name)).toHaveCount(0);
  await expect(adminChats.room(name)).toHaveCount(0);
  await expect.poll(() => countOf(mineTab)).toBe(mineBefore);
  await expect(agentPage.getByTestId('status-chip')).toHaveText('Resolved');

  // The customer writes again: the conversation is open again, in Mine.
  await simulator.send(`Me again ${stamp}`);
  await expect(chats.room(name)).toBeVisible();
  await expect.poll(() => countOf(mineTab)).toBe(mineBefore + 1);
  await expect(adminChats.room(name)).toBeVisible();

  await agentContext.close();
  await adminContext.close();
  await customerContext.close();
});

test('at 390 px the list’s tabs and the room header fit, their actions in an overflow menu', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await signInTo(page, DEMO_AGENT, DEMO_COMPANY);
  const chats = new ChatsPage(page);
  await chats.open();
  await expect(page.getByTestId('room-tab-unassigned')).toBeVisible();
  const noHorizontalScroll = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
  expect(await noHorizontalScroll()).toBe(true);

  await chats.openRoom('Aiko Tanaka');
  await expect(page.getByTestId('resolve-room-narrow')).toBeVisible();
  await expect(page.getByTestId('assignee-button')).toBeVisible();
  await expect(page.getByTestId('room-more')).toBeVisible();
  expect(await noHorizontalScroll()).toBe(true);
  // The bot pause and block moved into the overflow menu.
  await page.getByTestId('room-more').click();
  await expect(page.getByRole('menuitem', { name: 'Pause for 1 day' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Block' })).toBeVisible();
  await page.keyboard.press('Escape');
  await context.close();
});
