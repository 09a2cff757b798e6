import { expect, test, type Locator, type Page } from '@playwright/test';
import { ChatsPage } from './pages/ChatsPage';
import { CompanyPickerPage } from './pages/CompanyPickerPage';
import { ShellPage } from './pages/ShellPage';
import { DEMO_ADMIN, DEMO_AGENT, DEMO_COMPANY, uniqueEmail } from './support/demo';
import { createAccountViaApi } from './support/accounts';
import { signInTo } from './support/session';

/**
 * Maria Lopez's demo thread spans two days three days apart (server/plugins/sandbox/demo.ts): each
 * day starts with a separator ("Today", "Yesterday", a weekday, a date), the full date shows on
 * hovering a message's time, and the separators stay readable in both themes. The screenshots are
 * attached to the report (a pixel comparison would depend on the machine's fonts).
 */

/** Where react-admin keeps the theme choice (localStorageStore with the console's app key). */
const THEME_STORAGE_KEY = 'RaStoreconsole.theme';

const FIRST_DAY = 'Hi! I ordered a blue jacket last week (order #4821). Any news?';
const LATEST_DAY = 'It arrived, but the size is a bit small. Can I exchange it for an L?';

/** The label a separator must show for its day (`YYYY-MM-DD`), worked out in the browser's zone and language. */
async function expectedLabel(page: Page, day: string): Promise<string> {
  return page.evaluate((iso) => {
    const [y, m, d] = iso.split('-').map(Number);
    const date = new Date(y, m - 1, d);
    const now = new Date();
    const today = new Date(now.getFullYear(), now.getMonth(), now.getDate());
    const days = Math.round((today.getTime() - date.getTime()) / 86_400_000);
    if (days === 0) return 'Today';
    if (days === 1) return 'Yesterday';
    if (days > 1 && days < 7) return date.toLocaleDateString('en', { weekday: 'long' });
    return date.toLocaleDateString('en', days > 0 && date.getFullYear() === now.getFullYear() ? { weekday: 'long', day: 'numeric', month: 'long' } : { day: 'numeric', month: 'long', year: 'numeric' });
  }, day);
}

/** WCAG contrast ratio of the element's text against its own background (alpha blended over the page's). */
async function contrastOf(element: Locator): Promise<number> {
  return element.evaluate((el) => {
    const parse = (c: string) => (c.match(/[\d.]+/g) ?? []).map(Number) as number[];
    const over = (top: number[], bottom: number[]) => {
      const a = top[3] ?? 1;
      return [0, 1, 2].map((i) => top[i] * a + bottom[i] * (1 - a));
    };
    // The first opaque background up the tree, then the element's own (it may be translucent).
    const backgrounds: number[][] = [];
    for (let node: Element | null = el; node; node = node.parentElement) {
      const bg = parse(getComputedStyle(node).backgroundColor);
      if (bg.length && (bg[3] ?? 1) > 0) backgrounds.push(bg);
      if (bg.length && (bg[3] ?? 1) === 1) break;
    }
    let base = [255, 255, 255];
    for (const bg of backgrounds.reverse()) base = over(bg, base);
    const text = over(parse(getComputedStyle(el).color), base);
    const luminance = (rgb: number[]) => {
      const [r, g, b] = rgb.map((v) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const [hi, lo] = [luminance(text), luminance(base)].sort((a, b) => b - a);
    return (hi + 0.05) / (lo + 0.05);
  });
}

/** A row of the thread as read: a day's separator (its day and label) or a message (its text and local day). */
type ThreadRow = { separator: string; label: string } | { text: string; day: string };

/**
 * The open thread's rows, top to bottom. The message list (react-virtuoso) draws only the rows near its window, so
 * it is scrolled from its top to its bottom half a window at a time, each drawn item read by its index; it ends at
 * the bottom, where the inbox opens.
 */
async function threadRows(page: Page): Promise<ThreadRow[]> {
  const items = await page.getByTestId('message-list').evaluate(async (list) => {
    const scroller = (list.matches('[data-virtuoso-scroller]') ? list : list.querySelector('[data-virtuoso-scroller]')) as HTMLElement;
    const drawn = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const pad = (n: number) => String(n).padStart(2, '0');
    const read = (item: Element) =>
      [...item.querySelectorAll('[data-testid="day-separator"], [data-testid="message-row"]')].map((row) => {
        if (row.getAttribute('data-testid') === 'day-separator') {
          const time = row.querySelector('time');
          return { separator: time?.getAttribute('datetime') ?? '', label: time?.textContent ?? '' };
        }
        const at = new Date(row.querySelector('[data-testid="message-time"]')?.getAttribute('datetime') ?? '');
        return { text: row.querySelector('[data-testid="message-text"]')?.textContent ?? '', day: `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}` };
      });
    const byIndex = new Map<number, ReturnType<typeof read>>();
    scroller.scrollTop = 0;
    for (;;) {
      await drawn();
      for (const item of scroller.querySelectorAll('[data-item-index]')) byIndex.set(Number(item.getAttribute('data-item-index')), read(item));
      if (scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 1) break;
      scroller.scrollTop += scroller.clientHeight / 2;
    }
    return [...byIndex].sort(([a], [b]) => a - b).flatMap(([, rows]) => rows);
  });
  return items as ThreadRow[];
}

/** Scrolls the open thread to its top or its bottom and waits for the rows there to be drawn. */
async function scrollThread(page: Page, to: 'top' | 'bottom'): Promise<void> {
  await page.getByTestId('message-list').evaluate(async (list, where) => {
    const scroller = (list.matches('[data-virtuoso-scroller]') ? list : list.querySelector('[data-virtuoso-scroller]')) as HTMLElement;
    scroller.scrollTop = where === 'top' ? 0 : scroller.scrollHeight;
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  }, to);
}

for (const theme of ['light', 'dark'] as const) {
  test(`Maria Lopez's thread shows a separator per day, readable in the ${theme} theme`, async ({ page }, testInfo) => {
    await page.addInitScript(([key, value]) => window.localStorage.setItem(key, JSON.stringify(value)), [THEME_STORAGE_KEY, theme] as const);
    await page.setViewportSize({ width: 1280, height: 900 });
    await signInTo(page, DEMO_AGENT, DEMO_COMPANY);
    const chats = new ChatsPage(page);
    await chats.open();
    await chats.openRoom('Maria Lopez');
    // The thread opens at its latest message. Whether its first one is drawn too depends on the thread's height:
    // near midnight a day's messages fall on two local days, and the extra separators push it out of the window.
    await expect(chats.message(LATEST_DAY)).toBeVisible();

    // One separator per day, each right above its day's first message, with the label of its day. The list
    // draws only the rows near its window, so the thread is read while scrolled through from its top.
    const rows = await threadRows(page);
    const days = rows.flatMap((row) => ('separator' in row ? [row.separator] : []));
    expect(days.length).toBeGreaterThanOrEqual(2);
    expect(new Set(days).size).toBe(days.length);
    const expected = await Promise.all(days.map((day) => expectedLabel(page, day)));
    expect(rows.flatMap((row) => ('separator' in row ? [row.label] : []))).toEqual(expected);
    // Three days apart: the older day is named by its weekday, the latest (seeded minutes ago) is normally today.
    expect(expected[0]).toMatch(/^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)$/);
    expect(['Today', 'Yesterday']).toContain(expected.at(-1));

    // Every message sits under the separator of its own local day (robust to a run that straddles midnight,
    // when the seeded "minutes ago" messages fall on two days).
    expect(rows[0]).toMatchObject({ separator: days[0] });
    expect(rows[1]).toMatchObject({ text: FIRST_DAY });
    expect(rows.some((row) => 'text' in row && row.text === LATEST_DAY)).toBe(true);
    let current = '';
    for (const row of rows) {
      if ('separator' in row) current = row.separator;
      else expect(row.day, `the day above "${row.text}"`).toBe(current);
    }

    // Its top says it is the start of the conversation, above the first message.
    await scrollThread(page, 'top');
    await expect(chats.message(FIRST_DAY)).toBeVisible();
    await expect(page.getByText('Start of the conversation')).toBeVisible();
    await scrollThread(page, 'bottom');
    await expect(chats.message(LATEST_DAY)).toBeVisible();

    // Readable: caption text on its own pill, WCAG AA contrast for small text (the separators drawn at the bottom).
    const separators = page.getByTestId('day-separator');
    await expect(separators.first()).toBeVisible();
    for (const label of await separators.locator('time').all()) {
      await expect(label).toBeVisible();
      expect(await contrastOf(label)).toBeGreaterThanOrEqual(4.5);
    }

    // The full date and time on hovering a message's time.
    const time = chats.message(LATEST_DAY).getByTestId('message-time');
    const full = await time.evaluate((el) => new Date(el.getAttribute('datetime')!).toLocaleString('en', { dateStyle: 'full', timeStyle: 'short' }));
    await time.hover();
    await expect(page.getByRole('tooltip')).toHaveText(full);
    await page.mouse.move(0, 0);
    await expect(page.getByRole('tooltip')).toHaveCount(0);

    // The composer has the cursor, so the screenshot is the inbox as the agent finds it.
    await expect(chats.composer).toBeFocused();
    const screenshot = testInfo.outputPath(`chats-day-separators-${theme}.png`);
    await page.screenshot({ path: screenshot });
    await testInfo.attach(`chats-day-separators-${theme}`, { path: screenshot, contentType: 'image/png' });
  });
}

test('with no room open the inbox says what to do: choose a conversation, or (none yet) connect a channel or open the simulator', async ({ page, context, request }) => {
  await signInTo(page, DEMO_ADMIN, DEMO_COMPANY);
  const chats = new ChatsPage(page);
  await chats.open();
  await expect(chats.rooms.first()).toBeVisible();
  await expect(page.getByTestId('select-conversation')).toContainText('Select a conversation');
  await expect(page.getByTestId('empty-view')).toHaveCount(0);

  // A company of its own whose sandbox has no conversation yet (the demo companies' sandboxes are used by
  // other specs): "Nothing Found" once, in the list, and the next steps beside it.
  const owner = { email: uniqueEmail('quiet-admin'), password: 'Quiet-Console-Pass-42', firstName: 'Quinn', lastName: 'Quiet' };
  await createAccountViaApi(request, owner);
  const login = await request.post('/account/login/', { data: { email: owner.email, password: owner.password } });
  expect(login.status(), await login.text()).toBe(200);
  const quiet = `Quiet Co ${Date.now().toString(36)}`;
  const created = await request.post('/api/companies/', { headers: { Authorization: `Bearer ${((await login.json()) as { access: string }).access}` }, data: { name: quiet } });
  expect(created.status(), await created.text()).toBe(201);
  await new ShellPage(page).signOut();
  // Their only company: the console opens it at once (the picker shows only when there is a choice).
  await signInTo(page, owner);
  if (/\/company\/select/.test(page.url())) await new CompanyPickerPage(page).choose(quiet);
  await expect(new ShellPage(page).companyName).toHaveText(quiet);
  await chats.open();
  const steps = page.getByTestId('no-conversations');
  await expect(steps).toContainText('No conversations yet');
  await expect(page.getByTestId('empty-view')).toHaveCount(1);
  await expect(page.getByTestId('empty-view')).toContainText('Nothing Found');
  const simulator = steps.getByRole('link', { name: 'Open the customer simulator' });
  await expect(simulator).toHaveAttribute('href', /\/sandbox\/[^/]+$/);
  const [popup] = await Promise.all([context.waitForEvent('page'), simulator.click()]);
  await expect(popup).toHaveURL(/\/sandbox\//);
  await popup.close();
  await steps.getByRole('link', { name: 'Connect a channel' }).click();
  await expect(page).toHaveURL(/\/channels$/);
});
