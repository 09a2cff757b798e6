import { expect, type Locator, type Page } from '@playwright/test';

/** /channels: the company's WhatsApp numbers, pages and sandbox. */
export class ChannelsPage {
  constructor(private readonly page: Page) {}

  async open() {
    await this.page.goto('/channels');
    await expect(this.page.getByRole('heading', { name: 'Channels' })).toBeVisible();
  }

  async connectWhatsApp() {
    await this.page.getByRole('button', { name: 'Connect WhatsApp' }).first().click();
  }

  channel(text: string): Locator {
    return this.page.getByTestId('channel-item').filter({ hasText: text });
  }
}
