import { expect, test, type APIRequestContext } from '@playwright/test';
import { ChannelsPage } from './pages/ChannelsPage';
import { ChatsPage } from './pages/ChatsPage';
import { WhatsAppIntegrationPage } from './pages/WhatsAppIntegrationPage';
import { createAccountViaApi } from './support/accounts';
import { uniqueEmail, DEMO_ADMIN, DEMO_AGENT, DEMO_COMPANY, DEMO_PASSWORD } from './support/demo';
import { FakeMeta } from './support/fakeMeta';
import { signInTo } from './support/session';

/** A fresh admin with their own company, so the inbox holds only this test's conversations. */
async function freshAdmin(request: APIRequestContext) {
  const user = { email: uniqueEmail('wa-admin'), password: DEMO_PASSWORD, firstName: 'Wanda' };
  await createAccountViaApi(request, user);
  const login = await request.post('/account/login/', { data: { email: user.email, password: user.password } });
  const { access } = (await login.json()) as { access: string };
  const company = `WA Shop ${Date.now().toString(36)}`;
  const created = await request.post('/api/companies/', { data: { name: company }, headers: { Authorization: `Bearer ${access}` } });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: number };
  return { user, company, access, companyId: id };
}

async function whatsappChannel(request: APIRequestContext, access: string, companyId: number) {
  const res = await request.get('/api/channels/', { headers: { Authorization: `Bearer ${access}`, Company: String(companyId) } });
  expect(res.ok(), await res.text()).toBeTruthy();
  const { results } = (await res.json()) as { results: { platform: string; external_id: string; connected: boolean }[] };
  return results.find((c) => c.platform === 'whatsapp');
}

test('an admin connects WhatsApp through embedded signup, then a customer message arrives live and the reply is read', async ({ page, request }) => {
  const admin = await freshAdmin(request);
  // One company only: the console selects it and opens the dashboard.
  await signInTo(page, admin.user);
  await expect(page).toHaveURL(/\/dashboard/);

  // Channels → embedded signup (Facebook's SDK is the local fake's double).
  const channels = new ChannelsPage(page);
  await channels.open();
  await channels.connectWhatsApp();
  const onboarding = new WhatsAppIntegrationPage(page);
  await onboarding.expectIntro();
  await onboarding.start();

  // Closing Facebook's dialog is a warning, and nothing is connected.
  await onboarding.continueWithFacebook();
  await onboarding.cancelFakeDialog();
  await expect(page.getByText('Facebook login was closed')).toBeVisible();

  await onboarding.continueWithFacebook();
  await onboarding.fillFakeDialog(`+1 555 01${String(Date.now()).slice(-6)}`);
  await onboarding.expectConnected();

  const channel = await whatsappChannel(request, admin.access, admin.companyId);
  expect(channel?.connected).toBe(true);
  await channels.open();
  await expect(channels.whatsapp()).toContainText('Connected');

  // A customer writes on WhatsApp: the webhook (signed by the fake) lands live in the inbox.
  const chats = new ChatsPage(page);
  await chats.open();
  const fake = new FakeMeta(request);
  const stamp = Date.now().toString(36);
  const name = `WhatsApp Customer ${stamp}`;
  await fake.customerWrites({ phoneNumberId: channel!.external_id, from: '15550009876', name, text: `Hi, is my order on its way? ${stamp}` });
  await expect(chats.room(name)).toBeVisible();
  await expect(chats.unreadOf(name)).toHaveText('1');
  await chats.openRoom(name);
  await expect(chats.message(`Hi, is my order on its way? ${stamp}`)).toBeVisible();

  // The agent's reply goes out through the Cloud API; the customer's phone reports delivered then read.
  await chats.send(`Yes, it ships today ${stamp}`);
  const reply = chats.message(`Yes, it ships today ${stamp}`);
  await expect(reply).toHaveCount(1);
  await expect(async () => {
    const sent = await fake.sent();
    expect(sent.some((m) => JSON.stringify(m.payload).includes(`Yes, it ships today ${stamp}`))).toBe(true);
  }).toPass({ timeout: 15_000 });
  await expect(reply).toHaveAttribute('data-status', /sent|delivered/, { timeout: 15_000 });
  const sent = (await fake.sent()).find((m) => JSON.stringify(m.payload).includes(`Yes, it ships today ${stamp}`))!;
  await fake.status(sent.id, 'read');
  await expect(reply).toHaveAttribute('data-status', 'read', { timeout: 15_000 });
});

test('the onboarding outcome pages opened directly tell the truth, and an agent is told whom to ask', async ({ page, request }) => {
  const admin = await freshAdmin(request);
  await signInTo(page, admin.user);
  const onboarding = new WhatsAppIntegrationPage(page);
  for (const outcome of ['integration-success', 'account-already-connected']) {
    await page.goto(`/whatsapp-integration/${outcome}`);
    await onboarding.expectNothingConnected();
  }
  await page.getByRole('button', { name: 'Connect WhatsApp' }).click();
  await onboarding.expectIntro();
  await expect(page.getByRole('button', { name: 'Get started' })).toBeVisible();

  // The demo agent may not manage channels: no "Get started", but whom to ask, on either step.
  await page.context().clearCookies();
  await page.evaluate(() => window.localStorage.clear());
  await signInTo(page, DEMO_AGENT, DEMO_COMPANY);
  for (const step of ['intro-step', 'start']) {
    await page.goto(`/whatsapp-integration/${step}`);
    await onboarding.expectAskAdmin(DEMO_COMPANY);
  }
});

test.describe('at 1440 px', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test('each channel card shows its name and number beside its settings, for an admin and a member who only views', async ({ page }) => {
    for (const who of [DEMO_ADMIN, DEMO_AGENT]) {
      await page.context().clearCookies();
      await signInTo(page, who, DEMO_COMPANY);
      await page.goto('/channels');
      const card = page.getByRole('listitem', { name: DEMO_COMPANY });
      await expect(card.getByRole('combobox', { name: 'Default flow' })).toBeVisible();
      // The settings (default flow, auto-assign, ratings) once took the whole line and left the name 0 px wide.
      const name = card.getByRole('heading', { name: DEMO_COMPANY, level: 2 });
      await expect(name).toBeVisible();
      expect((await name.boundingBox())!.width).toBeGreaterThan(80);
      await expect(card.getByText('WhatsApp · +1 555 0100')).toBeVisible();
    }
  });
});

test.describe('at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("a channel card's disconnect button sits on its state's line, not alone on a line of its own", async ({ page }) => {
    await signInTo(page, DEMO_ADMIN, DEMO_COMPANY);
    await page.goto('/channels');
    const card = page.getByRole('listitem', { name: DEMO_COMPANY });
    const state = card.getByText('Connected', { exact: true });
    const since = card.getByText(/^Connected since/);
    const disconnect = card.getByRole('button', { name: /Disconnect/ });
    await expect(disconnect).toBeVisible();
    const [stateBox, sinceBox, buttonBox] = [(await state.boundingBox())!, (await since.boundingBox())!, (await disconnect.boundingBox())!];
    // On the same line: the button's middle within the state block (the chip and the date under it).
    const middle = buttonBox.y + buttonBox.height / 2;
    expect(middle).toBeGreaterThanOrEqual(stateBox.y);
    expect(middle).toBeLessThanOrEqual(sinceBox.y + sinceBox.height);
    expect(buttonBox.x + buttonBox.width).toBeLessThanOrEqual(390);
  });
});
