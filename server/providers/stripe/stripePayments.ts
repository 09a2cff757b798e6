/**
 * The payments adapter over the official Stripe SDK: Checkout Sessions in subscription mode,
 * subscriptions (cancel at period end, resume, price change), the Customer Portal, invoices, and
 * webhook signature checks (stripe.webhooks.constructEvent, 300-second tolerance).
 * `host`/`port`/`protocol` point the SDK at the local fake Stripe in the demo and in tests.
 */
import Stripe from 'stripe';
import type { SubscriptionStatus } from '../../../contract/billing';
import {
  PaymentsProviderError,
  PaymentsWebhookError,
  type PaymentsMode,
  type PaymentsProvider,
  type PriceSpec,
  type ProviderCheckoutSession,
  type ProviderEvent,
  type ProviderInvoice,
  type ProviderPlanChangePreview,
  type ProviderSubscription,
} from './types';

/** Stripe's default tolerance: a signature older (or newer) than this is refused (replays). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

export interface StripePaymentsOptions {
  mode: Exclude<PaymentsMode, 'off'>;
  secretKey: string;
  webhookSecret: string;
  /** The SDK's host/port/protocol (unset: api.stripe.com:443 over https). */
  host?: string;
  port?: number;
  protocol?: 'http' | 'https';
  /** A transport for the SDK (the demo's fake on this server's own port: see ./localTransport.ts). */
  httpClient?: Stripe.HttpClient;
  timeoutMs?: number;
  maxNetworkRetries?: number;
}

const SUBSCRIPTION_STATUSES: readonly SubscriptionStatus[] = ['incomplete', 'incomplete_expired', 'trialing', 'active', 'past_due', 'unpaid', 'canceled', 'paused'];

function date(seconds: unknown): Date | null {
  return typeof seconds === 'number' && Number.isFinite(seconds) ? new Date(seconds * 1000) : null;
}

function idOf(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && typeof (value as { id?: unknown }).id === 'string') return (value as { id: string }).id;
  return null;
}

function companyIdOf(value: unknown): number | null {
  const n = typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

function record(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** SDK errors → PaymentsProviderError (card messages are Stripe's own, written for the payer). */
function translate(err: unknown): never {
  if (err instanceof Stripe.errors.StripeError) {
    if (err.type === 'StripeCardError') throw new PaymentsProviderError(err.message, 'card', err.message);
    if (err.statusCode === 404) throw new PaymentsProviderError(err.message, 'not_found', 'The payment provider does not know this object.');
    if (err.type === 'StripeInvalidRequestError') throw new PaymentsProviderError(err.message, 'invalid_request', 'The payment provider refused the request.');
    throw new PaymentsProviderError(err.message, 'unavailable', 'The payment provider is not available right now. Please try again later.');
  }
  throw new PaymentsProviderError(err instanceof Error ? err.message : String(err), 'unavailable', 'The payment provider is not available right now. Please try again later.');
}

export class StripePayments implements PaymentsProvider {
  readonly mode: Exclude<PaymentsMode, 'off'>;
  readonly stripe: Stripe;
  private readonly webhookSecret: string;

  constructor(options: StripePaymentsOptions) {
    this.mode = options.mode;
    this.webhookSecret = options.webhookSecret;
    this.stripe = new Stripe(options.secretKey, {
      ...(options.host ? { host: options.host } : {}),
      ...(options.port ? { port: options.port } : {}),
      ...(options.protocol ? { protocol: options.protocol } : {}),
      ...(options.httpClient ? { httpClient: options.httpClient } : {}),
      timeout: options.timeoutMs ?? 20_000,
      maxNetworkRetries: options.maxNetworkRetries ?? 1,
      telemetry: false,
      appInfo: { name: 'messaging-console-billing' },
    });
  }

  private async call<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      translate(err);
    }
  }

  async createCustomer(input: { companyId: number; name: string; email: string | null }): Promise<string> {
    const customer = await this.call(() =>
      this.stripe.customers.create({ name: input.name, ...(input.email ? { email: input.email } : {}), metadata: { company_id: String(input.companyId) } }),
    );
    return customer.id;
  }

  private lineItem(price: PriceSpec): Stripe.Checkout.SessionCreateParams.LineItem {
    if (price.priceId) return { price: price.priceId, quantity: 1 };
    return {
      quantity: 1,
      price_data: {
        currency: price.currency,
        unit_amount: price.amount,
        recurring: { interval: price.interval },
        product_data: { name: price.productName, metadata: { plan_code: price.planCode } },
      },
    };
  }

  async createCheckoutSession(input: { customerId: string; companyId: number; price: PriceSpec; successUrl: string; cancelUrl: string }): Promise<ProviderCheckoutSession> {
    const metadata = { company_id: String(input.companyId), plan_code: input.price.planCode };
    const session = await this.call(() =>
      this.stripe.checkout.sessions.create({
        mode: 'subscription',
        customer: input.customerId,
        client_reference_id: String(input.companyId),
        line_items: [this.lineItem(input.price)],
        success_url: input.successUrl,
        cancel_url: input.cancelUrl,
        metadata,
        subscription_data: { metadata },
      }),
    );
    return this.checkoutSessionFrom(session as unknown as Record<string, unknown>);
  }

  async retrieveCheckoutSession(sessionId: string): Promise<ProviderCheckoutSession> {
    const session = await this.call(() => this.stripe.checkout.sessions.retrieve(sessionId));
    return this.checkoutSessionFrom(session as unknown as Record<string, unknown>);
  }

  async retrieveSubscription(subscriptionId: string): Promise<ProviderSubscription> {
    const sub = await this.call(() => this.stripe.subscriptions.retrieve(subscriptionId, { expand: ['default_payment_method'] }));
    return this.subscriptionFrom(sub as unknown as Record<string, unknown>);
  }

  async setCancelAtPeriodEnd(subscriptionId: string, cancel: boolean): Promise<ProviderSubscription> {
    const sub = await this.call(() => this.stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: cancel, expand: ['default_payment_method'] }));
    return this.subscriptionFrom(sub as unknown as Record<string, unknown>);
  }

  /** The subscription's item with the new price (a price id, or price_data on a product of its own). */
  private async itemWith(subscriptionId: string, price: PriceSpec): Promise<Stripe.SubscriptionUpdateParams.Item> {
    const current = await this.retrieveSubscription(subscriptionId);
    return price.priceId
      ? { id: current.itemId ?? undefined, price: price.priceId }
      : {
          id: current.itemId ?? undefined,
          price_data: { currency: price.currency, unit_amount: price.amount, recurring: { interval: price.interval }, product: await this.productFor(price) },
        };
  }

  async changePrice(subscriptionId: string, price: PriceSpec, prorationDate?: number): Promise<ProviderSubscription> {
    const item = await this.itemWith(subscriptionId, price);
    const sub = await this.call(() =>
      this.stripe.subscriptions.update(subscriptionId, {
        items: [item],
        cancel_at_period_end: false,
        metadata: { plan_code: price.planCode },
        ...(prorationDate !== undefined ? { proration_behavior: 'always_invoice' as const, proration_date: prorationDate } : {}),
        expand: ['default_payment_method'],
      }),
    );
    return this.subscriptionFrom(sub as unknown as Record<string, unknown>);
  }

  async previewPriceChange(subscriptionId: string, price: PriceSpec, prorationDate: number): Promise<ProviderPlanChangePreview> {
    const item = await this.itemWith(subscriptionId, price);
    const invoice = await this.call(() =>
      this.stripe.invoices.createPreview({
        subscription: subscriptionId,
        subscription_details: { items: [item as Stripe.InvoiceCreatePreviewParams.SubscriptionDetails.Item], proration_behavior: 'always_invoice', proration_date: prorationDate },
      }),
    );
    const lines = (invoice.lines?.data ?? []).map((line) => ({ description: line.description ?? '', amount: line.amount }));
    return { currency: invoice.currency, amountDue: invoice.amount_due, total: invoice.total, lines };
  }

  /** Subscription items' price_data needs a product id (Checkout's product_data is not accepted there). */
  private async productFor(price: PriceSpec): Promise<string> {
    const product = await this.call(() => this.stripe.products.create({ name: price.productName, metadata: { plan_code: price.planCode } }));
    return product.id;
  }

  async createPortalSession(customerId: string, returnUrl: string): Promise<string> {
    const session = await this.call(() => this.stripe.billingPortal.sessions.create({ customer: customerId, return_url: returnUrl }));
    return session.url;
  }

  async listInvoices(customerId: string, limit: number): Promise<ProviderInvoice[]> {
    const page = await this.call(() => this.stripe.invoices.list({ customer: customerId, limit: Math.min(100, Math.max(1, limit)) }));
    return page.data.map((invoice) => this.invoiceFrom(invoice as unknown as Record<string, unknown>));
  }

  verifyWebhook(rawBody: Buffer, signature: string | undefined, nowSeconds: number): ProviderEvent {
    if (!signature) throw new PaymentsWebhookError('No Stripe-Signature header.');
    let event: Stripe.Event;
    try {
      // receivedAt is in milliseconds; the SDK refuses signatures older than the tolerance.
      event = this.stripe.webhooks.constructEvent(rawBody, signature, this.webhookSecret, WEBHOOK_TOLERANCE_SECONDS, undefined, nowSeconds * 1000);
    } catch (err) {
      throw new PaymentsWebhookError(err instanceof Error ? err.message : 'Invalid signature.');
    }
    // …and we refuse those signed too far ahead as well (a clock cannot run 5 minutes fast).
    const timestamps = [...signature.matchAll(/(?:^|,)\s*t=(\d+)/g)].map((m) => Number(m[1]));
    if (timestamps.length === 0 || timestamps.some((t) => t - nowSeconds > WEBHOOK_TOLERANCE_SECONDS)) throw new PaymentsWebhookError('Timestamp outside the tolerance zone');
    const data = record((event as unknown as { data?: unknown }).data);
    if (typeof event.id !== 'string' || typeof event.type !== 'string') throw new PaymentsWebhookError('Not an event.');
    return { id: event.id, type: event.type, created: typeof event.created === 'number' ? event.created : nowSeconds, object: record(data.object) };
  }

  subscriptionFrom(object: Record<string, unknown>): ProviderSubscription {
    const items = record(object.items);
    const item = record(Array.isArray(items.data) ? items.data[0] : undefined);
    const meta = record(object.metadata);
    const pm = record(object.default_payment_method);
    const card = record(pm.card);
    const status = SUBSCRIPTION_STATUSES.includes(object.status as SubscriptionStatus) ? (object.status as SubscriptionStatus) : 'incomplete';
    return {
      id: String(object.id ?? ''),
      customerId: idOf(object.customer) ?? '',
      status,
      cancelAtPeriodEnd: object.cancel_at_period_end === true,
      // Since API 2025-03-31 the period is on the subscription item.
      currentPeriodStart: date(item.current_period_start ?? object.current_period_start),
      currentPeriodEnd: date(item.current_period_end ?? object.current_period_end),
      canceledAt: date(object.canceled_at),
      endedAt: date(object.ended_at),
      planCode: typeof meta.plan_code === 'string' ? meta.plan_code : null,
      companyId: companyIdOf(meta.company_id),
      itemId: typeof item.id === 'string' ? item.id : null,
      paymentMethod:
        typeof card.last4 === 'string'
          ? { brand: String(card.brand ?? 'card'), last4: card.last4, exp_month: Number(card.exp_month) || 0, exp_year: Number(card.exp_year) || 0 }
          : null,
    };
  }

  invoiceFrom(object: Record<string, unknown>): ProviderInvoice {
    // Since API 2025-03-31 the subscription is under parent.subscription_details.
    const details = record(record(object.parent).subscription_details);
    const meta = record(details.metadata);
    const status = ['draft', 'open', 'paid', 'uncollectible', 'void'].includes(object.status as string) ? (object.status as ProviderInvoice['status']) : 'draft';
    const lines = record(object.lines);
    const line = record(Array.isArray(lines.data) ? lines.data[0] : undefined);
    const period = record(line.period);
    return {
      id: String(object.id ?? ''),
      customerId: idOf(object.customer),
      subscriptionId: idOf(details.subscription) ?? idOf(object.subscription),
      number: typeof object.number === 'string' ? object.number : null,
      status,
      amountDue: Number(object.amount_due) || 0,
      amountPaid: Number(object.amount_paid) || 0,
      currency: typeof object.currency === 'string' ? object.currency : 'usd',
      created: date(object.created) ?? new Date(),
      // The service period is on the line (the invoice's own period_* is the usage period before it).
      periodStart: date(period.start ?? object.period_start),
      periodEnd: date(period.end ?? object.period_end),
      hostedInvoiceUrl: typeof object.hosted_invoice_url === 'string' ? object.hosted_invoice_url : null,
      invoicePdf: typeof object.invoice_pdf === 'string' ? object.invoice_pdf : null,
      planCode: typeof meta.plan_code === 'string' ? meta.plan_code : null,
      companyId: companyIdOf(meta.company_id),
    };
  }

  checkoutSessionFrom(object: Record<string, unknown>): ProviderCheckoutSession {
    const meta = record(object.metadata);
    const status = object.status === 'complete' || object.status === 'expired' ? object.status : 'open';
    return {
      id: String(object.id ?? ''),
      url: typeof object.url === 'string' ? object.url : null,
      status,
      paymentStatus: typeof object.payment_status === 'string' ? object.payment_status : 'unpaid',
      customerId: idOf(object.customer),
      subscriptionId: idOf(object.subscription),
      companyId: companyIdOf(object.client_reference_id) ?? companyIdOf(meta.company_id),
      planCode: typeof meta.plan_code === 'string' ? meta.plan_code : null,
    };
  }
}
