import { expect, test } from '@playwright/test';
import { DEMO_ADMIN, DEMO_COMPANY } from './support/demo';
import { signInTo } from './support/session';

/** Two French mobile numbers no other run uses (valid for libphonenumber-js: +33 6 then 8 digits). */
function uniquePhones(): [string, string] {
  const base = Date.now() % 90_000_000;
  return [`+336${String(base).padStart(8, '0')}`, `+337${String(base).padStart(8, '0')}`];
}

test.describe('contact import at 1440 px', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test('an admin imports a CSV with a bad row and a duplicate; the report names both, the good rows are contacts', async ({ page }) => {
    // The contacts page, its dialog and an import that runs in the background: longer than one page's budget.
    test.slow();
    await signInTo(page, DEMO_ADMIN, DEMO_COMPANY);
    const tag = Date.now().toString(36);
    const [first, second] = uniquePhones();
    const csv = ['Name,Phone,Tags', `Import A ${tag},${first},imported`, `Import Bad ${tag},12,`, `Import Again ${tag},${first},`, `Import B ${tag},${second},imported`].join('\n');

    await page.goto('/contacts');
    await expect(page.getByRole('heading', { name: 'Contacts', level: 1 })).toBeVisible();
    await page.getByRole('button', { name: 'Import' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import contacts from a CSV file' });
    await dialog.getByTestId('import-file').setInputFiles({ name: 'customers.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });

    // The mapping is guessed from the header.
    const mapping = dialog.getByRole('table', { name: 'Map columns' });
    await expect(mapping.getByRole('combobox')).toHaveText(['Name', 'Phone', 'Tags']);
    await dialog.getByRole('button', { name: 'Next' }).click();

    const preview = dialog.getByTestId('import-preview-row');
    await expect(preview).toHaveCount(4);
    await expect(preview.nth(1)).toContainText('Not a valid phone number: "12".');
    await expect(preview.nth(2)).toContainText(`Duplicate of row 2 (${first}).`);
    await dialog.getByRole('button', { name: 'Start import' }).click();

    await expect(dialog.getByTestId('import-state')).toHaveText('Import finished: 4 rows read.', { timeout: 30_000 });
    await expect(dialog.getByTestId('import-skipped-row')).toHaveText(['Row 3: Not a valid phone number: "12".', `Row 4: Duplicate of row 2 (${first}).`]);
    await expect(dialog.getByTestId('import-counts')).toContainText('2 created');
    await dialog.getByRole('button', { name: 'Close' }).click();

    await page.getByPlaceholder('Search by name, phone or e-mail').fill(`Import B ${tag}`);
    await expect(page.getByRole('row').filter({ hasText: `Import B ${tag}` })).toHaveCount(1);
    await expect(page.getByRole('row').filter({ hasText: `Import B ${tag}` })).toContainText('imported');
  });
});
