import { createPlugin } from '../../core';

/** Billing (issue #14): pricing, subscription and invoices on the account page, stats. */
export const billingPlugin = createPlugin({
  id: 'billing',
  featureFlag: 'pricing',
});
