import { describe, expect, it } from 'vitest';
import { formatMoney } from './format';

describe('formatMoney', () => {
  it("reads Stripe's minor units", () => {
    expect(formatMoney(2900, 'usd', 'en')).toBe('$29.00');
    expect(formatMoney(2900, 'usd', 'en', { compact: true })).toBe('$29');
    expect(formatMoney(2950, 'usd', 'en', { compact: true })).toBe('$29.50');
    expect(formatMoney(500, 'jpy', 'en')).toBe('¥500');
    expect(formatMoney(2900, 'eur', 'fr').replace(/\s/g, ' ')).toBe('29,00 €');
  });

  it('falls back to the amount and the code for an unknown currency', () => {
    expect(formatMoney(1234, 'not-a-currency', 'en')).toBe('12.34 NOT-A-CURRENCY');
  });
});
