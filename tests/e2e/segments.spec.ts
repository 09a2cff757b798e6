import { expect, test, type APIRequestContext } from '@playwright/test';
import { BroadcastsPage } from './pages/BroadcastsPage';
import { ChatsPage } from './pages/ChatsPage';
import { apiHeaders } from './support/apiSession';
import { DEMO_ADMIN, DEMO_COMPANY } from './support/demo';
import { FakeMeta } from './support/fakeMeta';
import { signInTo } from './support/session';

/**
 * Issue #23: an admin builds the segment `city = Lyon` on /segments (its count follows the builder), then
 * sends a broadcast to it with the template's body {{1}} taken from each contact's city.
 */
test('a segment city = Lyon: built with its count, then a broadcast to it with {{1}} mapped to the city', async ({ page, request }) => {
  // Several pages, a build's first loads of their chunks, and a broadcast sent to the fake Meta.
  test.slow();
  const name = `Lyon ${Date.now().toString(36)}`;
  const headers = await apiHeaders(request, DEMO_ADMIN, DEMO_COMPANY);
  const conditions = { attributes: [{ key: 'city', op: 'eq', value: 'Lyon' }] };
  const expected = ((await (await request.post('/api/segments/count/', { headers, data: { conditions } })).json()) as { count: number }).count;
  expect(expected).toBeGreaterThan(0);

  await signInTo(page, DEMO_ADMIN, DEMO_COMPANY);
  await page.goto('/segments');
  await expect(page.getByRole('heading', { name: 'Contacts', level: 1 })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Segments' })).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('button', { name: 'New segment' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
  await dialog.getByRole('button', { name: 'Add an attribute condition' }).click();
  const attribute = dialog.getByRole('combobox', { name: 'Attribute 1' });
  if ((await attribute.textContent())?.trim() !== 'City') {
    await attribute.click();
    await page.getByRole('option', { name: 'City', exact: true }).click();
  }
  await expect(dialog.getByRole('combobox', { name: 'Condition 1' })).toHaveText('is');
  const value = dialog.getByRole('combobox', { name: 'Value 1' });
  if ((await value.textContent())?.trim() !== 'Lyon') {
    await value.click();
    await page.getByRole('option', { name: 'Lyon', exact: true }).click();
  }
  await expect(dialog.getByTestId('segment-count')).toHaveText(`${expected} contacts`);
  await dialog.getByRole('button', { name: 'Save' }).click();
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText(`${expected} contacts`);

  // The broadcast: existing contacts, the segment, the demo's welcome_offer with its body {{1}} from the city.
  const broadcasts = new BroadcastsPage(page);
  await broadcasts.open();
  await page.getByRole('link', { name: 'New broadcast' }).click();
  await page.getByRole('link', { name: /Existing contacts/ }).click();
  await broadcasts.fillName(`To ${name}`);
  await broadcasts.chooseNumber(/\+/);
  await page.getByRole('radio', { name: 'A segment' }).check();
  await page.getByRole('combobox', { name: 'Segment' }).click();
  await page.getByRole('option', { name, exact: true }).click();
  await expect(page.getByTestId('segment-audience-count')).toContainText(`${expected} contact`);
  await broadcasts.next();

  await broadcasts.chooseTemplate('welcome_offer');
  await broadcasts.mapVariable('header.1', 'Header {{1}}', 'Contact field', 'First name');
  const body1 = page.getByTestId('variable-body.1');
  await body1.getByRole('combobox', { name: /^Body \{\{1\}\} Value from/ }).click();
  await page.getByRole('option', { name: 'Contact attribute', exact: true }).click();
  await body1.getByRole('combobox', { name: /^Body \{\{1\}\} Attribute/ }).click();
  await page.getByRole('option', { name: 'City', exact: true }).click();
  await broadcasts.mapVariable('body.2', 'Body {{2}}', 'Fixed text', '15%');
  await broadcasts.next();
  await broadcasts.next();

  // Review: the segment's members less those left out, and the message as the first one sees it.
  const review = page.getByTestId('review-recipients');
  await expect(review).toHaveText(/\d+ recipients?/);
  const recipients = Number((await review.textContent())!.match(/\d+/)![0]);
  expect(recipients).toBeGreaterThan(0);
  expect(recipients).toBeLessThanOrEqual(expected);
  await expect(page.getByTestId('excluded-opted_out')).toContainText('Opted out:');
  await expect(broadcasts.preview()).toContainText('Hi Lyon, enjoy 15% off your first order with us.');
  await broadcasts.submit('Send broadcast');

  await expect(page).toHaveURL(/\/broadcast\/\d+$/);
  const id = Number(/\/broadcast\/(\d+)$/.exec(page.url())![1]);
  const detail = (await (await request.get(`/api/broadcasts/${id}/`, { headers })).json()) as { audience: { type: string; name: string }; n_users: number; variables: { body: Record<string, { source: string; value: string }> } };
  expect(detail.audience).toMatchObject({ type: 'segment', name });
  expect(detail.n_users).toBe(recipients);
  expect(detail.variables.body['1']).toEqual({ source: 'attribute', value: 'city' });
});

/** The Graph id of the demo company's WhatsApp number on the fake Meta (server/plugins/templates/demo.ts): where its customers write to. */
async function demoNumber(request: APIRequestContext): Promise<string> {
  const state = (await (await request.get('/dev/meta/control/state')).json()) as { phoneNumbers: Record<string, { id: string; display_phone_number: string }> };
  const demo = Object.values(state.phoneNumbers).find((n) => n.display_phone_number === '+1 555 0100');
  expect(demo, 'the demo WhatsApp number on the fake Meta').toBeTruthy();
  return demo!.id;
}

test.describe('a broadcast in the contact panel at 1440 px', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test('a segment of this test’s own customers gets {{1}} from each one’s city; one replies, and /chats shows the broadcast on their contact', async ({ page, request }) => {
    // Contacts, a broadcast sent through the fake Meta, a reply, then the inbox: several pages and live updates.
    test.slow();
    const stamp = Date.now().toString(36);
    const digits = String(Date.now() % 10_000_000).padStart(7, '0');
    // This test's own customers (French mobiles no other spec writes to), tagged so the segment holds only them.
    const tag = `e2e-city-${stamp}`;
    const customers = [
      { name: `Lina Lyon ${stamp}`, phone: `+3378${digits}`, city: 'Lyon' },
      { name: `Paul Paris ${stamp}`, phone: `+3379${digits}`, city: 'Paris' },
    ];
    const headers = await apiHeaders(request, DEMO_ADMIN, DEMO_COMPANY);
    let tagId = 0;
    for (const c of customers) {
      const res = await request.post('/api/contacts/', { headers, data: { name: c.name, phone: c.phone, attributes: { city: c.city }, tags: [tag] } });
      expect(res.status(), await res.text()).toBe(201);
      tagId = ((await res.json()) as { tags: { id: number; name: string }[] }).tags.find((t) => t.name === tag)!.id;
    }
    const segmentName = `Tagged ${tag}`;
    const segment = await request.post('/api/segments/', { headers, data: { name: segmentName, conditions: { tags: [tagId] } } });
    expect(segment.status(), await segment.text()).toBe(201);

    // The broadcast from the demo's WhatsApp number (the one the customers will answer), {{1}} from the City attribute.
    await signInTo(page, DEMO_ADMIN, DEMO_COMPANY);
    const broadcasts = new BroadcastsPage(page);
    const name = `Cities ${stamp}`;
    await broadcasts.open();
    await page.getByRole('link', { name: 'New broadcast' }).click();
    await page.getByRole('link', { name: /Existing contacts/ }).click();
    await broadcasts.fillName(name);
    await broadcasts.chooseNumber(/\+1 555 0100/);
    await page.getByRole('radio', { name: 'A segment' }).check();
    await page.getByRole('combobox', { name: 'Segment' }).click();
    await page.getByRole('option', { name: segmentName, exact: true }).click();
    await expect(page.getByTestId('segment-audience-count')).toHaveText('2 contacts in this segment; 2 can receive it.');
    await broadcasts.next();

    await broadcasts.chooseTemplate('welcome_offer');
    await broadcasts.mapVariable('header.1', 'Header {{1}}', 'Contact field', 'First name');
    const body1 = page.getByTestId('variable-body.1');
    await body1.getByRole('combobox', { name: /^Body \{\{1\}\} Value from/ }).click();
    await page.getByRole('option', { name: 'Contact attribute', exact: true }).click();
    await body1.getByRole('combobox', { name: /^Body \{\{1\}\} Attribute/ }).click();
    await page.getByRole('option', { name: 'City', exact: true }).click();
    await broadcasts.mapVariable('body.2', 'Body {{2}}', 'Fixed text', '10%');
    await broadcasts.next();
    await broadcasts.next();
    await expect(page.getByTestId('review-recipients')).toHaveText('2 recipients');
    await broadcasts.submit('Send broadcast');

    // Who received what: each one's row on the broadcast's page with the message it was sent, and the same values as Meta was asked to send them.
    await expect(page).toHaveURL(/\/broadcast\/\d+$/);
    await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
    await expect(broadcasts.counter('sent')).toHaveText('2');
    for (const c of customers) {
      const row = page.getByTestId('recipient-row').filter({ hasText: c.phone });
      await expect(row).toContainText(c.name);
      await expect(row.getByTestId('recipient-message')).toHaveText(`Welcome, ${c.name.split(' ')[0]}!\nHi ${c.city}, enjoy 10% off your first order with us.`);
    }
    const fake = new FakeMeta(request);
    const sent = await fake.sent();
    for (const c of customers) {
      const message = sent.find((s) => s.payload.to === c.phone.slice(1) && (s.payload.template as { name?: string } | undefined)?.name === 'welcome_offer');
      expect(message?.payload.template, `the template sent to ${c.name}`).toMatchObject({
        components: [
          { type: 'header', parameters: [{ type: 'text', text: c.name.split(' ')[0] }] },
          { type: 'body', parameters: [{ type: 'text', text: c.city }, { type: 'text', text: '10%' }] },
        ],
      });
    }

    // Lina answers on WhatsApp: the reply counts on the broadcast, and her conversation is her contact's.
    const [lina] = customers;
    await fake.customerWrites({ phoneNumberId: await demoNumber(request), from: lina.phone.slice(1), name: lina.name, text: 'Is the Lyon shop open on Sunday?' });
    await expect(broadcasts.counter('replied')).toHaveText('1');
    await expect(page.getByTestId('recipient-row').filter({ hasText: lina.phone })).toContainText('Replied');

    const chats = new ChatsPage(page);
    await page.goto('/chats');
    // As in the contacts spec: the inbox's first load on a busy machine (its page, the contacts strings, the socket) can take longer than the usual 15 s.
    await chats.expectLive(60_000);
    await chats.openRoom(lina.name);
    const panel = page.getByTestId('contact-panel');
    await expect(panel.getByText(lina.phone)).toBeVisible();
    await expect(panel.getByText('Lyon', { exact: true })).toBeVisible();
    const received = panel.getByRole('list', { name: 'Broadcasts received' });
    await expect(received.getByRole('listitem')).toHaveCount(1);
    await expect(received.getByRole('listitem')).toContainText(name);
    await expect(received.getByRole('listitem')).toContainText('Replied');
    // The panel as a column beside a room with all its controls (a bot to pause, a customer to block) fits 1440 px.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  });
});
