import { readFile } from 'node:fs/promises';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { StatsPage, TodayAtAGlance } from './pages/StatsPage';
import { expectNoSeriousA11yViolationsInBothThemes, useConsoleTheme } from './support/accessibility';
import { apiHeaders } from './support/apiSession';
import { DEMO_ADMIN, DEMO_AGENT, DEMO_COMPANY } from './support/demo';
import { signInTo } from './support/session';

test.use({ timezoneId: 'UTC' });

const DAY = 86_400_000;
const day = (t: number) => new Date(t).toISOString().slice(0, 10);

/**
 * The demo's history sits before the day the server seeded it (its conversations 25 hours to 4
 * days earlier, its finished broadcast 48 hours earlier); what other specs add comes after. The
 * seed time is read from the demo broadcast (created 48 h 10 min before it), and the range is the
 * week that ends the day before: exactly the demo's figures, whatever else runs.
 */
async function demoWeek(request: APIRequestContext): Promise<{ from: string; to: string }> {
  const headers = await apiHeaders(request, DEMO_ADMIN, DEMO_COMPANY);
  const list = (await (await request.get('/api/broadcasts/', { headers, params: { page_size: '100' } })).json()) as { results: { name: string; created_at: string }[] };
  const finished = list.results.find((b) => b.name === 'Autumn welcome offer');
  expect(finished, 'the demo broadcast').toBeTruthy();
  const seededAt = Date.parse(finished!.created_at) + 48 * 3_600_000 + 10 * 60_000;
  const seedDay = Date.parse(`${day(seededAt)}T00:00:00Z`);
  return { from: day(seedDay - 7 * DAY), to: day(seedDay - DAY) };
}

test('the admin sees the demo’s figures on /stats: conversations, the agent’s response times, the broadcast funnel; a table exports as CSV', async ({ page, request }) => {
  const week = await demoWeek(request);
  await signInTo(page, DEMO_ADMIN, DEMO_COMPANY);
  const stats = new StatsPage(page);
  await stats.open();
  await stats.chooseRange(week.from, week.to);

  await expect(stats.total('started')).toHaveText('5');
  await expect(stats.total('human-handled')).toHaveText('5');
  await expect(stats.total('first-response')).toHaveText('50 min');
  // The demo agent answered every demo conversation: 20, 100, 100, 50 and 15 minutes.
  const alex = stats.row('agents', 'Alex Agent');
  await expect(alex).toContainText('50 min');
  await expect(alex).toContainText('1 h 40 min');
  await expect(stats.ownScopeNotice()).toHaveCount(0);
  // The finished demo broadcast's funnel: sent 9, delivered 8, read 6, replied 2 (2 failed).
  const funnel = stats.row('broadcasts', 'Autumn welcome offer');
  await expect(funnel.getByRole('cell')).toHaveText(['Autumn welcome offer', /\d{4}-\d{2}-\d{2}/, '11', '9', '8', '6', '2', '2']);
  await expect(stats.section('heatmap').getByTestId('stats-heatmap')).toBeVisible();

  const download = await stats.exportCsv('Response times by agent');
  expect(download.suggestedFilename()).toBe(`stats-agents-${week.from}-${week.to}.csv`);
  const csv = (await readFile(await download.path(), 'utf8')).replace(/^\ufeff/, '');
  const [header, row] = csv.trim().split(/\r\n/);
  expect(header).toBe('Agent,E-mail,Conversations answered,First response (median),First response (p90),Conversations closed,Resolution (median),Resolution (p90),Messages out');
  expect(row).toMatch(/^Alex Agent,agent@demo\.test,5,3000,6000,/);
});

test('/stats and /account fit a 1440-px screen: no sideways scroll, the funnel\'s last column in view', async ({ page, request }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const week = await demoWeek(request);
  await signInTo(page, DEMO_ADMIN, DEMO_COMPANY);
  const stats = new StatsPage(page);
  await stats.open();
  await stats.chooseRange(week.from, week.to);
  await expect(stats.row('broadcasts', 'Autumn welcome offer')).toBeVisible();
  const noSidewaysScroll = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
  expect(await noSidewaysScroll()).toBe(true);
  // The funnel's Failed column lies inside the table's own box, not behind its horizontal scroll.
  const fits = (section: string) =>
    page.getByTestId(`stats-section-${section}`).locator('.MuiTableContainer-root').evaluate((region) => region.scrollWidth <= region.clientWidth);
  expect(await fits('broadcasts')).toBe(true);
  expect(await fits('agents')).toBe(true);

  await page.goto('/account');
  await expect(page.getByRole('heading', { level: 1, name: 'Your account' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Billing', exact: true })).toBeVisible();
  expect(await noSidewaysScroll()).toBe(true);
});

test('an agent sees only their own figures, and no broadcasts', async ({ page, request }) => {
  const week = await demoWeek(request);
  await signInTo(page, DEMO_AGENT, DEMO_COMPANY);
  const stats = new StatsPage(page);
  await stats.open();
  await stats.chooseRange(week.from, week.to);
  await expect(stats.ownScopeNotice()).toBeVisible();
  await expect(stats.total('first-response')).toHaveText('50 min');
  await expect(stats.section('agents').getByRole('row')).toHaveCount(2); // the header and the agent
  await expect(stats.row('agents', 'Alex Agent')).toBeVisible();
  await expect(stats.section('broadcasts')).toHaveCount(0);

  const today = new TodayAtAGlance(page);
  await today.open();
  await expect(page.getByText('Your own figures today.', { exact: false })).toBeVisible();
});

test('the dashboard shows today at a glance, each figure leading to where it is acted on', async ({ page }) => {
  await signInTo(page, DEMO_ADMIN, DEMO_COMPANY);
  const today = new TodayAtAGlance(page);
  await today.open();
  for (const id of ['open', 'unassigned', 'messages-in', 'messages-out']) await expect(today.value(id)).toHaveText(/^\d+$/);
  // The demo's Maria and Aiko wrote within the last hours: their conversations are open.
  await expect.poll(async () => Number(await today.value('open').textContent())).toBeGreaterThanOrEqual(2);
  // The figures are the inbox's: its open conversations, all and unassigned, show the same numbers.
  const [open, unassigned] = [await today.value('open').textContent(), await today.value('unassigned').textContent()];
  await today.figure('open').click();
  await expect(page.getByRole('tab', { name: `All (${open})`, exact: true })).toBeVisible();
  await expect(page.getByRole('tab', { name: `Unassigned (${unassigned})`, exact: true })).toBeVisible();
  await today.open();
  await expect(today.value('bot-share')).toHaveText(/%|—/);
  // The demo has taken every getting-started step: no such card (a new company's: dashboard-links.spec.ts).
  await expect(page.getByRole('heading', { name: 'Getting started' })).toHaveCount(0);
  await today.figure('unassigned').click();
  await expect(page).toHaveURL(/\/chats\?filter=unassigned$/);
  await today.open();
  await today.figure('first-response').click();
  await expect(page.getByRole('heading', { name: 'Stats', level: 1 })).toBeVisible();
});

// Each page opened once, checked whole in the light theme and for the colour rules in the dark one, switched in place.
test('/stats and the dashboard have no serious accessibility violations, in both themes', async ({ page, request }) => {
  // Two pages, each checked by axe once it shows its figures: more steps than the other tests.
  test.slow();
  const week = await demoWeek(request);
  await useConsoleTheme(page, 'light');
  await signInTo(page, DEMO_ADMIN, DEMO_COMPANY);
  const today = new TodayAtAGlance(page);
  await today.open();
  await expect(today.value('open')).toHaveText(/^\d+$/);
  await expectNoSeriousA11yViolationsInBothThemes(page, '/dashboard');
  const stats = new StatsPage(page);
  await stats.open();
  await stats.chooseRange(week.from, week.to);
  await expect(stats.total('started')).toHaveText('5');
  await expectNoSeriousA11yViolationsInBothThemes(page, '/stats');
});
