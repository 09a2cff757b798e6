import { expect, test } from '@playwright/test';
import { DEMO_ADMIN, DEMO_COMPANY } from './support/demo';
import { signInTo } from './support/session';

/** Each list and a row of the demo's it shows. */
const LISTS = [
  { path: '/contacts', row: 'James Carter' },
  { path: '/broadcast', row: 'Autumn welcome offer' },
  { path: '/team', row: 'Alex Agent' },
  { path: '/templates', row: 'spring_sale' },
  { path: '/bots', row: 'Demo assistant' },
  { path: '/flows', row: 'Demo Company tour' },
  { path: '/knowledge', row: 'Shipping' },
  { path: '/contact-attributes', row: 'Customer since' },
];

/**
 * The lists an admin opens from a phone show each row whole: no column past the screen's edge to scroll to inside
 * the table's box (the page itself not scrolling sideways is accessibility.spec's reflow check; these tables once
 * kept their wide columns in a box of their own, the e-mail, role, counters, statuses and dates out of sight).
 * One sign-in, every list.
 */
test.describe('lists at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("every list fits each row in the screen's width", async ({ page }) => {
    await signInTo(page, DEMO_ADMIN, DEMO_COMPANY);
    for (const { path, row } of LISTS) {
      await page.goto(path);
      const table = page.locator('table').filter({ hasText: row }).first();
      await expect(table, `${path} shows ${row}`).toBeVisible();
      const box = await table.evaluate((element) => ({ right: element.getBoundingClientRect().right, scrollWidth: element.scrollWidth }));
      expect.soft(box.right, `${path}: the table ends inside the screen`).toBeLessThanOrEqual(390);
      expect.soft(box.scrollWidth, `${path}: nothing of the table overflows it`).toBeLessThanOrEqual(390);
    }

    // A contact's form takes the phone's width (react-admin's edit page lined its card up at the start, 301 of 358 px).
    await page.goto('/contacts');
    await page.getByText('James Carter').first().click();
    await expect(page.getByRole('textbox', { name: 'Name' })).toHaveValue('James Carter');
    const form = (await page.locator('.RaEdit-card').boundingBox())!;
    expect.soft(form.x + form.width, 'the contact form reaches the right of the page').toBeGreaterThanOrEqual(360);

    // A broadcast's recipients, and their status filter inside the same card.
    await page.goto('/broadcast');
    await page.getByRole('link', { name: 'Autumn welcome offer' }).click();
    const recipients = page.getByRole('table', { name: 'Recipients' });
    await expect(recipients.getByText('Maria Lopez')).toBeVisible();
    const table = (await recipients.boundingBox())!;
    expect.soft(table.x + table.width, 'the recipients end inside the screen').toBeLessThanOrEqual(390);
    const filter = (await page.getByRole('combobox', { name: 'Status' }).boundingBox())!;
    expect.soft(filter.x + filter.width, 'the status filter ends where the table does').toBeLessThanOrEqual(table.x + table.width + 1);
  });
});
