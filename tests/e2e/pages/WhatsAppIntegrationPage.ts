import { expect, type Page } from '@playwright/test';

/** /whatsapp-integration: the WhatsApp embedded signup, run here against the local fake Meta's SDK double. */
export class WhatsAppIntegrationPage {
  constructor(private readonly page: Page) {}

  async expectIntro() {
    await expect(this.page).toHaveURL(/\/whatsapp-integration\/intro-step$/);
  }

  async start() {
    await this.page.getByRole('button', { name: 'Get started' }).click();
    await expect(this.page).toHaveURL(/\/whatsapp-integration\/start$/);
  }

  /** Opens Facebook's dialog (the SDK double's modal). */
  async continueWithFacebook() {
    await this.page.getByRole('button', { name: 'Continue with Facebook' }).click();
  }

  /** In the SDK double's dialog: the phone number offered, then Continue or Cancel. */
  async fillFakeDialog(phone: string) {
    const phoneInput = this.page.getByTestId('fake-facebook-phone');
    if (await phoneInput.count()) await phoneInput.fill(phone);
    await this.page.getByTestId('fake-facebook-continue').click();
  }

  async cancelFakeDialog() {
    await this.page.getByTestId('fake-facebook-cancel').click();
  }

  async expectConnected() {
    await expect(this.page).toHaveURL(/\/whatsapp-integration\/integration-success$/, { timeout: 20_000 });
    await expect(this.page.getByText('Your WhatsApp number is connected')).toBeVisible();
  }

  /** An outcome page opened with nothing connected: it says so and offers the next step. */
  async expectNothingConnected() {
    await expect(this.page.getByRole('heading', { name: 'No WhatsApp number is connected yet' })).toBeVisible();
    await expect(this.page.getByText('Your WhatsApp number is connected')).toHaveCount(0);
  }

  /** A member who may not connect numbers: told whom to ask, and offered no start. */
  async expectAskAdmin(company: string) {
    await expect(this.page.getByText(`Ask an admin of ${company} to connect WhatsApp.`, { exact: false })).toBeVisible();
    await expect(this.page.getByRole('button', { name: 'Get started' })).toHaveCount(0);
  }
}
