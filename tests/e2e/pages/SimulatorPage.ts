import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';

/** The public customer simulator of a company's sandbox channel (/sandbox/{key}). */
export class SimulatorPage {
  constructor(private readonly page: Page) {}

  /** The simulator link of the user's company (GET /api/sandbox/), as a path on the test's base URL. */
  static async linkFor(request: APIRequestContext, user: { email: string; password: string }, companyName: string): Promise<string> {
    const login = await request.post('/account/login/', { data: { email: user.email, password: user.password } });
    expect(login.ok(), await login.text()).toBeTruthy();
    const body = (await login.json()) as { access: string; user: { companies: { id: number; name: string }[] } };
    const company = body.user.companies.find((c) => c.name === companyName);
    expect(company, `membership of ${companyName}`).toBeTruthy();
    const res = await request.get('/api/sandbox/', { headers: { Authorization: `Bearer ${body.access}`, Company: String(company!.id) } });
    expect(res.ok(), await res.text()).toBeTruthy();
    const { simulator_url } = (await res.json()) as { simulator_url: string };
    const url = new URL(simulator_url);
    return url.pathname + url.search;
  }

  /**
   * A customer writes to the sandbox through the simulator's own API call (no simulator page): a conversation of the
   * test's own, for a spec that changes a room (blocks it, pauses its bot) which the demo's rooms other specs read must
   * not see. `link` is `linkFor`'s.
   */
  static async customerWrites(request: APIRequestContext, link: string, customer: { name: string; id: string }, text: string): Promise<void> {
    const key = link.split('/').filter(Boolean).pop()!.split('?')[0];
    const res = await request.post(`/api/sandbox/${key}/conversations/${encodeURIComponent(customer.id)}/messages/`, {
      data: { name: customer.name, text, client_id: `${customer.id}-${Date.now().toString(36)}` },
    });
    expect(res.status(), await res.text()).toBe(201);
  }

  async open(path: string) {
    await this.page.goto(path);
    await expect(this.page.getByRole('heading', { name: 'Customer simulator' }).or(this.page.getByText('Customer simulator').first())).toBeVisible();
  }

  async startAs(name: string, id: string) {
    await this.page.getByLabel('Customer name').fill(name);
    await this.page.getByLabel('Customer id').fill(id);
    await this.page.getByRole('button', { name: 'Start chatting' }).click();
    await expect(this.composer).toBeVisible();
  }

  get composer(): Locator {
    return this.page.getByRole('textbox', { name: 'Write a message…' });
  }

  async send(text: string) {
    await this.composer.fill(text);
    await this.page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(this.message(text, 'user')).toBeVisible();
  }

  message(text: string, origin?: 'user' | 'agent' | 'bot'): Locator {
    const all = this.page.getByTestId('sandbox-message');
    return (origin ? all.and(this.page.locator(`[data-origin="${origin}"]`)) : all).filter({ hasText: text });
  }
}
