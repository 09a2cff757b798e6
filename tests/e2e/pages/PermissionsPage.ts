import { expect, type Locator, type Page } from '@playwright/test';

/** /permissions: the view/manage matrix of every area per role. */
export class PermissionsPage {
  constructor(private readonly page: Page) {}

  async open() {
    await this.page.goto('/permissions');
    await this.expectOnPage();
  }

  async expectOnPage() {
    await expect(this.page).toHaveURL(/\/permissions/);
    await expect(this.page.getByRole('heading', { name: 'Permissions', level: 1 })).toBeVisible();
  }

  /** e.g. checkbox('View', 'Team members', 'Agent'). */
  checkbox(action: 'View' | 'Manage', area: string, role: string): Locator {
    return this.page.getByRole('checkbox', { name: `${action} ${area} (${role})`, exact: true });
  }

  async set(action: 'View' | 'Manage', area: string, role: string, checked: boolean) {
    await this.checkbox(action, area, role).setChecked(checked);
  }

  async save() {
    await this.page.getByRole('button', { name: 'Save changes' }).click();
  }
}
