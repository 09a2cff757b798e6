import { expect, type Locator, type Page } from '@playwright/test';

/** /team: members (search, role select, remove), pending invites, the invite dialog and the avatar upload. */
export class TeamPage {
  constructor(private readonly page: Page) {}

  async open() {
    await this.page.goto('/team');
    await this.expectOnPage();
  }

  async expectOnPage() {
    await expect(this.page).toHaveURL(/\/team/);
    await expect(this.page.getByRole('heading', { name: 'Team', level: 1 })).toBeVisible();
  }

  /** The table row showing `text` (a name or an e-mail). */
  row(text: string): Locator {
    return this.page.getByRole('row').filter({ hasText: text });
  }

  async search(term: string) {
    await this.page.getByPlaceholder('Search').fill(term);
  }

  async expectEmpty() {
    await expect(this.page.getByText('Nothing Found.')).toBeVisible();
  }

  roleSelect(memberName: string): Locator {
    return this.page.getByRole('combobox', { name: `Role of ${memberName}` });
  }

  async changeRole(memberName: string, roleName: string) {
    await this.roleSelect(memberName).click();
    await this.page.getByRole('option', { name: roleName, exact: true }).click();
  }

  async removeMember(memberName: string) {
    await this.page.getByRole('button', { name: `Remove ${memberName}` }).click();
    const dialog = this.page.getByRole('dialog', { name: 'Remove member' });
    await dialog.getByRole('button', { name: 'Remove' }).click();
  }

  async invite(emails: string[], roleName?: string) {
    await this.page.getByRole('button', { name: 'Invite members' }).click();
    const dialog = this.page.getByRole('dialog', { name: 'Invite members' });
    await dialog.getByLabel('E-mail addresses').fill(emails.join('\n'));
    if (roleName) {
      await dialog.getByRole('combobox', { name: 'Role' }).click();
      await this.page.getByRole('option', { name: roleName, exact: true }).click();
    }
    await dialog.getByRole('button', { name: 'Send invites' }).click();
  }

  async showMembers() {
    await this.page.getByRole('tab', { name: 'Members' }).click();
  }

  async showPendingInvites() {
    await this.page.getByRole('tab', { name: 'Pending invites' }).click();
  }

  async revokeInvite(email: string) {
    await this.page.getByRole('button', { name: `Revoke invite to ${email}` }).click();
    await this.page.getByRole('dialog', { name: 'Revoke invite' }).getByRole('button', { name: 'Revoke' }).click();
  }

  async uploadAvatar(file: { name: string; mimeType: string; buffer: Buffer }) {
    await this.page.getByTestId('avatar-file').setInputFiles(file);
  }

  avatarOf(memberName: string): Locator {
    return this.row(memberName).getByTestId('member-avatar').locator('img');
  }
}
