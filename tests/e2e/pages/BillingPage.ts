import { expect, type Locator, type Page } from '@playwright/test';

/** Stripe's test cards, which the local fake Stripe's checkout honours. */
export const TEST_CARDS = { success: '4242 4242 4242 4242', declined: '4000 0000 0000 0002' } as const;

/** /pricing, the billing section of /account, and the fake Stripe's hosted checkout page in between. */
export class BillingPage {
  constructor(private readonly page: Page) {}

  // ---------- /pricing ----------

  async openPricing() {
    await this.page.goto('/pricing');
    await this.expectPricing();
  }

  async expectPricing() {
    await expect(this.page).toHaveURL(/\/pricing$/);
    await expect(this.page.getByRole('heading', { level: 1, name: 'Plans and pricing' })).toBeVisible();
    await expect(this.planCard('Free')).toBeVisible();
  }

  /** A plan's card on /pricing, by its display name (e.g. 'Starter'). */
  planCard(name: string): Locator {
    return this.page.getByRole('article', { name, exact: true });
  }

  async expectCurrentPlan(name: string) {
    await expect(this.planCard(name).getByRole('button', { name: 'Current plan' })).toBeDisabled();
  }

  async chooseInterval(label: 'Monthly' | 'Yearly') {
    await this.page.getByRole('button', { name: label, exact: true }).click();
  }

  /** Clicks "Subscribe to {plan}" and waits for the provider's checkout page. */
  async subscribe(plan: string) {
    await this.planCard(plan).getByRole('button', { name: `Subscribe to ${plan}` }).click();
    await expect(this.page).toHaveURL(/\/dev\/stripe\/checkout\/cs_/);
    await expect(this.page.getByRole('heading', { name: `Subscribe to ${plan}` })).toBeVisible();
  }

  // ---------- the fake Stripe's hosted checkout ----------

  async payWith(cardNumber: string) {
    await this.page.getByLabel('Card number').fill(cardNumber);
    await this.page.getByLabel('Expiration (MM / YY)').fill('12 / 34');
    await this.page.getByLabel('CVC').fill('123');
    await this.page.getByRole('button', { name: 'Subscribe' }).click();
  }

  async expectCheckoutError(text: string) {
    await expect(this.page.getByRole('alert').filter({ hasText: text })).toBeVisible();
    await expect(this.page).toHaveURL(/\/dev\/stripe\/checkout\/cs_/);
  }

  // ---------- the billing section of /account ----------

  get section(): Locator {
    return this.page.getByRole('region', { name: 'Billing', exact: true });
  }

  get invoiceRows(): Locator {
    return this.section.getByTestId('invoice-row');
  }

  async openAccount() {
    await this.page.goto('/account');
    await expect(this.section).toBeVisible();
  }

  async expectPlan(name: string, status: string) {
    await expect(this.section.getByTestId('billing-plan-name')).toHaveText(name);
    await expect(this.section.getByTestId('billing-status')).toHaveText(status);
  }

  /** Cancels the subscription through the confirmation dialog. */
  async cancelSubscription() {
    await this.section.getByRole('button', { name: 'Cancel subscription' }).click();
    const dialog = this.page.getByRole('dialog', { name: 'Cancel the subscription?' });
    await dialog.getByRole('button', { name: 'Cancel subscription' }).click();
    await expect(dialog).toBeHidden();
  }

  async expectAlert(text: string) {
    await expect(this.page.getByRole('alert').filter({ hasText: text }).first()).toBeVisible();
  }
}
