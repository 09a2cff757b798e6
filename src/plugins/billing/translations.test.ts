import { describe, expect, it } from 'vitest';
import { INVOICE_STATUSES, PLAN_LIMIT_KEYS, PLAN_TIERS, SUBSCRIPTION_CANCELLED_MESSAGE, SUBSCRIPTION_STATUSES } from '../../../contract/billing';
import { translations } from './translations';

function keys(messages: object, prefix = ''): string[] {
  return Object.entries(messages).flatMap(([key, value]) => (typeof value === 'object' && value !== null ? keys(value, `${prefix}${key}.`) : [`${prefix}${key}`]));
}

describe('billing translations', () => {
  it('French has every English key', () => {
    expect(new Set(keys(translations.fr))).toEqual(new Set(keys(translations.en)));
  });

  it("keeps the spec's cancellation message verbatim", () => {
    expect(translations.en.billing.section.cancelled).toBe('Subscription cancelled successfully');
    expect(SUBSCRIPTION_CANCELLED_MESSAGE).toBe(translations.en.billing.section.cancelled);
  });

  it('names every subscription status, invoice status, plan tier and limit of the contract', () => {
    for (const locale of [translations.en, translations.fr]) {
      for (const status of SUBSCRIPTION_STATUSES) expect(locale.billing.status[status]).toBeTruthy();
      for (const status of INVOICE_STATUSES) expect(locale.billing.invoices.statuses[status]).toBeTruthy();
      for (const tier of PLAN_TIERS) expect(locale.billing.tiers[tier]).toBeTruthy();
      for (const limit of PLAN_LIMIT_KEYS) expect(locale.billing.limits[limit]).toBeTruthy();
    }
  });
});
