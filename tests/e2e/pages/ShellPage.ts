import { expect, type Locator, type Page } from '@playwright/test';

/** The dashboard shell: app bar (company switcher, language, theme, user menu) and the plugin menu. */
export class ShellPage {
  constructor(private readonly page: Page) {}

  get companyName(): Locator {
    return this.page.getByTestId('company-switcher-name');
  }

  menuEntry(label: string): Locator {
    return this.page.getByRole('menuitem', { name: label, exact: true });
  }

  async expectMenu(labels: string[], absent: string[] = []) {
    for (const label of labels) await expect(this.menuEntry(label)).toBeVisible();
    for (const label of absent) await expect(this.menuEntry(label)).toHaveCount(0);
  }

  async openFromMenu(label: string) {
    await this.menuEntry(label).click();
  }

  async switchCompany(name: string) {
    await this.page.getByRole('button', { name: /switch company/i }).click();
    await expect(this.page).toHaveURL(/\/company\/select/);
    await this.page.getByRole('option', { name: new RegExp(name) }).or(this.page.getByRole('button', { name: new RegExp(name) })).first().click();
  }

  async signOut() {
    await this.page.getByRole('button', { name: 'Profile' }).click();
    await this.page.getByRole('menuitem', { name: 'Sign out' }).click();
  }

  async toggleTheme() {
    await this.page.getByRole('button', { name: /toggle light\/dark/i }).first().click();
  }

  async chooseLanguage(name: string) {
    await this.page.getByRole('button', { name: /english|français/i }).first().click();
    await this.page.getByRole('menuitem', { name }).click();
  }

  async expectAlert(text: string | RegExp) {
    await expect(this.page.getByRole('alert').filter({ hasText: text }).first()).toBeVisible();
  }
}
