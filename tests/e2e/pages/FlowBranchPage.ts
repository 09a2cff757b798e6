import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';

/** The body of POST /api/flows/{id}/save/ (contract/flows.ts FlowSaveBody), as a test writes it. */
export interface FlowFixture {
  flow_name: string;
  description: string;
  company_name: string;
  company_domain: string;
  extra_context: string[];
  intro_msg: string;
  keywords: string[];
  steps: { step_id: string; next_step_id: string | null; step_msg: string; type: 'text' | 'options'; options: { text: string; next_step_id: string | null }[] }[];
}

/** /flows/branch/{flowName}: the flow as a branching graph (feature branching_flows). */
export class FlowBranchPage {
  constructor(private readonly page: Page) {}

  /** Creates and fills a flow through the bot service (the company's key from GET /api/bots/integration/); resolves its id. */
  static async createFlow(request: APIRequestContext, headers: Record<string, string>, flow: FlowFixture): Promise<number> {
    const integration = await request.get('/api/bots/integration/', { headers });
    expect(integration.ok(), await integration.text()).toBeTruthy();
    const { access_key } = (await integration.json()) as { access_key: string };
    const created = await request.post(`/bot-service/api/flows/?access_key=${access_key}`, {
      data: { flow_name: flow.flow_name, description: flow.description, company_name: flow.company_name, company_domain: flow.company_domain, extra_context: flow.extra_context },
    });
    expect(created.status(), await created.text()).toBe(201);
    const { id } = (await created.json()) as { id: number };
    const saved = await request.post(`/bot-service/api/flows/${id}/save/?access_key=${access_key}`, { data: flow });
    expect(saved.status(), await saved.text()).toBe(200);
    return id;
  }

  async open(flowName: string) {
    await this.page.goto(`/flows/branch/${encodeURIComponent(flowName)}`);
    await expect(this.page.getByRole('heading', { name: flowName, level: 1 })).toBeVisible();
    await expect(this.steps.first()).toBeVisible();
  }

  get steps(): Locator {
    return this.page.getByTestId('branch-step-node');
  }

  step(stepId: string): Locator {
    return this.page.locator(`[data-testid="branch-step-node"][data-step-id="${stepId}"]`);
  }

  stepByLabel(label: string): Locator {
    return this.steps.filter({ has: this.page.getByTestId('branch-step-label').getByText(label, { exact: true }) });
  }

  get panel(): Locator {
    return this.page.getByTestId('branch-step-panel');
  }

  /** Adds a step (its panel opens) and writes its message; resolves the new step's id. */
  async addStep(message: string): Promise<string> {
    const before = await this.steps.count();
    await this.page.getByRole('button', { name: 'Add step', exact: true }).click();
    await expect(this.steps).toHaveCount(before + 1);
    await expect(this.panel).toBeVisible();
    const stepId = (await this.panel.getByRole('heading', { level: 2 }).textContent())!.replace(/^Step /, '');
    await this.panel.getByTestId('branch-step-message').fill(message);
    await expect(this.stepByLabel(message)).toBeVisible();
    return stepId;
  }

  async closePanel() {
    await this.panel.getByRole('button', { name: 'Close' }).click();
    await expect(this.panel).toBeHidden();
  }

  /**
   * Drags from a step's option dot onto another step's top dot. While the canvas is still fitting
   * its view on a busy machine the drag can miss: tried again until the link is there.
   */
  async connectOption(fromStep: string, optionText: string, toStep: string) {
    const from = this.step(fromStep).getByTestId('branch-option').filter({ hasText: optionText }).locator('.react-flow__handle');
    const to = this.step(toStep).locator('.react-flow__handle.target');
    await expect(async () => {
      await this.dragBetween(from, to);
      await expect(this.edgeLabel(optionText)).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 30_000 });
  }

  async dragBetween(from: Locator, to: Locator) {
    const a = (await from.boundingBox())!;
    const b = (await to.boundingBox())!;
    await this.page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
    await this.page.mouse.down();
    await this.page.mouse.move(a.x + a.width / 2 + 15, a.y + a.height / 2 + 10, { steps: 5 });
    await this.page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 15 });
    await this.page.mouse.up();
  }

  /** An edge's label (an option's text, "Next", "then"). */
  edgeLabel(text: string): Locator {
    return this.page.locator('.react-flow__edge-textwrapper, .react-flow__edge-text').filter({ hasText: text }).first();
  }

  async save() {
    await this.page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(this.page.getByText('Success : flow has been updated!')).toBeVisible();
    await expect(this.page.getByTestId('branch-save-status')).toHaveAttribute('data-status', 'saved');
  }
}
