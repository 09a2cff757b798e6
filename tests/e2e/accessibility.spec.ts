import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations, useConsoleTheme, type ConsoleTheme } from './support/accessibility';
import { COMPANY_PAGES, PUBLIC_PAGES, pluginPages } from './support/consolePages';
import { DEMO_ADMIN, DEMO_COMPANY } from './support/demo';
import { signInTo } from './support/session';
import { SimulatorPage } from './pages/SimulatorPage';

/**
 * axe-core on every console page (src/app's pages and every route of the loaded plugins, see
 * support/consolePages.ts), as a visitor and as the demo admin, in the light and the dark theme:
 * no serious or critical violation (contrast, names of buttons and fields, landmarks, ARIA…).
 */

/** A page is checked once it shows its heading and has stopped loading. */
async function settle(page: Page) {
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  await expect(page.locator('.RaLoading-root, [data-testid="loading"]')).toHaveCount(0);
}

for (const theme of ['light', 'dark'] as ConsoleTheme[]) {
  test.describe(`${theme} theme`, () => {
    test.beforeEach(async ({ page }) => {
      await useConsoleTheme(page, theme);
    });

    test('sign-in, sign-up, reset and simulator pages', async ({ page, request }) => {
      test.setTimeout(120_000);
      const simulator = await SimulatorPage.linkFor(request, DEMO_ADMIN, DEMO_COMPANY);
      for (const path of [...PUBLIC_PAGES, simulator]) {
        await page.goto(path);
        await settle(page);
        await expectNoSeriousA11yViolations(page, `${path} (${theme})`, { soft: true });
      }
    });

    test('company pages, every plugin page, an open conversation and Not Found, as the admin', async ({ page }) => {
      // Every plugin page with axe, one after the other: past 240 s on a loaded 2-core machine (session 8's fresh-clone run).
      test.setTimeout(360_000);
      await signInTo(page, DEMO_ADMIN, DEMO_COMPANY);
      const pages = [...COMPANY_PAGES, ...pluginPages().map((p) => p.path), '/no-such-page'];
      for (const path of pages) {
        await page.goto(path);
        await settle(page);
        await expectNoSeriousA11yViolations(page, `${path} (${theme})`, { soft: true });
      }
      // the inbox with a conversation open (composer, message list, room header)
      await page.goto('/chats');
      await page.getByTestId('room-item').first().click();
      await expect(page.getByTestId('room-header')).toBeVisible();
      await expectNoSeriousA11yViolations(page, `/chats/{room} (${theme})`, { soft: true });
    });
  });
}
