import { expect, type Locator, type Page } from '@playwright/test';

/** /bots, the bot flow canvas (/flows/generic-flow/{botId}) and the bot's page (/bots/{id}). */
export class BotsPage {
  constructor(private readonly page: Page) {}

  async openList() {
    await this.page.goto('/bots');
    await expect(this.page.getByRole('heading', { name: 'Bots', level: 1 })).toBeVisible();
  }

  /** Creates a bot from the list; resolves its id once the canvas shows. */
  async create(name: string): Promise<number> {
    await this.page.getByRole('button', { name: 'Create bot' }).click();
    await this.page.getByLabel(/Bot name/).fill(name);
    await this.page.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
    await expect(this.page.getByText('Bot has been created')).toBeVisible();
    await expect(this.page).toHaveURL(/\/flows\/generic-flow\/\d+$/);
    await expect(this.page.getByRole('heading', { name, level: 1 })).toBeVisible();
    return Number(/generic-flow\/(\d+)/.exec(this.page.url())![1]);
  }

  // ---------- canvas ----------

  get steps(): Locator {
    return this.page.getByTestId('step-node');
  }

  step(label: string): Locator {
    return this.steps.filter({ has: this.page.getByTestId('step-label').getByText(label, { exact: true }) });
  }

  option(text: string): Locator {
    return this.page.getByTestId('option-node').filter({ hasText: text });
  }

  get panel(): Locator {
    return this.page.getByTestId('step-panel');
  }

  /**
   * Opens a step's side panel with its node's edit button. While the canvas is still fitting its
   * view on a busy machine, a click can land on the pane beside the moving node: clicked again then.
   */
  /**
   * Opens a step's side panel with its edit button. The step may lie outside the canvas's view (a tall bot at
   * the canvas's smallest zoom): a pointer click needs it on screen, and the canvas is not a scrolling box, so
   * the button gets the click event itself, as a keyboard user's Enter would give it.
   */
  async openStepPanel(label: string) {
    const edit = this.step(label).getByRole('button', { name: `Edit step: ${label}` });
    await expect(edit).toBeAttached();
    await edit.dispatchEvent('click');
    await expect(this.panel).toBeVisible();
  }

  async expectSaved() {
    await expect(this.page.getByTestId('save-status')).toHaveAttribute('data-status', 'saved', { timeout: 15_000 });
  }

  /** Adds a step (the side panel opens on it) and writes its first message. */
  async addStep(text: string, options: { expectAlert?: boolean } = {}) {
    const before = await this.steps.count();
    await this.page.getByRole('button', { name: 'Add step', exact: true }).click();
    await expect(this.steps).toHaveCount(before + 1);
    if (options.expectAlert) await expect(this.page.getByText('Step has been added to your bot!')).toBeVisible();
    await this.expectSaved();
    await this.panel.getByTestId('message-text-0').fill(text);
    await expect(this.step(text)).toBeVisible();
    await this.expectSaved();
  }

  /** Adds an option ("Button") to a step with the node's button, then names it in the panel. */
  async addOption(stepLabel: string, text: string) {
    await this.step(stepLabel).getByRole('button', { name: `Add option: ${stepLabel}` }).click();
    await expect(this.option('Button')).toBeVisible();
    await this.step(stepLabel).getByRole('button', { name: `Edit step: ${stepLabel}` }).click();
    const field = this.panel.getByLabel(/^Button \d+$/).last();
    await expect(field).toHaveValue('Button');
    await field.fill(text);
    await expect(this.option(text)).toBeVisible();
  }

  /** Drags from the option's handle onto the step's top handle. */
  async connect(optionText: string, toStepLabel: string) {
    const from = this.option(optionText).locator('.react-flow__handle.source');
    const to = this.step(toStepLabel).locator('.react-flow__handle.target');
    await this.dragBetween(from, to);
  }

  async dragBetween(from: Locator, to: Locator) {
    const a = (await from.boundingBox())!;
    const b = (await to.boundingBox())!;
    await this.page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
    await this.page.mouse.down();
    await this.page.mouse.move(a.x + a.width / 2 + 10, a.y + a.height / 2 + 20, { steps: 5 });
    await this.page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 15 });
    await this.page.mouse.up();
  }

  /** The label of the edge from an option (upper case, spec §2). */
  /**
   * Points along the edge labelled `label` (one every 4 px of its path, in page coordinates, its first and last
   * 8 px left out) that lie inside a node of the canvas other than the option it leaves from: none when the edge
   * goes round the steps and options in its way (issue #25).
   */
  async edgePointsInsideNodes(label: string, fromOption: string): Promise<number> {
    const edge = this.page.locator('.react-flow__edge').filter({ has: this.page.locator('.react-flow__edge-text', { hasText: label }) });
    const boxes = await this.page.locator('.react-flow__node').evaluateAll(
      (els, text) => els.filter((el) => !(el.classList.contains('react-flow__node-option') && el.textContent?.trim() === text)).map((el) => el.getBoundingClientRect().toJSON() as DOMRect),
      fromOption,
    );
    return edge.locator('path.react-flow__edge-path').evaluate((el, rects) => {
      const p = el as SVGPathElement;
      const matrix = p.getScreenCTM()!;
      const length = p.getTotalLength();
      let inside = 0;
      for (let at = 8; at <= length - 8; at += 4) {
        const point = p.getPointAtLength(at).matrixTransform(matrix);
        if (rects.some((r) => point.x > r.left && point.x < r.right && point.y > r.top && point.y < r.bottom)) inside += 1;
      }
      return inside;
    }, boxes);
  }

  edgeLabel(text: string): Locator {
    return this.page.locator('.react-flow__edge-textwrapper, .react-flow__edge-text').filter({ hasText: text }).first();
  }

  async closePanel() {
    await this.panel.getByRole('button', { name: 'Close' }).click();
    await expect(this.panel).toBeHidden();
  }

  // ---------- draft and publish ----------

  get publishState(): Locator {
    return this.page.getByTestId('publish-state');
  }

  get publishRefusal(): Locator {
    return this.page.getByTestId('publish-refusal');
  }

  /** Publishes the draft (saved first) and waits for the canvas to say which version is live. */
  async publish(version: number) {
    await this.expectSaved();
    await this.page.getByRole('button', { name: 'Publish', exact: true }).click();
    await expect(this.publishState).toHaveText(`Published · version ${version}`);
  }

  // ---------- test chat ----------

  get testChat(): Locator {
    return this.page.getByTestId('test-chat');
  }

  async startTestChat() {
    await this.page.getByRole('button', { name: 'Test chat' }).click();
    await this.testChat.getByRole('button', { name: 'Start a test conversation' }).click();
  }

  botLine(text: string): Locator {
    return this.testChat.getByTestId('test-chat-bot').filter({ hasText: text });
  }

  async pressTestButton(title: string) {
    await this.testChat.getByTestId('test-chat-buttons').getByRole('button', { name: title, exact: true }).click();
  }

  // ---------- the bot's page ----------

  async openDetail(id: number) {
    await this.page.goto(`/bots/${id}`);
    await expect(this.page.getByRole('heading', { name: 'Channels' })).toBeVisible();
  }

  async assignChannel(name: RegExp) {
    await this.page.getByRole('checkbox', { name }).check();
    await this.page.getByRole('button', { name: 'Save channels' }).click();
    await expect(this.page.getByText('Channels saved')).toBeVisible();
  }
}
