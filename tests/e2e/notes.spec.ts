import { expect, test } from '@playwright/test';
import { ChatsPage } from './pages/ChatsPage';
import { SimulatorPage } from './pages/SimulatorPage';
import { DEMO_ADMIN, DEMO_AGENT, DEMO_COMPANY } from './support/demo';
import { signInTo } from './support/session';

test('the agent mentions the admin in a private note; the admin is notified and opens the room at the note; the customer never sees it', async ({ browser, request }) => {
  const link = await SimulatorPage.linkFor(request, DEMO_AGENT, DEMO_COMPANY);
  const stamp = Date.now().toString(36);
  const name = `Note Customer ${stamp}`;
  const customerPage = await (await browser.newContext()).newPage();
  const simulator = new SimulatorPage(customerPage);
  await simulator.open(link);
  await simulator.startAs(name, `note-${stamp}`);
  await simulator.send(`Where is my order ${stamp}?`);

  const adminPage = await (await browser.newContext()).newPage();
  await signInTo(adminPage, DEMO_ADMIN, DEMO_COMPANY);
  const bell = adminPage.getByTestId('notification-bell');
  await expect(bell).toBeVisible();

  const agentPage = await (await browser.newContext()).newPage();
  await signInTo(agentPage, DEMO_AGENT, DEMO_COMPANY);
  const chats = new ChatsPage(agentPage);
  await chats.open();
  await chats.openRoom(name);
  await agentPage.getByTestId('composer-mode-note').click();
  await expect(agentPage.getByTestId('note-banner')).toBeVisible();
  const input = agentPage.getByTestId('composer').getByRole('textbox');
  await input.fill('Refund approved? @ad');
  await agentPage.getByTestId('mention-suggestions').getByRole('option', { name: /admin@demo\.test/ }).click();
  await expect(input).toHaveValue('Refund approved? @admin@demo.test ');
  await input.press('Enter');
  const note = agentPage.locator('[data-testid="message-row"][data-origin="note"]').filter({ hasText: 'Refund approved?' });
  await expect(note).toBeVisible();

  // The admin's bell shows it live; following it opens the room at the note.
  await expect(adminPage.getByTestId('notification-count')).toContainText(/[1-9]/);
  await bell.click();
  const item = adminPage.getByTestId('notification-item').filter({ hasText: name }).first();
  await expect(item).toContainText('Alex mentioned you');
  await item.click();
  await expect(adminPage).toHaveURL(/\/chats\/\d+\?message=\d+/);
  const focused = adminPage.locator('[data-testid="message-row"][data-focused="true"]');
  await expect(focused).toContainText('Refund approved?');
  await expect(focused).toHaveAttribute('data-origin', 'note');

  // The customer's simulator never shows the note.
  await simulator.send(`Anyone there ${stamp}?`);
  await expect(customerPage.getByText(`Anyone there ${stamp}?`)).toBeVisible();
  await expect(customerPage.getByText('Refund approved?')).toHaveCount(0);
});

test('message-text search finds a message and opens the room scrolled to it', async ({ browser, request }) => {
  const link = await SimulatorPage.linkFor(request, DEMO_AGENT, DEMO_COMPANY);
  const stamp = Date.now().toString(36);
  const word = `kumquat${stamp}`;
  const name = `Search Customer ${stamp}`;
  const simulator = new SimulatorPage(await (await browser.newContext()).newPage());
  await simulator.open(link);
  await simulator.startAs(name, `search-${stamp}`);
  await simulator.send(`My ${word} arrived bruised`);
  for (let i = 0; i < 35; i += 1) await simulator.send(`filler ${i}`);

  const page = await (await browser.newContext()).newPage();
  await signInTo(page, DEMO_AGENT, DEMO_COMPANY);
  const chats = new ChatsPage(page);
  await chats.open();
  await page.getByTestId('room-search').fill(word.slice(0, -2));
  const result = page.getByTestId('message-search-result').filter({ hasText: name });
  await expect(result).toBeVisible();
  await expect(result.locator('mark')).toHaveText(word);
  await result.click();
  const focused = page.locator('[data-testid="message-row"][data-focused="true"]');
  await expect(focused).toContainText(`My ${word} arrived bruised`);
  await expect(focused).toBeInViewport();
});
