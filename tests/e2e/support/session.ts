import { expect, type Page } from '@playwright/test';
import type { LoginResponse } from '../../../contract/api';
import { ACCOUNT_STORAGE_KEY } from '../../../src/core/account/accountStore';
import { chooseCompany } from '../../../src/core/auth/authProvider';
import { ACCESS_TOKEN_KEY, REFRESH_TOKEN_KEY } from '../../../src/core/session/sessionStore';
import { CompanyPickerPage } from '../pages/CompanyPickerPage';
import { LoginPage } from '../pages/LoginPage';

/** A blank page on the console's origin (answered by the browser context, never by the server) where the session is written. */
const SESSION_SEED_PATH = '/__e2e/session-seed';

/**
 * Signs `user` in and opens the console in `company` (or where a sign-in leads: the only company's
 * dashboard, else the picker). The sign-in goes through the API and the session is written where the
 * console keeps it, as its login page does: the form itself is the subject of the specs that test it
 * (`signInThroughForm`), and walking it before every test cost about two seconds each.
 */
export async function signInTo(page: Page, user: { email: string; password: string }, company?: string) {
  const response = await page.request.post('/account/login/', { data: { email: user.email, password: user.password } });
  expect(response.status(), `sign-in of ${user.email}`).toBe(200);
  const login = (await response.json()) as LoginResponse;
  let companyId = chooseCompany(login.user, null);
  if (company) {
    const found = login.user.companies?.find((c) => c.name === company);
    if (!found) throw new Error(`${user.email} is not a member of ${company}`);
    companyId = found.id;
  }
  await page.route(SESSION_SEED_PATH, (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>session</title>' }));
  await page.goto(SESSION_SEED_PATH);
  await page.evaluate(
    ({ keys, access, refresh, account }) => {
      window.localStorage.setItem(keys.access, access);
      window.localStorage.setItem(keys.refresh, refresh);
      window.localStorage.setItem(keys.account, JSON.stringify(account));
    },
    {
      keys: { access: ACCESS_TOKEN_KEY, refresh: REFRESH_TOKEN_KEY, account: ACCOUNT_STORAGE_KEY },
      access: login.access,
      refresh: login.refresh,
      account: { user: login.user, companyId },
    },
  );
  await page.unroute(SESSION_SEED_PATH);
  await page.goto(companyId !== null ? '/dashboard' : '/company/select');
  await expectSignedIn(page);
}

/** Signs in through the login page and, when the picker shows, chooses `company`: the way a person does. */
export async function signInThroughForm(page: Page, user: { email: string; password: string }, company?: string) {
  const login = new LoginPage(page);
  await login.open();
  await login.signIn(user.email, user.password);
  if (company) {
    await new CompanyPickerPage(page).expectOnPage();
    await new CompanyPickerPage(page).choose(company);
  }
  await expectSignedIn(page);
}

async function expectSignedIn(page: Page) {
  await expect(page).toHaveURL(/\/(dashboard|company\/select)/);
  // The console shows the signed-in page (the shell's profile menu or the picker), not only a new address:
  // a test that opens a URL next starts from a console that has finished signing in.
  await expect(page.getByRole('button', { name: 'Profile' }).or(page.getByRole('heading', { name: 'Select a company', level: 1 })).first()).toBeVisible();
}
