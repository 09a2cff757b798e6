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

  /** A channel card (a list item named by the channel's name). */
  channel(name: string | RegExp): Locator {
    return this.page.getByRole('list', { name: 'Channels' }).getByRole('listitem', { name });
  }

  /** The WhatsApp number's card. */
  whatsapp(): Locator {
    return this.page.getByRole('list', { name: 'Channels' }).getByRole('listitem').filter({ hasText: 'WhatsApp ·' });
  }
}
