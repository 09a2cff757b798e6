import { expect, type Page } from '@playwright/test';

export class AccountPage {
  constructor(private readonly page: Page) {}

  async expectProfile(email: string) {
    await expect(this.page).toHaveURL(/\/account/);
    await expect(this.page.getByText(email).first()).toBeVisible();
  }

  async changePassword(oldPassword: string, newPassword: string, confirm: string) {
    await this.page.getByLabel('Current password').fill(oldPassword);
    await this.page.getByLabel('New password', { exact: true }).fill(newPassword);
    await this.page.getByLabel('Confirm new password').fill(confirm);
    await this.page.getByRole('button', { name: 'Change password' }).click();
  }

  async renameCompany(name: string) {
    await this.page.getByLabel('Company name').fill(name);
    await this.page.getByRole('button', { name: 'Save changes' }).click();
  }
}
