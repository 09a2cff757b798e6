import { expect, test, type Locator } from '@playwright/test';
import { ChatsPage } from './pages/ChatsPage';
import { SimulatorPage } from './pages/SimulatorPage';
import { DEMO_AGENT, DEMO_COMPANY } from './support/demo';
import { signInTo } from './support/session';

test('an agent and a customer exchange messages live, with delivery ticks moving forward', async ({ browser, request }) => {
  const link = await SimulatorPage.linkFor(request, DEMO_AGENT, DEMO_COMPANY);
  const agentContext = await browser.newContext();
  const customerContext = await browser.newContext();
  const agentPage = await agentContext.newPage();
  const customerPage = await customerContext.newPage();

  await signInTo(agentPage, DEMO_AGENT, DEMO_COMPANY);
  const chats = new ChatsPage(agentPage);
  await chats.open();
  await expect(chats.rooms.first()).toBeVisible();

  const stamp = Date.now().toString(36);
  const name = `E2E Customer ${stamp}`;
  const simulator = new SimulatorPage(customerPage);
  await simulator.open(link);
  await simulator.startAs(name, `e2e-${stamp}`);
  await simulator.send(`Hello from the customer ${stamp}`);

  // The new conversation appears at the top of the list, unread, without a reload.
  await expect(chats.room(name)).toBeVisible();
  await expect(chats.rooms.first()).toContainText(name);
  await expect(chats.unreadOf(name)).toHaveText('1');

  await chats.openRoom(name);
  await expect(chats.message(`Hello from the customer ${stamp}`)).toBeVisible();
  await expect(chats.unreadOf(name)).toHaveCount(0);
  await expect(agentPage).toHaveURL(/\/chats\/\d+$/);

  // Agent → customer, with an emoji; Shift+Enter makes a new line instead of sending.
  await chats.composer.fill('Hi there');
  await chats.composer.press('Shift+Enter');
  await chats.composer.pressSequentially('how can I help? 👋');
  await chats.composer.press('Enter');
  const reply = 'Hi there\nhow can I help? 👋';
  const sent = chats.message(reply);
  await expect(sent).toHaveCount(1);
  await expect(simulator.message('how can I help? 👋', 'agent')).toBeVisible();
  // The simulator has read it: the ticks reach "read" (they only ever move forward).
  await expect(sent).toHaveAttribute('data-status', 'read', { timeout: 15_000 });
  await expect(sent.getByRole('img', { name: 'Read' })).toBeVisible();

  // Customer → agent while the room is open: shown live, not counted as unread.
  await simulator.send(`Second message ${stamp}`);
  await expect(chats.message(`Second message ${stamp}`)).toBeVisible();
  await expect(chats.unreadOf(name)).toHaveCount(0);
  await expect(chats.messages.filter({ hasText: reply })).toHaveCount(1);

  // A reload keeps everything (history comes back from the server, nothing duplicated).
  await agentPage.reload();
  await chats.expectLive();
  await expect(chats.message(`Hello from the customer ${stamp}`)).toBeVisible();
  await expect(chats.messages.filter({ hasText: reply })).toHaveCount(1);

  await agentContext.close();
  await customerContext.close();
});

test('an agent searches, filters by tag, tags, pauses the bot and blocks a contact', async ({ page, request }) => {
  // The room changed below (tagged, paused, blocked) is a customer's of this test: other specs read the demo's rooms
  // meanwhile (a blocked room's composer is closed, a paused one's menu says "Resume").
  const stamp = Date.now().toString(36);
  const customer = { name: `Tagged Customer ${stamp}`, id: `tagged-${stamp}` };
  await SimulatorPage.customerWrites(request, await SimulatorPage.linkFor(request, DEMO_AGENT, DEMO_COMPANY), customer, `Where is my parcel? ${stamp}`);
  await signInTo(page, DEMO_AGENT, DEMO_COMPANY);
  const chats = new ChatsPage(page);
  await chats.open();
  await chats.expectListed('Aiko Tanaka');

  // Search (debounced) by name.
  await chats.search('james');
  await expect(chats.rooms).toHaveCount(1);
  await expect(chats.room('James Carter')).toBeVisible();
  await chats.search('');
  await chats.expectListed('Aiko Tanaka');

  // Filter by tag.
  await chats.filterByTag('vip');
  await expect(chats.room('Maria Lopez')).toBeVisible();
  await expect(chats.room('Aiko Tanaka')).toHaveCount(0);
  await chats.clearTagFilter();
  await chats.expectListed('Aiko Tanaka');

  await chats.openRoom(customer.name);
  await expect(chats.message(`Where is my parcel? ${stamp}`)).toBeVisible();

  // Tags.
  await chats.addTag('e2e-followup');
  await expect(chats.tag('e2e-followup')).toBeVisible();
  await chats.removeTag('e2e-followup');
  await expect(chats.tag('e2e-followup')).toHaveCount(0);

  // Bot pause for 1 day, then resume.
  await chats.pauseOneDay();
  await expect(chats.pausedChip).toContainText('Bot paused until');
  await chats.resume();
  await expect(chats.pausedChip).toHaveCount(0);

  // Block: the composer closes; unblock opens it again.
  await chats.block();
  await expect(chats.blockedChip).toBeVisible();
  await expect(chats.composer).toBeDisabled();
  await chats.unblock();
  await expect(chats.blockedChip).toHaveCount(0);
  await expect(chats.composer).toBeEnabled();
});

/** A 1×1 PNG the browser can decode. */
const PIXEL_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/** Whether an <img> finished loading a decodable picture. */
async function imageLoaded(image: Locator): Promise<boolean> {
  return image.evaluate((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth > 0);
}

test('an attachment is private: agent and customer see it through signed URLs, its plain path serves nothing', async ({ browser, request }) => {
  const link = await SimulatorPage.linkFor(request, DEMO_AGENT, DEMO_COMPANY);
  const agentContext = await browser.newContext();
  const customerContext = await browser.newContext();
  const agentPage = await agentContext.newPage();
  const customerPage = await customerContext.newPage();

  await signInTo(agentPage, DEMO_AGENT, DEMO_COMPANY);
  const chats = new ChatsPage(agentPage);
  await chats.open();

  // The demo's own picture (a company attachment too) loads in the inbox.
  await chats.openRoom('Fatima Zahra');
  const cart = chats.message('Here is my cart').locator('img');
  await expect(cart).toHaveAttribute('src', /\/media\/chats\/\d+\/demo\/[^?]+\?exp=\d+&sig=[0-9a-f]{64}$/);
  await expect.poll(() => imageLoaded(cart)).toBe(true);

  const stamp = Date.now().toString(36);
  const name = `E2E Attachment ${stamp}`;
  const simulator = new SimulatorPage(customerPage);
  await simulator.open(link);
  await simulator.startAs(name, `e2e-att-${stamp}`);
  await simulator.send(`Can you send me the picture? ${stamp}`);
  await chats.openRoom(name);

  // Upload through the presigned URL and send: the bubble shows it from a signed URL.
  await agentPage.locator('input[type="file"]').setInputFiles({ name: `pixel-${stamp}.png`, mimeType: 'image/png', buffer: PIXEL_PNG });
  const sent = chats.messages.locator(`img[src*="/pixel-${stamp}.png?exp="]`);
  await expect(sent).toHaveCount(1);
  await expect.poll(() => imageLoaded(sent)).toBe(true);
  const signedSrc = (await sent.getAttribute('src'))!;
  expect(signedSrc).toMatch(/\/media\/chats\/\d+\/[0-9a-f]{32}\/pixel-[a-z0-9]+\.png\?exp=\d+&sig=[0-9a-f]{64}$/);

  // The customer's simulator page shows it too.
  const received = customerPage.getByTestId('sandbox-message').locator(`img[src*="/pixel-${stamp}.png?exp="]`);
  await expect(received).toHaveCount(1);
  await expect.poll(() => imageLoaded(received)).toBe(true);

  // Without its signature, or with a tampered one, the path serves nothing.
  const path = new URL(signedSrc, 'http://x').pathname;
  expect((await request.get(path)).status()).toBe(403);
  const sig = /sig=([0-9a-f]+)/.exec(signedSrc)![1];
  const tampered = signedSrc.replace(sig, (sig[0] === 'a' ? 'b' : 'a') + sig.slice(1));
  expect((await request.get(new URL(tampered, 'http://x').pathname + new URL(tampered, 'http://x').search)).status()).toBe(403);
  const signed = await request.get(new URL(signedSrc, 'http://x').pathname + new URL(signedSrc, 'http://x').search);
  expect(signed.status()).toBe(200);
  expect(Buffer.from(await signed.body()).equals(PIXEL_PNG)).toBe(true);

  await agentContext.close();
  await customerContext.close();
});

test('the composer grows with its text up to six lines, then scrolls, at 390 px', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInTo(page, DEMO_AGENT, DEMO_COMPANY);
  const chats = new ChatsPage(page);
  await chats.open();
  await chats.openRoom('Aiko Tanaka');
  const input = chats.composer;
  const height = async () => (await input.boundingBox())?.height ?? 0;
  const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n');

  // Empty, the placeholder's three lines at this width; the text's own lines from the first character.
  await input.fill('one line');
  await expect.poll(height).toBeLessThan(30);
  const one = await height();
  await input.fill(lines(3));
  await expect.poll(height).toBeGreaterThan(one * 2.5);
  const three = await height();
  await input.fill(lines(12));
  await expect.poll(height).toBeGreaterThan(three);
  expect(await height()).toBeLessThan(one * 6.5); // six lines at most
  expect(await input.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true); // the rest scrolls
  await input.fill('one line');
  await expect.poll(height).toBeLessThan(one * 1.5);
});

test("a link to a conversation that does not exist says so on a phone, with the way back to the list", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInTo(page, DEMO_AGENT, DEMO_COMPANY);
  const chats = new ChatsPage(page);
  // A reload of the link, as a notification or a shared address opens it: the server refuses the room's join. (No
  // connection badge to wait for: on a phone it is in the list's header, not shown beside a room.)
  await page.goto('/chats/987654');
  await expect(page.getByTestId('room-unavailable')).toContainText('This conversation is not available');
  await expect(page.getByTestId('select-conversation')).toHaveCount(0);
  await page.getByRole('button', { name: 'Back to conversations', exact: true }).click();
  await expect(page).toHaveURL(/\/chats$/);
  await chats.expectListed('Aiko Tanaka');
});
