import { expect, test } from '@playwright/test';
import { BroadcastsPage } from './pages/BroadcastsPage';
import { apiHeaders } from './support/apiSession';
import { DEMO_ADMIN, DEMO_COMPANY } from './support/demo';
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
  await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
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
