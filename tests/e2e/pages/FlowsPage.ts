import { expect, type Locator, type Page } from '@playwright/test';

/** /flows, /flows/create and the flow editor (/flows/edit/{flowName}). */
export class FlowsPage {
  constructor(private readonly page: Page) {}

  async openList() {
    await this.page.goto('/flows');
    await expect(this.page.getByRole('heading', { name: 'Flows', level: 1 })).toBeVisible();
    await expect(this.page.getByText('Loading flows…')).toHaveCount(0);
  }

  async create(fields: { name: string; description: string; companyName: string; domain: string; context: string[] }) {
    await this.page.getByRole('button', { name: 'Create flow' }).click();
    await expect(this.page.getByRole('heading', { name: 'Create a flow', level: 1 })).toBeVisible();
    await this.page.getByRole('textbox', { name: /Flow name/ }).fill(fields.name);
    await this.page.getByRole('textbox', { name: /Description/ }).fill(fields.description);
    await this.page.getByRole('textbox', { name: /Company name/ }).fill(fields.companyName);
    await this.page.getByRole('textbox', { name: /Company domain/ }).fill(fields.domain);
    for (const [i, item] of fields.context.entries()) {
      await this.page.getByRole('button', { name: 'Add a context item' }).click();
      await this.page.getByRole('textbox', { name: `Context item ${i + 1}` }).fill(item);
    }
    await this.page.getByRole('button', { name: 'Create flow' }).click();
    await expect(this.page).toHaveURL(new RegExp(`/flows/edit/${encodeURIComponent(fields.name)}$`));
    await expect(this.page.getByRole('heading', { name: fields.name, level: 1 })).toBeVisible();
  }

  // ---------- editor ----------

  get steps(): Locator {
    return this.page.getByTestId('flow-step');
  }

  step(n: number): Locator {
    return this.steps.nth(n);
  }

  async stepIds(): Promise<(string | null)[]> {
    return this.steps.evaluateAll((els) => els.map((el) => el.getAttribute('data-step-id')));
  }

  field(name: RegExp | string): Locator {
    return this.page.getByRole('textbox', { name });
  }

  async uploadIntroMedia(file: { name: string; mimeType: string; buffer: Buffer }) {
    const box = this.page.getByTestId('intro-media');
    await box.locator('input[type=file]').setInputFiles(file);
    await expect(box.getByRole('textbox', { name: 'Media URL' })).toHaveValue(/\/media\/|^https?:/);
  }

  async addStep(message: string, options: string[] = []) {
    await this.page.getByRole('button', { name: 'Add a step' }).click();
    const step = this.steps.last();
    await step.getByRole('textbox', { name: /Message/ }).fill(message);
    if (options.length) {
      await step.getByRole('combobox', { name: 'Type' }).click();
      await this.page.getByRole('option', { name: 'Options' }).click();
      for (const [i, text] of options.entries()) {
        await step.getByRole('button', { name: 'Add an option' }).click();
        await step.getByRole('textbox', { name: `Option ${i + 1}` }).fill(text);
      }
    }
  }

  async addKeyword(keyword: string) {
    await this.page.getByRole('textbox', { name: 'Add a keyword' }).fill(keyword);
    await this.page.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(this.page.getByTestId('flow-keywords').getByText(keyword, { exact: true })).toBeVisible();
  }

  /** Moves a step with the keyboard only: focus its handle, space, arrows, space. */
  async moveStepWithKeyboard(stepId: string, key: 'ArrowUp' | 'ArrowDown', times: number) {
    const handle = this.page.getByRole('button', { name: new RegExp(`^Reorder step ${stepId}:`) });
    const from = await this.positionOf(stepId);
    await handle.focus();
    await this.page.keyboard.press('Space');
    await expect(handle).toHaveAttribute('aria-pressed', 'true');
    // dnd-kit is ready for the arrows only after two more tasks: its keyboard sensor starts listening from a timer set
    // at the pick-up, and the rows' boxes are measured in a render that the pick-up's effects schedule. aria-pressed
    // is set before both, and the browser runs input before other tasks: on a busy machine the first arrow arrived
    // first and moved the step onto itself (a CI run: "Step step_3 moved to position 3."). A user cannot press that
    // fast. The page's own timer, set twice in a row, runs after both tasks.
    await this.page.evaluate(() => new Promise((resolve) => setTimeout(() => setTimeout(resolve, 0), 0)));
    for (let i = 0; i < times; i++) {
      await this.page.keyboard.press(key);
      // each arrow moves one place (the live region says where)
      await expect(this.page.getByText(`Step ${stepId} moved to position ${key === 'ArrowUp' ? from - 1 - i : from + 1 + i}.`)).toBeAttached();
    }
    await this.page.keyboard.press('Space');
    await expect(handle).not.toHaveAttribute('aria-pressed', 'true');
    await expect(this.page.getByText(`Step ${stepId} dropped at position ${key === 'ArrowUp' ? from - times : from + times}.`)).toBeAttached();
  }

  /** The 1-based place of a step in the list (as saved in the DOM order). */
  async positionOf(stepId: string): Promise<number> {
    return (await this.stepIds()).indexOf(stepId) + 1;
  }

  async save() {
    await this.page.getByRole('button', { name: 'Save' }).click();
    await expect(this.page.getByText('Success : flow has been updated!')).toBeVisible();
    await expect(this.page.getByTestId('flow-save-state')).toContainText('All changes saved');
  }

  get testChatLog(): Locator {
    return this.page.getByTestId('test-chat-log');
  }

  async startTestChat() {
    await this.page.getByTestId('flow-test-chat').getByRole('button', { name: /^(Start|Start over)$/ }).click();
  }

  async openHistory() {
    await this.page.getByRole('button', { name: 'Version history' }).click();
    await expect(this.page.getByTestId('flow-versions')).toBeVisible();
  }

  version(n: number): Locator {
    return this.page.locator(`[data-testid="flow-version"][data-version="${n}"]`);
  }

  async restore(n: number) {
    await this.version(n).getByRole('button', { name: `Restore version ${n}` }).click();
    await this.page.getByRole('dialog', { name: `Restore version ${n}?` }).getByRole('button', { name: 'Restore' }).click();
    await expect(this.page.getByText(`Version ${n} restored`)).toBeVisible();
  }

  async closeHistory() {
    await this.page.getByRole('button', { name: 'Close' }).click();
    await expect(this.page.getByTestId('flow-versions')).toHaveCount(0);
  }
}
