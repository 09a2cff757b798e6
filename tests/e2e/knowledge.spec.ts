import { expect, test, type Page } from '@playwright/test';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { ShellPage } from './pages/ShellPage';
import { DEMO_ADMIN, DEMO_AGENT, DEMO_COMPANY } from './support/demo';
import { signInTo } from './support/session';

/** A one-page PDF holding `lines`, built the way a business's own document would be. */
async function pdfOf(lines: string[]): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage();
  lines.forEach((line, i) => page.drawText(line, { x: 50, y: 750 - i * 20, font, size: 12 }));
  return Buffer.from(await doc.save());
}

async function addArticle(page: Page, title: string, body: string) {
  await page.getByRole('button', { name: 'Add an article' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add an article' });
  await dialog.getByRole('textbox', { name: 'Title', exact: true }).fill(title);
  await dialog.getByRole('textbox', { name: 'Text (Markdown)' }).fill(body);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('button', { name: title })).toBeVisible();
}

async function ask(page: Page, question: string) {
  await page.getByRole('textbox', { name: 'A customer question' }).fill(question);
  await page.getByRole('button', { name: 'Ask' }).click();
}

test('an admin adds articles and a PDF, then the assistant answers from them with the source, and hands over on the unknown', async ({ page }) => {
  const tag = Date.now().toString(36);
  await signInTo(page, DEMO_ADMIN, DEMO_COMPANY);
  await page.goto('/knowledge');
  await expect(page.getByRole('heading', { name: 'Knowledge' })).toBeVisible();

  await addArticle(page, `Bicycle repairs ${tag}`, `# Repairs\n\nOur workshop repairs bicycle punctures in one hour for 12 euros (${tag}).`);
  await addArticle(page, `Loyalty card ${tag}`, `# Loyalty\n\nEvery tenth coffee is free with the loyalty card (${tag}).`);

  await page.getByRole('button', { name: 'Upload a document' }).click();
  const upload = page.getByRole('dialog', { name: 'Upload a document' });
  await upload.getByTestId('knowledge-file').setInputFiles({ name: `rental-${tag}.pdf`, mimeType: 'application/pdf', buffer: await pdfOf(['Kayak rental', `Kayaks are rented by the half day for 25 euros ${tag}.`]) });
  await upload.getByRole('textbox', { name: /Title/ }).fill(`Kayak rental ${tag}`);
  await upload.getByRole('button', { name: 'Upload' }).click();
  await expect(upload).toBeHidden();

  // The document's passages, as the server read them from the PDF.
  await page.getByRole('button', { name: `Kayak rental ${tag}` }).click();
  const item = page.getByRole('dialog', { name: `Kayak rental ${tag}` });
  await expect(item.getByRole('list', { name: /The passages it became/ })).toContainText(`Kayaks are rented by the half day for 25 euros ${tag}.`);
  await item.getByRole('button', { name: 'Close' }).click();

  await page.getByRole('tab', { name: 'Assistant' }).click();
  await ask(page, 'How much does kayak rental cost for a half day?');
  const result = page.getByTestId('assistant-result');
  await expect(result.getByTestId('assistant-answer')).toContainText('25 euros');
  await expect(result.getByRole('listitem')).toHaveText(`Kayak rental ${tag}`);
  await expect(result).toContainText(/Confidence: \d+ %/);

  await ask(page, 'How long does a bicycle puncture repair take?');
  await expect(result.getByTestId('assistant-answer')).toContainText('in one hour for 12 euros');

  await ask(page, 'Do you organise guided mountain treks in winter?');
  await expect(result).toContainText('The assistant would hand over to a person.');
  await expect(result.getByTestId('assistant-answer')).toHaveCount(0);
});

test('an agent reads the knowledge and tries questions, read-only, in French too', async ({ page }) => {
  await signInTo(page, DEMO_AGENT, DEMO_COMPANY);
  await page.goto('/knowledge');
  await expect(page.getByText(/Only members allowed to manage the assistant/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add an article' })).toHaveCount(0);
  await new ShellPage(page).chooseLanguage('Français');
  await expect(page.getByRole('heading', { name: 'Connaissances' })).toBeVisible();
  await page.getByRole('tab', { name: 'Assistant' }).click();
  await page.getByRole('textbox', { name: 'Une question de client' }).fill('Acceptez-vous PayPal ?');
  await page.getByRole('button', { name: 'Demander' }).click();
  await expect(page.getByTestId('assistant-result').getByRole('listitem')).toHaveText('Payment');
  await new ShellPage(page).chooseLanguage('English');
});
