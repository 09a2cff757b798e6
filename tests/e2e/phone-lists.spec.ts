import { expect, test } from '@playwright/test';
import { DEMO_ADMIN, DEMO_COMPANY } from './support/demo';
import { signInTo } from './support/session';

/**
 * The lists an admin opens from a phone show each row whole: no column past the screen's edge to scroll to inside
 * the table's box (the page itself not scrolling sideways is accessibility.spec's reflow check; these tables once
 * kept their wide columns in a box of their own, the e-mail, role, counters and dates out of sight).
 */
test.describe('lists at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  for (const { path, row } of [
    { path: '/contacts', row: 'James Carter' },
    { path: '/broadcast', row: 'Autumn welcome offer' },
    { path: '/team', row: 'Alex Agent' },
  ]) {
    test(`${path} fits each row in the screen's width`, async ({ page }) => {
      await signInTo(page, DEMO_ADMIN, DEMO_COMPANY);
      await page.goto(path);
      const table = page.locator('table').filter({ hasText: row }).first();
      await expect(table).toBeVisible();
      const box = await table.evaluate((element) => ({ right: element.getBoundingClientRect().right, scrollWidth: element.scrollWidth }));
      expect(box.right, 'the table ends inside the screen').toBeLessThanOrEqual(390);
      expect(box.scrollWidth, 'nothing of the table overflows it').toBeLessThanOrEqual(390);
    });
  }
});
