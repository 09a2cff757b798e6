import { expect, test } from '@playwright/test';
import { ChatsPage } from './pages/ChatsPage';
import { DEMO_AGENT, DEMO_COMPANY } from './support/demo';
import { signInTo } from './support/session';

test('an agent saves a reply, then inserts it with "/" and sends it', async ({ page }) => {
  await signInTo(page, DEMO_AGENT, DEMO_COMPANY);
  const chats = new ChatsPage(page);
  await chats.open();
  await chats.openRoom('Aiko Tanaka');

  const name = `hours${Date.now().toString(36)}`;
  const text = `We are open 9:00–18:00, Monday to Friday (${name}).`;
  await page.getByRole('button', { name: 'Saved replies' }).click();
  await page.getByRole('button', { name: 'Manage saved replies' }).click();
  await page.getByRole('button', { name: 'New saved reply' }).click();
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
  await page.getByRole('textbox', { name: 'Text', exact: true }).fill(text);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Template successfully created.')).toBeVisible();
  // Back on the list, the focus is on "New saved reply": Escape closes the dialog.
  await expect(page.getByRole('button', { name: 'New saved reply' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'Manage saved replies' })).toBeHidden();

  await chats.composer.fill(`/${name}`);
  await expect(page.getByRole('listbox', { name: 'Saved replies' }).or(page.getByRole('list', { name: 'Saved replies' }))).toContainText(name);
  await chats.composer.press('Enter');
  await expect(chats.composer).toHaveValue(text);
  await chats.composer.press('Enter');
  await expect(chats.message(text)).toHaveCount(1);
});
