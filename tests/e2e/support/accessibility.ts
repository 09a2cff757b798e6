import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

export type ConsoleTheme = 'light' | 'dark';

/** Where react-admin keeps the theme choice (localStorageStore with the console's app key). */
const THEME_STORAGE_KEY = 'RaStoreconsole.theme';

/** Opens every page of this browser context in `theme` (set before any script of the page runs). */
export async function useConsoleTheme(page: Page, theme: ConsoleTheme) {
  await page.addInitScript(([key, value]) => window.localStorage.setItem(key, JSON.stringify(value)), [THEME_STORAGE_KEY, theme] as const);
}

/**
 * Switches the console shell's theme in place, as another tab choosing one does: react-admin's store listens
 * to `storage` events (ra-core's localStorageStore). Resolves once the page is painted in it (the body's
 * background, set by MUI's CssBaseline from the theme, has changed). The signed-out pages read the theme
 * once when they load: open them with `useConsoleTheme` instead.
 */
export async function switchConsoleTheme(page: Page, theme: ConsoleTheme) {
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const before = await background();
  const changed = await page.evaluate(
    ([key, value]) => {
      const next = JSON.stringify(value);
      if (window.localStorage.getItem(key) === next) return false;
      window.localStorage.setItem(key, next);
      window.dispatchEvent(new StorageEvent('storage', { key, newValue: next, storageArea: window.localStorage }));
      return true;
    },
    [THEME_STORAGE_KEY, theme] as const,
  );
  if (changed) await expect.poll(background, { message: `the page is painted in the ${theme} theme` }).not.toBe(before);
}

/** WCAG 2.0–2.2 A and AA plus axe's best practices; only these impacts fail a test. */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];
/**
 * The rules of those tags whose outcome depends on colours, i.e. on the theme: the same page in the other
 * theme has the same elements, names, roles and landmarks, so only these are run again there.
 */
const THEME_DEPENDENT_RULES = ['color-contrast', 'link-in-text-block'];
const BLOCKING_IMPACTS = new Set(['serious', 'critical']);

/**
 * The shell's page as it is now, whole in the light theme, then switched in place to the dark one for the rules
 * that depend on colours, and back: one visit instead of a walk per theme (issue #20).
 */
export async function expectNoSeriousA11yViolationsInBothThemes(
  page: Page,
  label: string,
  /** inEachTheme: runs once the page is checked in a theme, still painted in it (a screenshot of each). */
  { inEachTheme }: { inEachTheme?: (theme: ConsoleTheme) => Promise<void> } = {},
) {
  await switchConsoleTheme(page, 'light');
  await expectNoSeriousA11yViolations(page, `${label} (light)`, { soft: true });
  await inEachTheme?.('light');
  await switchConsoleTheme(page, 'dark');
  await expectNoSeriousA11yViolations(page, `${label} (dark)`, { soft: true, colorsOnly: true });
  await inEachTheme?.('dark');
  await switchConsoleTheme(page, 'light');
}

/**
 * Runs axe-core on the page as it is now and fails with a readable list of every serious or
 * critical violation (rule, what it means, and up to five offending elements). Call it once the
 * page shows its content, in each theme: contrast differs between them.
 */
export async function expectNoSeriousA11yViolations(
  page: Page,
  label: string = new URL(page.url()).pathname,
  /**
   * soft: record the failure and go on (a spec visiting many pages reports them all at once).
   * colorsOnly: only the rules that depend on the theme (the page was checked whole in the other theme).
   */
  options: { soft?: boolean; colorsOnly?: boolean } = {},
) {
  // axe.run in the page itself (legacy mode) and only the violations gathered: by default AxeBuilder runs axe per
  // frame, then opens a blank page, injects axe-core again there and merges the frames' results in it, and axe
  // collects every passing node too. The console's pages have no frame of another origin, the only case legacy mode
  // misses, and only violations are read below. Measured on eight console pages (docs/testing.md): a whole check
  // 1.3-4.5 s → 0.4-1.7 s, the same violations found.
  const builder = new AxeBuilder({ page }).setLegacyMode().options({ resultTypes: ['violations'] });
  const results = await (options.colorsOnly ? builder.withRules(THEME_DEPENDENT_RULES) : builder.withTags(TAGS)).analyze();
  const blocking = results.violations
    .filter((violation) => BLOCKING_IMPACTS.has(violation.impact ?? ''))
    .map((violation) => {
      const nodes = violation.nodes.slice(0, 5).map((node) => `    ${node.target.join(' ')}: ${(node.failureSummary ?? '').replace(/\s+/g, ' ')}`);
      return `${violation.id} (${violation.impact}): ${violation.help}\n${nodes.join('\n')}`;
    });
  (options.soft ? expect.soft : expect)(blocking, `serious or critical accessibility violations on ${label}`).toEqual([]);
}
