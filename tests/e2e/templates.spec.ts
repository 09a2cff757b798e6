/**
 * WhatsApp message templates (issue #10) as the demo admin, against the local fake Meta of
 * `npm start` (its review: a name containing "reject" is REJECTED with INVALID_FORMAT about 2 s
 * after creation, any other is APPROVED; server/providers/meta/fake/fakeMetaTemplates.ts).
 */
import { expect, test, type APIRequestContext } from '@playwright/test';
import { ChatsPage } from './pages/ChatsPage';
import { SAMPLE_PNG, TemplatesPage } from './pages/TemplatesPage';
import { DEMO_ADMIN, DEMO_COMPANY } from './support/demo';
import { FakeMeta } from './support/fakeMeta';
import { signInTo } from './support/session';

const stamp = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

interface FakeState {
  phoneNumbers: Record<string, { id: string; display_phone_number: string; wabaId: string }>;
  wabas: Record<string, { templates: { id: string; name: string; status: string }[] }>;
}

async function fakeState(request: APIRequestContext): Promise<FakeState> {
  const res = await request.get('/dev/meta/control/state');
  expect(res.ok()).toBeTruthy();
  return (await res.json()) as FakeState;
}

/** The demo company's WhatsApp number on the fake (server/plugins/templates/demo.ts). */
async function demoNumber(request: APIRequestContext): Promise<string> {
  const numbers = Object.values((await fakeState(request)).phoneNumbers);
  const demo = numbers.find((n) => n.display_phone_number === '+1 555 0100');
  expect(demo, 'the demo WhatsApp number on the fake Meta').toBeTruthy();
  return demo!.id;
}

async function fakeTemplateId(request: APIRequestContext, name: string): Promise<string> {
  const all = Object.values((await fakeState(request)).wabas).flatMap((w) => w.templates);
  const found = all.find((t) => t.name === name);
  expect(found, `template ${name} on the fake Meta`).toBeTruthy();
  return found!.id;
}

// Each test creates templates through the editor and waits for Meta's review: more than the default minute on a busy machine.
test.describe.configure({ timeout: 150_000 });

test.beforeEach(async ({ page }) => {
  await signInTo(page, DEMO_ADMIN, DEMO_COMPANY);
});

test('the demo templates are listed with their status, Meta’s limits, filters and a detail with cards and history', async ({ page }) => {
  const templates = new TemplatesPage(page);
  await templates.open();
  for (const name of ['welcome_offer', 'order_shipped', 'spring_coupon', 'login_code', 'new_arrivals']) {
    await templates.expectStatus(name, 'APPROVED', 'Approved', 15_000);
  }
  await expect(page.getByTestId('template-limits')).toContainText('of 100 template creations in the last hour');
  await expect(page.getByTestId('template-limits')).toContainText('of 250 templates in this WhatsApp account');

  await templates.search('arrivals');
  await expect(templates.row('new_arrivals')).toBeVisible();
  await expect(templates.row('welcome_offer')).toHaveCount(0);

  await page.getByRole('link', { name: 'View new_arrivals' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'new_arrivals' })).toBeVisible();
  await expect(page.getByTestId('template-card')).toHaveCount(3);
  await expect(page.getByTestId('template-history')).toContainText('Approved');
  await expect(page.getByTestId('template-stats')).toContainText('Sent');
});

test('a marketing template with a media header, a variable and two quick replies goes Pending → Approved live and is sent from the inbox', async ({ page, request }) => {
  const templates = new TemplatesPage(page);
  const name = `spring_news_${stamp()}`;
  await templates.open();
  await templates.startNew('Marketing', 'Media header');
  await expect(page).toHaveURL(/\/templates\/create-whatsapp-template\/marketing\/media\?channel=\d+/);
  await templates.fillName(name);
  await templates.uploadHeaderSample();
  await templates.fillBody('Hi {{1}}, our spring collection is here.', ['Maria']);
  await templates.addQuickReply('Show me');
  await templates.addQuickReply('Not now');
  // The server answers while Meta is still reviewing.
  expect(await templates.submit()).toBe('PENDING');

  // Meta's approval reaches the open list over the socket: no reload.
  await page.evaluate(() => ((window as unknown as { noReload: boolean }).noReload = true));
  await templates.expectStatus(name, 'APPROVED', 'Approved', 20_000);
  expect(await page.evaluate(() => (window as unknown as { noReload?: boolean }).noReload)).toBe(true);

  // Sent from the inbox to a WhatsApp customer of the fake.
  const fake = new FakeMeta(request);
  const customer = `Tess ${stamp()}`;
  const from = `1555${Math.floor(1e6 + Math.random() * 8e6)}`;
  await fake.customerWrites({ phoneNumberId: await demoNumber(request), from, name: customer, text: 'Anything new this spring?' });
  const chats = new ChatsPage(page);
  await chats.open();
  await chats.openRoom(customer);
  await page.getByRole('button', { name: 'Template', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Send a template' });
  await dialog.getByTestId('template-option').filter({ hasText: name }).click();
  await expect(dialog.getByTestId('template-option').filter({ hasText: name })).toContainText('image header');
  await dialog.getByTestId('template-header-file').setInputFiles(SAMPLE_PNG);
  await expect(dialog.getByText('Uploaded: sample.png')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Parameter {{1}}' }).fill('Tess');
  await expect(dialog.getByTestId('template-preview')).toContainText('Hi Tess, our spring collection is here.');
  await expect(dialog.getByTestId('template-preview')).toContainText('Show me');
  await dialog.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('message-row').filter({ hasText: 'Hi Tess, our spring collection is here.' })).toBeVisible();

  await expect
    .poll(async () => (await fake.sent()).find((s) => s.payload.to === from && (s.payload.template as { name?: string } | undefined)?.name === name)?.payload ?? null, { timeout: 15_000 })
    .toMatchObject({
      type: 'template',
      template: {
        name,
        components: [
          { type: 'header', parameters: [{ type: 'image', image: { link: expect.stringMatching(/^https?:\/\//) } }] },
          { type: 'body', parameters: [{ type: 'text', text: 'Tess' }] },
        ],
      },
    });

  // A later status from Meta (paused for low quality) also shows live, with its reason.
  await templates.open();
  await templates.expectStatus(name, 'APPROVED', 'Approved');
  const res = await request.post('/dev/meta/control/template_status', { data: { template_id: await fakeTemplateId(request, name), status: 'PAUSED', reason: 'INCORRECT_CATEGORY' } });
  expect(res.ok()).toBeTruthy();
  await templates.expectStatus(name, 'PAUSED', 'Paused');
  await expect(templates.reason(name)).toHaveText('Reason: Incorrect category');
});

test('a carousel of three cards is created and approved', async ({ page }) => {
  const templates = new TemplatesPage(page);
  const name = `weekly_picks_${stamp()}`;
  await templates.open();
  await templates.startNew('Marketing', 'Carousel');
  await expect(page).toHaveURL(/\/templates\/create-whatsapp-carousel\?channel=\d+/);
  await templates.fillName(name);
  await page.getByRole('textbox', { name: 'Message above the cards' }).fill('Fresh picks for this week.');
  await page.getByTestId('add-card').click();
  for (const i of [0, 1, 2]) {
    const card = page.getByTestId(`card-${i}`);
    await card.locator('input[type=file]').setInputFiles(SAMPLE_PNG);
    await expect(card.getByRole('button', { name: 'Replace the image' })).toBeVisible();
    await card.getByRole('textbox', { name: 'Card text' }).fill(`Pick number ${i + 1}`);
    await card.getByRole('textbox', { name: /Quick reply/ }).fill('I want it');
    await card.getByRole('textbox', { name: /Visit website/ }).fill('See more');
    await card.getByRole('textbox', { name: 'Website URL' }).fill(`https://shop.example.com/picks/${i + 1}`);
  }
  expect(await templates.submit('submit-carousel')).toBe('PENDING');
  await templates.expectStatus(name, 'APPROVED', 'Approved', 20_000);
  await page.getByRole('link', { name: `View ${name}` }).click();
  await expect(page.getByTestId('template-card')).toHaveCount(3);
  await expect(page.getByTestId('template-cards')).toContainText('Pick number 3');
});

test('a template named with "reject" shows Meta’s rejection with its reason, and is deleted', async ({ page }) => {
  const templates = new TemplatesPage(page);
  const name = `notice_reject_${stamp()}`;
  await templates.open();
  await templates.startNew('Utility', 'Text');
  await templates.fillName(name);
  await templates.fillBody('Your appointment is confirmed for tomorrow.');
  expect(await templates.submit()).toBe('PENDING');
  await templates.expectStatus(name, 'REJECTED', 'Rejected', 20_000);
  await expect(templates.reason(name)).toHaveText('Reason: Invalid format');
  await templates.delete(name);
});
