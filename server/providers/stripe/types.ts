/**
 * The payments adapter billing talks to (server/plugins/billing). One implementation: the official
 * Stripe SDK (./stripePayments.ts), pointed at api.stripe.com with STRIPE_SECRET_KEY, or at the
 * local fake Stripe (./fake) in the offline demo and in tests — the same code path either way.
 * Without either, every call refuses with PaymentsNotConfiguredError (503).
 */
import type { PaymentMethodSummary, SubscriptionStatus } from '../../../contract/billing';

export type PaymentsMode = 'live' | 'local' | 'off';

/** What the checkout bills: a Stripe price id, or the price inline (price_data). */
export interface PriceSpec {
  priceId: string | null;
  productName: string;
  amount: number;
  currency: string;
  interval: 'month' | 'year';
  /** Our plan code, kept in the price's and subscription's metadata. */
  planCode: string;
}

/** A provider subscription in the fields billing stores. */
export interface ProviderSubscription {
  id: string;
  customerId: string;
  status: SubscriptionStatus;
  cancelAtPeriodEnd: boolean;
  currentPeriodStart: Date | null;
  currentPeriodEnd: Date | null;
  canceledAt: Date | null;
  endedAt: Date | null;
  /** metadata.plan_code (set at checkout and on plan changes). */
  planCode: string | null;
  /** metadata.company_id. */
  companyId: number | null;
  /** The subscription item's id (plan changes replace its price). */
  itemId: string | null;
  /** The card, when the default payment method was expanded. */
  paymentMethod: PaymentMethodSummary | null;
}

/** A plan change's invoice before it is made: its lines (credit of the unused time, charge of the remaining time). */
export interface ProviderPlanChangePreview {
  currency: string;
  amountDue: number;
  total: number;
  lines: { description: string; amount: number }[];
}

export interface ProviderInvoice {
  id: string;
  customerId: string | null;
  subscriptionId: string | null;
  number: string | null;
  status: 'draft' | 'open' | 'paid' | 'uncollectible' | 'void';
  amountDue: number;
  amountPaid: number;
  currency: string;
  created: Date;
  periodStart: Date | null;
  periodEnd: Date | null;
  hostedInvoiceUrl: string | null;
  invoicePdf: string | null;
  planCode: string | null;
  companyId: number | null;
}

export interface ProviderCheckoutSession {
  id: string;
  url: string | null;
  status: 'open' | 'complete' | 'expired';
  paymentStatus: string;
  customerId: string | null;
  subscriptionId: string | null;
  /** client_reference_id: our company id. */
  companyId: number | null;
  planCode: string | null;
}

/** A verified webhook event, reduced to what billing applies. */
export interface ProviderEvent {
  id: string;
  type: string;
  /** Seconds since the epoch (event.created). */
  created: number;
  object: Record<string, unknown>;
}

export interface PaymentsProvider {
  readonly mode: PaymentsMode;
  createCustomer(input: { companyId: number; name: string; email: string | null }): Promise<string>;
  createCheckoutSession(input: { customerId: string; companyId: number; price: PriceSpec; successUrl: string; cancelUrl: string }): Promise<ProviderCheckoutSession>;
  retrieveCheckoutSession(sessionId: string): Promise<ProviderCheckoutSession>;
  retrieveSubscription(subscriptionId: string): Promise<ProviderSubscription>;
  setCancelAtPeriodEnd(subscriptionId: string, cancel: boolean): Promise<ProviderSubscription>;
  /**
   * A new price on the subscription's item. With `prorationDate` (unix seconds, within the current period) the
   * change is prorated from then and invoiced at once (`proration_behavior=always_invoice`): the invoice
   * previewPriceChange showed for the same date.
   */
  changePrice(subscriptionId: string, price: PriceSpec, prorationDate?: number): Promise<ProviderSubscription>;
  /** The invoice changePrice(…, prorationDate) would produce (Stripe's POST /v1/invoices/create_preview). */
  previewPriceChange(subscriptionId: string, price: PriceSpec, prorationDate: number): Promise<ProviderPlanChangePreview>;
  createPortalSession(customerId: string, returnUrl: string): Promise<string>;
  listInvoices(customerId: string, limit: number): Promise<ProviderInvoice[]>;
  /** Checks `Stripe-Signature` (t=, v1=; 300-second tolerance at `nowSeconds`) over the raw body; throws PaymentsWebhookError. */
  verifyWebhook(rawBody: Buffer, signature: string | undefined, nowSeconds: number): ProviderEvent;
  /** Reads a subscription / invoice / checkout session object carried by an event. */
  subscriptionFrom(object: Record<string, unknown>): ProviderSubscription;
  invoiceFrom(object: Record<string, unknown>): ProviderInvoice;
  checkoutSessionFrom(object: Record<string, unknown>): ProviderCheckoutSession;
}

/** No STRIPE_SECRET_KEY and not the demo: billing answers 503 with this. */
export class PaymentsNotConfiguredError extends Error {
  constructor() {
    super('Payments are not configured on this server.');
    this.name = 'PaymentsNotConfiguredError';
  }
}

/** The provider refused or could not be reached; `userMessage` is safe to show (a card error's text). */
export class PaymentsProviderError extends Error {
  constructor(
    message: string,
    readonly kind: 'card' | 'invalid_request' | 'not_found' | 'unavailable',
    readonly userMessage: string,
  ) {
    super(message);
    this.name = 'PaymentsProviderError';
  }
}

export class PaymentsWebhookError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PaymentsWebhookError';
  }
}
