import { expect, type Download, type Locator, type Page } from '@playwright/test';
import { selectOption } from '../support/selectOption';

/** /broadcast, the type choice, the create stepper and a broadcast's page. */
export class BroadcastsPage {
  constructor(private readonly page: Page) {}

  async open() {
    await this.page.goto('/broadcast');
    await expect(this.page.getByRole('heading', { name: 'Broadcasts', level: 1 })).toBeVisible();
  }

  row(name: string): Locator {
    return this.page.getByRole('row').filter({ hasText: name });
  }

  async startCsvBroadcast() {
    await this.page.getByRole('link', { name: 'New broadcast' }).click();
    await expect(this.page.getByRole('heading', { name: 'New broadcast', level: 1 })).toBeVisible();
    await this.page.getByRole('link', { name: /Uploaded CSV list/ }).click();
    await expect(this.page.getByRole('heading', { name: 'Broadcast to a CSV list', level: 1 })).toBeVisible();
  }

  async fillName(name: string) {
    await this.page.getByRole('textbox', { name: 'Broadcast name' }).fill(name);
  }

  /** Picks the sending number when the company has several (one is taken by itself). */
  async chooseNumber(label: RegExp) {
    const select = this.page.getByRole('combobox', { name: 'Send from' });
    if ((await select.textContent())?.trim()) return;
    await select.click();
    await this.page.getByRole('option', { name: label }).first().click();
    await expect(this.page.getByRole('listbox')).toHaveCount(0);
  }

  async uploadCsv(fileName: string, content: string) {
    await this.page.getByTestId('csv-input').setInputFiles({ name: fileName, mimeType: 'text/csv', buffer: Buffer.from(content) });
    await expect(this.page.getByTestId('csv-summary')).toContainText(fileName);
  }

  badRow(row: number): Locator {
    return this.page.getByTestId('bad-row').filter({ has: this.page.getByRole('cell', { name: String(row), exact: true }) });
  }

  async next() {
    await this.page.getByRole('button', { name: 'Next' }).click();
  }

  async chooseTemplate(name: string) {
    await selectOption(this.page, this.page.getByRole('combobox', { name: 'Approved template' }), new RegExp(`^${name} `));
  }

  /** Maps a variable (`body.2`, `header.1`) to a CSV column, a contact field or a fixed text. */
  async mapVariable(key: string, label: string, source: 'CSV column' | 'Contact field' | 'Fixed text', value: string) {
    const row = this.page.getByTestId(`variable-${key}`);
    const current = await row.getByRole('combobox', { name: new RegExp(`^${escape(label)} Value from`) }).textContent();
    if (current?.trim() !== source) {
      await selectOption(this.page, row.getByRole('combobox', { name: new RegExp(`^${escape(label)} Value from`) }), source);
    }
    if (source === 'Fixed text') {
      await row.getByRole('textbox').fill(value);
      return;
    }
    await selectOption(this.page, row.getByRole('combobox', { name: new RegExp(`^${escape(label)} (Column|Field)`) }), value);
  }

  preview(): Locator {
    return this.page.getByTestId('broadcast-message-preview');
  }

  async scheduleAt(date: string, time: string) {
    await this.page.getByRole('radio', { name: 'Schedule for later' }).check();
    await this.page.locator('input[type="date"]').fill(date);
    await this.page.locator('input[type="time"]').fill(time);
  }

  async submit(label: 'Send broadcast' | 'Schedule broadcast') {
    await this.page.getByRole('button', { name: label }).click();
  }

  status(): Locator {
    return this.page.getByTestId('broadcast-status').first();
  }

  counter(name: 'sent' | 'delivered' | 'read' | 'replied' | 'failed'): Locator {
    return this.page.getByTestId(`counter-${name}`).first();
  }

  async downloadReport(): Promise<Download> {
    const download = this.page.waitForEvent('download');
    await this.page.getByRole('button', { name: 'Download report' }).click();
    return download;
  }

  async deleteBroadcast(name: string, confirm: 'Delete' | 'Cancel and delete' = 'Delete') {
    await this.page.getByRole('button', { name: `Delete ${name}` }).click();
    const dialog = this.page.getByRole('dialog', { name: 'Delete broadcast' });
    await dialog.getByRole('button', { name: confirm }).click();
  }
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
