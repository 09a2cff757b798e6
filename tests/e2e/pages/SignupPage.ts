import { expect, type Page } from '@playwright/test';

/** The three sign-up steps: check-email, verify-account-email (from the e-mail link), create-account. */
export class SignupPage {
  constructor(private readonly page: Page) {}

  async openCheckEmail() {
    await this.page.goto('/auth/signup');
    await expect(this.page).toHaveURL(/\/auth\/signup\/check-email/);
  }

  async submitEmail(email: string) {
    await this.page.getByLabel('Email').fill(email);
    await this.page.getByRole('button', { name: 'Continue', exact: true }).click();
  }

  async expectWaitingForVerification(email: string) {
    await expect(this.page.getByText(email)).toBeVisible();
  }

  async followVerificationLink(path: string) {
    await this.page.goto(path);
  }

  async fillAccount(details: { firstName: string; lastName: string; password: string }) {
    await this.page.getByLabel('First name').fill(details.firstName);
    await this.page.getByLabel('Last name').fill(details.lastName);
    await this.page.getByLabel('Password', { exact: true }).fill(details.password);
    await this.page.getByLabel('Confirm password').fill(details.password);
    await this.page.getByRole('button', { name: 'Create account' }).click();
  }
}
