import { expect, type Locator, type Page } from '@playwright/test';

/** /company/select: the searchable company picker of spec §2. */
export class CompanyPickerPage {
  constructor(private readonly page: Page) {}

  /** The picker is shown: its URL and its heading (the shell has loaded, not only the route changed). */
  async expectOnPage() {
    await expect(this.page).toHaveURL(/\/company\/select/);
    await expect(this.page.getByRole('heading', { name: 'Select a company', level: 1 })).toBeVisible();
  }

  get search(): Locator {
    return this.page.getByRole('combobox').or(this.page.getByRole('searchbox')).or(this.page.getByPlaceholder(/search/i)).first();
  }

  async filter(term: string) {
    await this.search.fill(term);
  }

  async expectResultCount(text: string) {
    await expect(this.page.getByText(text, { exact: true })).toBeVisible();
  }

  row(companyName: string): Locator {
    return this.page.getByRole('option', { name: new RegExp(companyName) }).or(this.page.getByRole('button', { name: new RegExp(companyName) })).first();
  }

  async choose(companyName: string) {
    await this.row(companyName).click();
  }

  async createCompany(name: string) {
    await this.page.getByRole('link', { name: 'Create Company' }).or(this.page.getByRole('button', { name: 'Create Company' })).first().click();
    await expect(this.page).toHaveURL(/\/company\/create/);
    await this.page.getByLabel('Company name').fill(name);
    await this.page.getByRole('button', { name: 'Create Company' }).click();
  }
}
