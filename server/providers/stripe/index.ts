/** The payments adapter as the app builds it (see ./types.ts), and what billing imports from here. */
import type { FastifyInstance } from 'fastify';
import { FAKE_STRIPE_PREFIX, type StripeConfig } from './config';
import { localStripeHttpClient } from './localTransport';
import { StripePayments } from './stripePayments';
import { PaymentsNotConfiguredError, type PaymentsProvider } from './types';

/** 'live': the SDK against Stripe; 'local': the SDK against the fake mounted at /dev/stripe on this app; 'off': every call refuses. */
export function createPaymentsProvider(config: StripeConfig, app: FastifyInstance): PaymentsProvider {
  if (config.mode === 'off') return unconfiguredPayments;
  const api = config.apiUrl ? new URL(config.apiUrl) : null;
  return new StripePayments({
    mode: config.mode,
    secretKey: config.secretKey,
    webhookSecret: config.webhookSecret,
    ...(api ? { host: api.hostname, port: Number(api.port) || (api.protocol === 'http:' ? 80 : 443), protocol: api.protocol === 'http:' ? 'http' : 'https' } : {}),
    ...(config.mode === 'local' ? { httpClient: localStripeHttpClient(app, FAKE_STRIPE_PREFIX) } : {}),
  });
}

function refuse(): never {
  throw new PaymentsNotConfiguredError();
}

export const unconfiguredPayments: PaymentsProvider = {
  mode: 'off',
  createCustomer: async () => refuse(),
  createCheckoutSession: async () => refuse(),
  retrieveCheckoutSession: async () => refuse(),
  retrieveSubscription: async () => refuse(),
  setCancelAtPeriodEnd: async () => refuse(),
  changePrice: async () => refuse(),
  previewPriceChange: async () => refuse(),
  createPortalSession: async () => refuse(),
  listInvoices: async () => refuse(),
  verifyWebhook: () => refuse(),
  subscriptionFrom: () => refuse(),
  invoiceFrom: () => refuse(),
  checkoutSessionFrom: () => refuse(),
};

export * from './types';
export { StripePayments, WEBHOOK_TOLERANCE_SECONDS, type StripePaymentsOptions } from './stripePayments';
export { stripeConfig, stripeConfigOf, stripeBannerLine, FAKE_STRIPE_PREFIX, type StripeConfig } from './config';
