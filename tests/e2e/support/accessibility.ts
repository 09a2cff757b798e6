import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

export type ConsoleTheme = 'light' | 'dark';

/** Where react-admin keeps the theme choice (localStorageStore with the console's app key). */
const THEME_STORAGE_KEY = 'RaStoreconsole.theme';

/** Opens every page of this browser context in `theme` (set before any script of the page runs). */
export async function useConsoleTheme(page: Page, theme: ConsoleTheme) {
  await page.addInitScript(([key, value]) => window.localStorage.setItem(key, JSON.stringify(value)), [THEME_STORAGE_KEY, theme] as const);
}

/** WCAG 2.0–2.2 A and AA plus axe's best practices; only these impacts fail a test. */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];
const BLOCKING_IMPACTS = new Set(['serious', 'critical']);

/**
 * Runs axe-core on the page as it is now and fails with a readable list of every serious or
 * critical violation (rule, what it means, and up to five offending elements). Call it once the
 * page shows its content, in each theme: contrast differs between them.
 */
export async function expectNoSeriousA11yViolations(
  page: Page,
  label: string = new URL(page.url()).pathname,
  /** soft: record the failure and go on (a spec visiting many pages reports them all at once). */
  options: { soft?: boolean } = {},
) {
  const results = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  const blocking = results.violations
    .filter((violation) => BLOCKING_IMPACTS.has(violation.impact ?? ''))
    .map((violation) => {
      const nodes = violation.nodes.slice(0, 5).map((node) => `    ${node.target.join(' ')}: ${(node.failureSummary ?? '').replace(/\s+/g, ' ')}`);
      return `${violation.id} (${violation.impact}): ${violation.help}\n${nodes.join('\n')}`;
    });
  (options.soft ? expect.soft : expect)(blocking, `serious or critical accessibility violations on ${label}`).toEqual([]);
}
