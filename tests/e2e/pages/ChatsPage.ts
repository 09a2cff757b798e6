import { expect, type Locator, type Page } from '@playwright/test';

/** /chats and /chats/{roomId}: the agents' live inbox. */
export class ChatsPage {
  constructor(private readonly page: Page) {}

  async open(roomId?: number) {
    await this.page.goto(roomId ? `/chats/${roomId}` : '/chats');
    await this.expectLive();
  }

  async expectLive(timeout?: number) {
    await this.expectConnectionState('live', timeout);
  }

  /** The connection badge: idle, connecting, live or reconnecting. */
  async expectConnectionState(state: 'idle' | 'connecting' | 'live' | 'reconnecting', timeout = 15_000) {
    await expect(this.page.getByTestId('connection-state')).toHaveAttribute('data-state', state, { timeout });
  }

  get rooms(): Locator {
    return this.page.getByTestId('room-item');
  }

  room(name: string): Locator {
    return this.rooms.filter({ has: this.page.getByTestId('room-item-name').getByText(name, { exact: true }) });
  }

  unreadOf(name: string): Locator {
    return this.room(name).getByTestId('room-unread');
  }

  /**
   * The room is in the list: scrolled to first when it is below the rows the list renders (the list is
   * virtualised, and other specs' customers, writing all run long, push the demo rooms down).
   */
  async expectListed(name: string) {
    await expect(this.rooms.first()).toBeVisible();
    // Waits (as any expectation) for the list to settle: a filter just cleared reloads it.
    await expect.poll(() => this.scrollListTo(name), { message: `${name} in the room list` }).toBe(true);
    await expect(this.room(name)).toBeVisible();
  }

  /** Scrolls the room list from its top until the room's row is rendered; whether it was found. */
  private async scrollListTo(name: string): Promise<boolean> {
    const scroller = this.page.getByTestId('room-list').locator('[data-virtuoso-scroller]');
    await scroller.evaluate((el) => el.scrollTo({ top: 0 }));
    for (;;) {
      await this.nextFrames();
      if ((await this.room(name).count()) > 0) return true;
      const moved = await scroller.evaluate((el) => {
        const before = el.scrollTop;
        el.scrollTo({ top: before + el.clientHeight });
        return el.scrollTop > before;
      });
      if (!moved) return false;
    }
  }

  /** The rows of a new scroll position are rendered on the next frames. */
  private nextFrames(): Promise<unknown> {
    return this.page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  }

  async openRoom(name: string) {
    // Other specs' customers write in all run long and push a demo room past the list's first page
    // (CHAT_PAGE_SIZE rooms, the rest loads on scroll): when it is not among the loaded rooms, search for it.
    await expect(this.rooms.first()).toBeVisible();
    if ((await this.room(name).count()) === 0) await this.search(name);
    await this.room(name).click();
    await expect(this.page.getByTestId('room-name')).toHaveText(name);
  }

  get header(): Locator {
    return this.page.getByTestId('room-header');
  }

  get messages(): Locator {
    return this.page.getByTestId('message-row');
  }

  message(text: string): Locator {
    return this.messages.filter({ has: this.page.getByTestId('message-text').getByText(text, { exact: true }) });
  }

  get composer(): Locator {
    return this.page.getByRole('textbox', { name: /Type a message/ });
  }

  async send(text: string) {
    await this.composer.fill(text);
    await this.composer.press('Enter');
  }

  async search(term: string) {
    await this.page.getByLabel('Search contacts').fill(term);
  }

  async openFilters() {
    const button = this.page.getByRole('button', { name: 'Filters' });
    if ((await button.getAttribute('aria-pressed')) !== 'true') await button.click();
  }

  async filterByTag(name: string) {
    await this.openFilters();
    await this.page.getByRole('combobox', { name: 'Tags' }).click();
    await this.page.getByRole('option', { name, exact: true }).click();
    await this.page.keyboard.press('Escape');
  }

  async clearTagFilter() {
    await this.openFilters();
    const chips = this.page.getByRole('combobox', { name: 'Tags' }).locator('..').locator('.MuiChip-deleteIcon');
    // One chip at a time, each gone before the next count: counted again at once, a removed chip could still be
    // there, and the click then waited for a chip that never came back (a run timed out on it).
    for (let left = await chips.count(); left > 0; left = await chips.count()) {
      await chips.first().click();
      await expect(chips).toHaveCount(left - 1);
    }
  }

  async addTag(name: string) {
    await this.header.getByRole('button', { name: 'Add tag' }).click();
    const input = this.header.getByRole('combobox', { name: 'Add tag' });
    await input.fill(name);
    await input.press('Enter');
  }

  tag(name: string): Locator {
    return this.header.getByTestId('room-tag').filter({ hasText: name });
  }

  async removeTag(name: string) {
    await this.header.getByRole('button', { name: `Remove tag ${name}`, exact: true }).click();
  }

  /**
   * A header action where the header shows it: its own button, or (a header too narrow for every button: a phone,
   * or beside the room list and the contact panel) the conversation's overflow menu.
   */
  private async headerAction(button: string, menuItem: string) {
    const direct = this.header.getByRole('button', { name: button, exact: true });
    if (await direct.isVisible()) {
      await direct.click();
      if (menuItem !== button) await this.page.getByRole('menuitem', { name: menuItem, exact: true }).click();
      return;
    }
    await this.header.getByTestId('room-more').click();
    await this.page.getByRole('menuitem', { name: menuItem, exact: true }).click();
  }

  async pauseOneDay() {
    await this.headerAction('Pause bot', 'Pause for 1 day');
  }

  async resume() {
    await this.headerAction('Resume bot', 'Resume bot');
  }

  get pausedChip(): Locator {
    return this.header.getByTestId('paused-chip');
  }

  async block() {
    await this.headerAction('Block', 'Block');
  }

  async unblock() {
    await this.headerAction('Unblock', 'Unblock');
  }

  get blockedChip(): Locator {
    return this.header.getByTestId('blocked-chip');
  }
}
