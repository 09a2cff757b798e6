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
}
