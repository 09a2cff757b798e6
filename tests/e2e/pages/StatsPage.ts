import { expect, type Download, type Locator, type Page } from '@playwright/test';

/** /stats: filters, totals, sections (chart + table + CSV export). */
export class StatsPage {
  constructor(private readonly page: Page) {}

  async open() {
    await this.page.goto('/stats');
    await expect(this.page.getByRole('heading', { name: 'Stats', level: 1 })).toBeVisible();
  }

  /** A custom range (days as YYYY-MM-DD). */
  async chooseRange(from: string, to: string) {
    await this.page.getByTestId('stats-from').fill(from);
    await this.page.getByTestId('stats-to').fill(to);
    await expect(this.page.getByTestId('stats-from')).toHaveValue(from);
    await expect(this.page.getByTestId('stats-to')).toHaveValue(to);
  }

  total(id: string): Locator {
    return this.page.getByTestId(`stats-total-${id}`).getByTestId('value');
  }

  section(id: string): Locator {
    return this.page.getByTestId(`stats-section-${id}`);
  }

  /** The table rows of a section that contain `text`. */
  row(sectionId: string, text: string): Locator {
    return this.section(sectionId).getByRole('row').filter({ hasText: text });
  }

  ownScopeNotice(): Locator {
    return this.page.getByTestId('stats-own-scope');
  }

  async exportCsv(sectionTitle: string): Promise<Download> {
    const [download] = await Promise.all([this.page.waitForEvent('download'), this.page.getByRole('button', { name: `Export ${sectionTitle} as CSV` }).click()]);
    return download;
  }
}

/** The dashboard's "Today at a glance". */
export class TodayAtAGlance {
  constructor(private readonly page: Page) {}

  async open() {
    await this.page.goto('/dashboard');
    await expect(this.page.getByRole('heading', { name: 'Today at a glance' })).toBeVisible();
  }

  figure(id: string): Locator {
    return this.page.getByTestId(`dashboard-figure-${id}`);
  }

  value(id: string): Locator {
    return this.figure(id).getByTestId('value');
  }
}
