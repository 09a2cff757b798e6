import { expect, type Page } from '@playwright/test';

export class LoginPage {
  constructor(private readonly page: Page) {}

  async open(email?: string) {
    await this.page.goto(email ? `/auth/login?email=${encodeURIComponent(email)}` : '/auth/login');
    await expect(this.page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  }

  async signIn(email: string, password: string) {
    await this.page.getByLabel('Email').fill(email);
    await this.page.getByLabel('Password', { exact: true }).fill(password);
    await this.page.getByRole('button', { name: 'Sign in' }).click();
  }

  async expectError(text: string | RegExp) {
    await expect(this.page.getByText(text)).toBeVisible();
  }

  async expectOnPage() {
    await expect(this.page).toHaveURL(/\/auth\/login/);
    await expect(this.page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  }
}
