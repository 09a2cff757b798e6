import { expect, type Page } from '@playwright/test';
import { LoginPage } from '../pages/LoginPage';
import { CompanyPickerPage } from '../pages/CompanyPickerPage';

/** Signs in through the login page and, when the picker shows, chooses `company`. */
export async function signInTo(page: Page, user: { email: string; password: string }, company?: string) {
  const login = new LoginPage(page);
  await login.open();
  await login.signIn(user.email, user.password);
  if (company) {
    await new CompanyPickerPage(page).expectOnPage();
    await new CompanyPickerPage(page).choose(company);
  }
  await expect(page).toHaveURL(/\/(dashboard|company\/select)/);
  // The console shows the signed-in page (the shell's profile menu or the picker), not only a new address:
  // a test that opens a URL next starts from a console that has finished signing in.
  await expect(page.getByRole('button', { name: 'Profile' }).or(page.getByRole('heading', { name: 'Select a company', level: 1 })).first()).toBeVisible();
}
