import { expect, type Locator, type Page } from '@playwright/test';

export type ResourcesTab = 'Help' | 'Integration' | 'API reference' | 'Downloads';

/** /resources: help search, the integration reference, the API reference, downloads. */
export class ResourcesPage {
  constructor(private readonly page: Page) {}

  async open() {
    await this.page.goto('/resources');
    await expect(this.page.getByRole('heading', { name: 'Resources', level: 1 })).toBeVisible();
  }

  async tab(name: ResourcesTab) {
    // From the top of the page, as a person goes back to the tabs: scrolled down (an opened operation, a link near the
    // bottom), the tabs sat at the window's top edge, where react-admin's app bar slides back in on the first scroll
    // up; a CI run's click landed on the bar as it came back, and the tab never changed.
    await this.page.evaluate(() => window.scrollTo(0, 0));
    await this.page.getByRole('tab', { name }).click();
    await expect(this.page.getByRole('tab', { name })).toHaveAttribute('aria-selected', 'true');
  }

  searchBox(): Locator {
    return this.page.getByRole('searchbox', { name: 'Search the help' });
  }

  async search(text: string) {
    await this.searchBox().fill(text);
    await expect(this.searchBox()).toHaveValue(text);
  }

  count(): Locator {
    return this.page.getByTestId('help-count');
  }

  /** The article titles shown, in order. */
  articleTitles(): Locator {
    return this.page.getByTestId('help-results').getByTestId('help-article-title');
  }

  async openArticle(title: string) {
    await this.page.getByRole('button', { name: new RegExp(`^${title}`) }).click();
  }

  emptyView(): Locator {
    return this.page.getByTestId('empty-view');
  }

  accessKey(): Locator {
    return this.page.getByTestId('integration-access-key');
  }

  adminsOnlyNotice(): Locator {
    return this.page.getByTestId('integration-key-admins-only');
  }

  value(id: 'api-base' | 'webhook' | 'bot-endpoint' | 'company'): Locator {
    return this.page.getByTestId(`integration-${id}`);
  }

  openApiLink(which: 'api' | 'botService'): Locator {
    return this.page.getByRole('link', { name: which === 'api' ? /Open the API’s OpenAPI document/ : /Open the bot service’s OpenAPI document/ });
  }

  referenceCount(): Locator {
    return this.page.getByTestId('reference-count');
  }

  operation(method: string, path: string): Locator {
    return this.page.getByTestId(`operation-${method}-${path}`);
  }
}
