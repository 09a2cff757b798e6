import { expect, type Page } from '@playwright/test';

export class ResetPasswordPage {
  constructor(private readonly page: Page) {}

  async request(email: string) {
    await this.page.goto('/auth/reset-password');
    await this.page.getByLabel('Email').fill(email);
    await this.page.getByRole('button', { name: 'Send reset link' }).click();
  }

  async confirm(path: string, password: string) {
    await this.page.goto(path);
    await this.page.getByLabel('New password').fill(password);
    await this.page.getByLabel('Confirm password').fill(password);
    await this.page.getByRole('button', { name: 'Reset password' }).click();
  }

  async expectMessage(text: string | RegExp) {
    await expect(this.page.getByText(text).first()).toBeVisible();
  }
}
