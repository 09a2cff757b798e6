import { expect, type Locator, type Page } from '@playwright/test';

/** A 1×1 PNG: a sample header image for the editor and the inbox's upload. */
export const SAMPLE_PNG = {
  name: 'sample.png',
  mimeType: 'image/png',
  buffer: Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64'),
};

/** /templates (list), /templates/template-setup, the editor and the carousel builder, a template's detail. */
export class TemplatesPage {
  constructor(private readonly page: Page) {}

  async open() {
    await this.page.goto('/templates');
    await expect(this.page.getByRole('heading', { level: 1, name: 'WhatsApp templates' })).toBeVisible();
  }

  row(name: string): Locator {
    return this.page.getByRole('row').filter({ has: this.page.getByTestId('template-name').getByText(name, { exact: true }) });
  }

  /** The status chip of a row (its data-status is Meta's status). */
  status(name: string): Locator {
    return this.row(name).getByTestId('template-status').locator('[data-status]');
  }

  async expectStatus(name: string, status: string, label: string, timeout?: number) {
    await expect(this.status(name)).toHaveAttribute('data-status', status, { timeout });
    await expect(this.status(name)).toHaveText(label);
  }

  reason(name: string): Locator {
    return this.row(name).getByTestId('template-reason');
  }

  async search(term: string) {
    await this.page.getByPlaceholder('Search by name').fill(term);
  }

  async delete(name: string) {
    await this.row(name).getByRole('button', { name: `Delete ${name}`, exact: true }).click();
    const dialog = this.page.getByRole('dialog', { name: 'Delete template' });
    await expect(dialog).toContainText(name);
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(this.page.getByText('Successfully deleted template.')).toBeVisible();
    await expect(this.row(name)).toHaveCount(0);
  }

  /** The setup: category card, then the type card (leads to the editor or the carousel builder). */
  async startNew(category: 'Marketing' | 'Utility' | 'Authentication', type: 'Text' | 'Media header' | 'Buttons' | 'Authentication code' | 'Carousel') {
    await this.page.getByRole('link', { name: 'New template' }).click();
    await expect(this.page.getByRole('heading', { level: 1, name: 'New WhatsApp template' })).toBeVisible();
    await this.page.getByRole('radio', { name: new RegExp(`^${category}`) }).click();
    await this.page.getByRole('link', { name: new RegExp(`^${type}`) }).click();
  }

  // ---------- the editor (src/plugins/templates/editor) ----------

  async fillName(name: string) {
    await this.page.getByRole('textbox', { name: 'Template name' }).fill(name);
  }

  async uploadHeaderSample() {
    await this.page.getByTestId('header-media-input').setInputFiles(SAMPLE_PNG);
    await expect(this.page.getByRole('button', { name: 'Replace the image' })).toBeVisible();
  }

  async fillBody(text: string, examples: string[] = []) {
    await this.page.getByRole('textbox', { name: 'Body', exact: true }).fill(text);
    for (const [i, example] of examples.entries()) await this.page.getByRole('textbox', { name: `Example for {{${i + 1}}}` }).fill(example);
  }

  async addQuickReply(text: string) {
    const existing = await this.page.locator('[data-testid^="button-"]').count();
    await this.page.getByTestId('add-button').click();
    await this.page.getByRole('menuitem', { name: 'Quick reply' }).click();
    await this.page.getByTestId(`button-${existing}`).getByRole('textbox', { name: 'Button text' }).fill(text);
  }

  /** Submits to Meta; resolves the status the server answered (PENDING while Meta reviews). */
  async submit(testId: 'submit-template' | 'submit-carousel' = 'submit-template'): Promise<string> {
    const created = this.page.waitForResponse((r) => r.request().method() === 'POST' && /create_template|submit_carousel_template/.test(r.url()));
    await this.page.getByTestId(testId).click();
    const response = await created;
    expect(response.status(), await response.text()).toBe(201);
    const body = (await response.json()) as { template: { status: string } };
    await expect(this.page.getByText('Template successfully created.')).toBeVisible();
    await expect(this.page).toHaveURL(/\/templates(\?|$)/);
    return body.template.status;
  }
}
