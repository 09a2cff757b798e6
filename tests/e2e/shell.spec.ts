import { expect, test, type Locator, type Page } from '@playwright/test';
import { CompanyPickerPage } from './pages/CompanyPickerPage';
import { LoginPage } from './pages/LoginPage';
import { ShellPage } from './pages/ShellPage';
import { createAccountViaApi } from './support/accounts';
import { DEMO_ADMIN, DEMO_AGENT, DEMO_COMPANY, NORTHWIND, uniqueEmail } from './support/demo';
import { contrastRatio, focusRingOf } from './support/focusRing';
import { signInThroughForm, signInTo } from './support/session';

/** Presses Tab until `target` has the keyboard focus (at most `max` times). */
async function tabTo(page: Page, target: Locator, max = 40) {
  for (let i = 0; i < max; i += 1) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((el) => el === document.activeElement)) return;
  }
  throw new Error('the element never received the keyboard focus');
}

test('a company switch keeps the user on the page they were on', async ({ page }) => {
  // Through the form and the picker, as a person signs in (every other spec signs in through the API).
  await signInThroughForm(page, DEMO_ADMIN, DEMO_COMPANY);
  const shell = new ShellPage(page);
  await shell.openFromMenu('Team');
  await expect(page).toHaveURL(/\/team$/);
  // the page is shown (its chunk loaded), not only the address changed
  await expect(page.getByRole('heading', { name: 'Team', level: 1 })).toBeVisible();

  await shell.switchCompany(NORTHWIND);
  await expect(shell.companyName).toHaveText(NORTHWIND);
  await expect(page).toHaveURL(/\/team$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
});

test('after a switch to a company where the page is not allowed, the user lands on the dashboard, without an error', async ({ page }) => {
  // In Northwind the agent role may not view your_account (the demo's per-company override).
  await signInTo(page, DEMO_AGENT, DEMO_COMPANY);
  const shell = new ShellPage(page);
  await page.goto('/account');
  await expect(page.getByRole('heading', { name: 'Account', level: 1 }).or(page.getByRole('heading', { level: 1 })).first()).toBeVisible();

  await shell.switchCompany(NORTHWIND);
  await expect(shell.companyName).toHaveText(NORTHWIND);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText('You do not have permission to access this page.')).toHaveCount(0);
});

test('a signed-in user who opens a sign-in or sign-up page goes to the console; a reset link stays usable', async ({ page }) => {
  const login = new LoginPage(page);
  await login.open();
  await login.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
  // two companies and none chosen yet: the picker
  await new CompanyPickerPage(page).expectOnPage();
  await page.goto('/auth/login');
  await new CompanyPickerPage(page).expectOnPage();

  await new CompanyPickerPage(page).choose(DEMO_COMPANY);
  await expect(page).toHaveURL(/\/dashboard$/);
  for (const path of ['/auth/login', '/auth/register', '/auth/signup', '/auth/reset-password']) {
    await page.goto(path);
    await expect(page, path).toHaveURL(/\/dashboard$/);
  }

  // a password-reset link from an e-mail still opens its form
  await page.goto('/auth/reset-password/some-token-from-an-email');
  await expect(page).toHaveURL(/\/auth\/reset-password\/some-token-from-an-email$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByLabel(/password/i).first()).toBeVisible();
});

test('Not Found has a title, a sentence and a way to the dashboard', async ({ page }) => {
  await signInTo(page, DEMO_ADMIN, DEMO_COMPANY);
  await page.goto('/templates-that-do-not-exist');
  await expect(page.getByRole('heading', { name: 'Page not found', level: 1 })).toBeVisible();
  await expect(page.getByText("This page doesn't exist, or is no longer here. Check the address, or go back to the dashboard.")).toBeVisible();
  await page.getByRole('link', { name: 'Go to the dashboard' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('every Getting started card and menu entry opens a real page', async ({ page, request }) => {
  // A company of its own: the demo companies have taken every step, so their dashboard shows no such card.
  const owner = { email: uniqueEmail('steps-owner'), password: 'Steps-Console-Pass-42', firstName: 'Sam', lastName: 'Steps' };
  await createAccountViaApi(request, owner);
  const login = await request.post('/account/login/', { data: { email: owner.email, password: owner.password } });
  const fresh = `Fresh Co ${Date.now().toString(36)}`;
  const created = await request.post('/api/companies/', { headers: { Authorization: `Bearer ${((await login.json()) as { access: string }).access}` }, data: { name: fresh } });
  expect(created.status(), await created.text()).toBe(201);
  await signInTo(page, owner);
  if (/\/company\/select/.test(page.url())) await new CompanyPickerPage(page).choose(fresh);
  await expect(page.getByRole('link', { name: /Connect a channel/ })).toBeVisible();
  const cards = page.getByRole('list').filter({ has: page.getByRole('link', { name: /Connect a channel/ }) }).getByRole('link');
  const count = await cards.count();
  expect(count).toBeGreaterThan(0);
  // Templates, broadcasts and bots have their plugins now: each card is there and opens its page (checked below).
  for (const name of [/Create a message template/, /Send a broadcast/, /Build a bot/]) await expect(page.getByRole('link', { name })).toHaveCount(1);
  for (let i = 0; i < count; i += 1) {
    await page.goto('/dashboard');
    const card = cards.nth(i);
    const title = (await card.textContent()) ?? '';
    await card.click();
    await expect(page.getByRole('heading', { level: 1 }).first(), title).toBeVisible();
    await expect(page.getByTestId('not-found'), title).toHaveCount(0);
  }
  const entries = page.getByRole('menuitem');
  for (let i = 0; i < (await entries.count()); i += 1) {
    await entries.nth(i).click();
    await expect(page.getByTestId('not-found')).toHaveCount(0);
  }
});

test('the login form takes the e-mail at once, and the keyboard focus ring shows in the top bar and the menu', async ({ page }) => {
  await page.goto('/auth/login');
  await expect(page.getByLabel('Email')).toBeFocused();

  await signInTo(page, DEMO_ADMIN, DEMO_COMPANY);
  for (const theme of ['light', 'dark']) {
    const switcher = page.getByRole('button', { name: 'Switch company' });
    await page.goto('/dashboard'); // the keyboard starts from the top of the page
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await tabTo(page, switcher);
    const onBar = await focusRingOf(switcher);
    expect(onBar.style, `${theme} top bar`).toBe('solid');
    expect(onBar.width, `${theme} top bar`).toBeGreaterThanOrEqual(2);
    expect(contrastRatio(onBar.color, onBar.background), `${theme} top bar ring on ${onBar.background}`).toBeGreaterThanOrEqual(3);

    const entry = new ShellPage(page).menuEntry('Channels');
    await tabTo(page, entry);
    const inMenu = await focusRingOf(entry);
    expect(inMenu.style, `${theme} menu`).toBe('solid');
    expect(inMenu.width, `${theme} menu`).toBeGreaterThanOrEqual(2);
    expect(contrastRatio(inMenu.color, inMenu.background), `${theme} menu ring on ${inMenu.background}`).toBeGreaterThanOrEqual(3);
    await page.screenshot({ path: test.info().outputPath(`focus-${theme}.png`) });

    if (theme === 'light') await new ShellPage(page).toggleTheme();
  }
});

test('a failed form shows its errors on the fields, without a "form is not valid" banner, then only the server error', async ({ page }) => {
  const login = new LoginPage(page);
  await login.open();
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('This field is required').first()).toBeVisible();
  await expect(page.getByText(/The form is not valid/)).toHaveCount(0);

  await login.signIn(DEMO_ADMIN.email, 'not-the-password');
  await expect(page.getByText('Unable to log in with provided credentials.').first()).toBeVisible();
  await expect(page.getByText(/The form is not valid/)).toHaveCount(0);
});

test('at 390 px the top bar fits the screen: every button, the profile last, inside it; the language menu still says and changes the language', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInTo(page, DEMO_AGENT, DEMO_COMPANY);
  await page.goto('/chats');
  const bar = page.locator('header').first();
  const profile = bar.getByRole('button', { name: 'Profile' });
  // The bar as a person sees it once the page has loaded: the company's name, the bell, the language, the profile.
  await expect(bar.getByRole('button', { name: 'Switch company' })).toContainText(DEMO_COMPANY);
  await expect(bar.getByRole('button', { name: 'Notifications' })).toBeVisible();
  await expect(bar.getByRole('button', { name: 'English' })).toBeVisible();
  await expect(profile).toBeVisible();
  expect(await bar.evaluate((header) => header.scrollWidth - header.clientWidth)).toBeLessThanOrEqual(0);
  const box = await profile.boundingBox();
  expect(box && box.x + box.width).toBeLessThanOrEqual(390);
  // Icon only on a phone, its name kept for assistive technology; the menu lists the languages by name.
  await bar.getByRole('button', { name: 'English' }).click();
  await page.getByRole('menuitem', { name: 'Français' }).click();
  await expect(bar.getByRole('button', { name: 'Français' })).toBeVisible();
  await bar.getByRole('button', { name: 'Français' }).click();
  await page.getByRole('menuitem', { name: 'English' }).click();
  await expect(bar.getByRole('button', { name: 'English' })).toBeVisible();
});
