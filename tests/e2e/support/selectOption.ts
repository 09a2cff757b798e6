import { expect, type Locator, type Page } from '@playwright/test';

/**
 * Picks an option of a MUI select (or any combobox opening a listbox): opens it, clicks the option,
 * then waits for the listbox to be gone. While a MUI menu is open (or still closing) the rest of the
 * page is aria-hidden, so a role locator run at that moment finds nothing and waits out the test's budget.
 */
export async function selectOption(page: Page, combobox: Locator, option: string | RegExp) {
  await combobox.click();
  const listbox = page.getByRole('listbox');
  await listbox.getByRole('option', typeof option === 'string' ? { name: option, exact: true } : { name: option }).click();
  await expect(listbox).toHaveCount(0);
}
