import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations, expectNoSeriousA11yViolationsInBothThemes, useConsoleTheme, type ConsoleTheme } from './support/accessibility';
import { apiHeaders } from './support/apiSession';
import { COMPANY_PAGES, PUBLIC_PAGES, pluginPages, RECORD_ID, resourcePages } from './support/consolePages';
import { DEMO_ADMIN, DEMO_COMPANY } from './support/demo';
import { signInTo } from './support/session';
import { ChatsPage } from './pages/ChatsPage';
import { SimulatorPage } from './pages/SimulatorPage';

/**
 * axe-core on every console page (src/app's pages and every route of the loaded plugins, see
 * support/consolePages.ts), as a visitor and as the demo admin, in the light and the dark theme:
 * no serious or critical violation (contrast, names of buttons and fields, landmarks, ARIA…).
 * In the dark theme, the shell's pages are checked for the rules that depend on colours only
 * (support/accessibility.ts): everything else is the same page, checked whole in the light one.
 * Each group of company and plugin pages is then walked again on a 390-px phone: no page may scroll sideways (reflow).
 */

const GROUP_SIZE = 8;

/**
 * Opens `path` the way the console's own links do: the router follows the address (popstate) without
 * reloading the app, so a walk over thirty pages parses the bundle once, not thirty times. The router
 * keeps the old page on screen until the new one has loaded (a transition), so the old page's headings
 * are marked first and the new page counts as shown once a heading without the mark is. Two pages of
 * one route (`/bots/1`, `/bots/1?view=outline`) share their component, headings included: the second
 * is loaded afresh instead.
 */
async function openPage(page: Page, path: string, sameRouteAsBefore: boolean) {
  if (sameRouteAsBefore) {
    await page.goto(path);
    return;
  }
  await page.evaluate((to) => {
    document.querySelectorAll('h1, [role="heading"][aria-level="1"]').forEach((h) => h.setAttribute('data-previous-page', ''));
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate', { state: null }));
  }, path);
  await expect(page).toHaveURL((url) => `${url.pathname}${url.search}` === path);
  await expect(page.locator('h1:not([data-previous-page]), [role="heading"][aria-level="1"]:not([data-previous-page])').first()).toBeVisible();
}

/** Counts the page's API requests in flight (the console's calls go through fetch), for `settle`. */
async function countRequestsInFlight(page: Page) {
  await page.addInitScript(() => {
    const tracked = window as unknown as { __requestsInFlight: number };
    tracked.__requestsInFlight = 0;
    const fetchOfThePage = window.fetch.bind(window);
    window.fetch = (...args: Parameters<typeof fetch>) => {
      tracked.__requestsInFlight += 1;
      return fetchOfThePage(...args).finally(() => {
        tracked.__requestsInFlight -= 1;
      });
    };
  });
}

/**
 * A page is checked once it shows its heading, has stopped loading and has no request in flight twice in a row a
 * quarter of a second apart: a list's rows (react-admin shows nothing for its first second of loading) are then
 * on the page, and checked with it.
 */
async function settle(page: Page) {
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  const inFlight = () => page.evaluate(() => (window as unknown as { __requestsInFlight?: number }).__requestsInFlight ?? 0);
  await expect
    .poll(async () => {
      const before = await inFlight();
      await page.waitForTimeout(250);
      return before + (await inFlight());
    }, { message: 'no request in flight' })
    .toBe(0);
  await expect(page.locator('.RaLoading-root, [data-testid="loading"], .MuiSkeleton-root')).toHaveCount(0);
}

/** The phone the console is built for (the spec's 390-px width). */
const PHONE = { width: 390, height: 844 };

/**
 * Reflow (WCAG 1.4.10) at the phone's width: `pages`, opened in a page of their own that is 390 px wide from its
 * first paint (as a phone opens the console: narrowing a desktop page instead opens react-admin's menu as a modal
 * drawer over it) and walked as the desktop one is, must not scroll sideways: titles, forms and filters fit, a wide
 * table scrolls in its own box (react-admin's layout was once as wide as its widest table: /broadcast 975 px, /stats
 * 1054). Measured once each page has settled.
 */
async function expectNoSidewaysScrollOnAPhone(desktop: Page, pages: { path: string; route: string }[]) {
  const phone = await desktop.context().newPage();
  try {
    await countRequestsInFlight(phone);
    await phone.setViewportSize(PHONE);
    let previousRoute: string | null = null;
    for (const { path, route } of pages) {
      // The first page is loaded; the others are reached by the console's own navigation, as on the desktop.
      await openPage(phone, path, previousRoute === null || route === previousRoute);
      previousRoute = route;
      await settle(phone);
      const width = await phone.evaluate(() => document.documentElement.scrollWidth);
      expect.soft(width, `${path} at ${PHONE.width} px scrolls sideways`).toBeLessThanOrEqual(PHONE.width);
    }
  } finally {
    await phone.close();
  }
}

/** The id of the first record of `resource`'s list in the demo company, for the paths of a record's pages. */
async function firstRecordId(request: APIRequestContext, headers: Record<string, string>, resource: string): Promise<string> {
  const response = await request.get(`/api/${resource}/?page_size=1`, { headers });
  expect(response.status(), `the first of /api/${resource}/`).toBe(200);
  const { results } = (await response.json()) as { results: { id: number | string }[] };
  expect(results.length, `the demo company has a record of ${resource}`).toBeGreaterThan(0);
  return String(results[0].id);
}

// The signed-out pages read the theme once when they load: each theme is a walk of its own.
for (const theme of ['light', 'dark'] as ConsoleTheme[]) {
  test.describe(`${theme} theme`, () => {
    test.beforeEach(async ({ page }) => {
      await useConsoleTheme(page, theme);
      await countRequestsInFlight(page);
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
  });
}

// The shell follows a theme change in place (the app bar's toggle, or another tab): each page is opened once,
// checked whole in the light theme, then in the dark one for the rules that depend on colours.
test.describe('both themes', () => {
  test.beforeEach(async ({ page }) => {
    await useConsoleTheme(page, 'light');
    await countRequestsInFlight(page);
  });

  // Every company and plugin page, in groups of eight so the two workers share the walk; within a group
  // the console moves between pages as a user does (client-side navigation), not by reloading the app.
  const walk = [
    ...COMPANY_PAGES.map((path) => ({ path, route: path })),
    ...pluginPages(),
    ...resourcePages(),
    { path: '/no-such-page', route: '*' },
  ] as { path: string; route: string; resource?: string }[];
  const groups = Array.from({ length: Math.ceil(walk.length / GROUP_SIZE) }, (_, i) => walk.slice(i * GROUP_SIZE, (i + 1) * GROUP_SIZE));
  groups.forEach((group, index) => {
    test(`company and plugin pages, part ${index + 1} of ${groups.length} (${group[0].path} …), as the admin`, async ({ page, request }) => {
      test.slow();
      await signInTo(page, DEMO_ADMIN, DEMO_COMPANY);
      let previousRoute = '';
      // A resource's record pages (its show and its edit form) share one look-up, and the group one sign-in for it.
      let headers: Promise<Record<string, string>> | undefined;
      const recordIds = new Map<string, Promise<string>>();
      const recordId = (resource: string) => {
        headers ??= apiHeaders(request, DEMO_ADMIN, DEMO_COMPANY);
        if (!recordIds.has(resource)) recordIds.set(resource, headers.then((h) => firstRecordId(request, h, resource)));
        return recordIds.get(resource)!;
      };
      const walked: { path: string; route: string }[] = [];
      for (const { path: pattern, route, resource } of group) {
        const path = resource && pattern.includes(RECORD_ID) ? pattern.replace(RECORD_ID, await recordId(resource)) : pattern;
        await openPage(page, path, route === previousRoute);
        previousRoute = route;
        await settle(page);
        await expectNoSeriousA11yViolationsInBothThemes(page, path);
        walked.push({ path, route });
      }
      await expectNoSidewaysScrollOnAPhone(page, walked);
    });
  });

  test('the inbox with a conversation open, as the admin', async ({ page, browser, request }) => {
    // A conversation of its own, resolved, so the room header always shows its status chip: the first room of the
    // shared demo inbox was open or resolved depending on which spec had just touched it (a dark-theme contrast
    // failure of the "Resolved" chip showed only then).
    const stamp = Date.now().toString(36);
    const name = `A11y Customer ${stamp}`;
    const customerContext = await browser.newContext();
    const simulator = new SimulatorPage(await customerContext.newPage());
    await simulator.open(await SimulatorPage.linkFor(request, DEMO_ADMIN, DEMO_COMPANY));
    await simulator.startAs(name, `a11y-${stamp}`);
    await simulator.send(`Hello ${stamp}`);
    await customerContext.close();

    await signInTo(page, DEMO_ADMIN, DEMO_COMPANY);
    // composer, message list, room header
    await openPage(page, '/chats', false);
    const chats = new ChatsPage(page);
    await chats.openRoom(name);
    await expect(page.getByTestId('room-header')).toBeVisible();
    await page.getByTestId('resolve-room').click();
    await expect(page.getByTestId('status-chip')).toHaveText('Resolved');
    await expectNoSeriousA11yViolationsInBothThemes(page, '/chats/{room}');
  });
});
