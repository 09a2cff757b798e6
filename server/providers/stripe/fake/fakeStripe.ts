/**
 * The local fake Stripe: an in-memory account that follows Stripe's published object shapes and
 * error shapes (API version of the installed SDK) for what billing uses — customers, payment
 * methods, prices (inline price_data), Checkout Sessions in subscription mode, subscriptions
 * that renew, invoices with a hosted page and a PDF, Customer Portal sessions — and that sends
 * signed webhooks (`Stripe-Signature: t=…,v1=HMAC-SHA256(secret, "t.payload")`).
 *
 * Test cards (Stripe's own): 4242 4242 4242 4242 succeeds; 4000 0000 0000 0002 is declined
 * (card_declined / generic_decline); 4000 0000 0000 0341 attaches but every later charge is declined.
 *
 * Renewals: `renew(subscriptionId)` ends the current period now (the demo's "advance" button and
 * the tests), `renewDue()` renews every subscription whose period has ended by `now()`.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const FAKE_STRIPE_API_VERSION = '2026-10-28.endive';

export const TEST_CARDS = {
  success: '4242424242424242',
  declined: '4000000000000002',
  /** Attaches to the customer; charges fail later (renewals). */
  chargeDeclined: '4000000000000341',
} as const;

type Json = Record<string, unknown>;
type Interval = 'day' | 'week' | 'month' | 'year';

export class FakeStripeError extends Error {
  constructor(
    readonly status: number,
    readonly body: { type: string; code?: string; decline_code?: string; message: string; param?: string },
  ) {
    super(body.message);
  }
  toJSON() {
    return { error: { ...this.body, doc_url: this.body.code ? `https://docs.stripe.com/error-codes/${this.body.code.replace(/_/g, '-')}` : undefined, request_log_url: null } };
  }
}

export function invalidRequest(message: string, param?: string, status = 400): FakeStripeError {
  return new FakeStripeError(status, { type: 'invalid_request_error', message, ...(param ? { param } : {}) });
}

export function noSuch(kind: string, id: string, param = 'id'): FakeStripeError {
  return new FakeStripeError(404, { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${kind}: '${id}'`, param });
}

function cardError(code: string, message: string, declineCode?: string): FakeStripeError {
  return new FakeStripeError(402, { type: 'card_error', code, message, ...(declineCode ? { decline_code: declineCode } : {}) });
}

export interface Card {
  number: string;
  expMonth: number;
  expYear: number;
}

interface Customer {
  id: string;
  object: 'customer';
  created: number;
  email: string | null;
  name: string | null;
  description: string | null;
  metadata: Record<string, string>;
  invoice_settings: { default_payment_method: string | null; custom_fields: null; footer: null; rendering_options: null };
  livemode: false;
  /** Not part of Stripe's object: the card numbers of the customer's payment methods. */
  invoice_prefix: string;
  next_invoice_sequence: number;
}

interface PaymentMethod {
  id: string;
  object: 'payment_method';
  type: 'card';
  created: number;
  customer: string | null;
  livemode: false;
  billing_details: { email: string | null; name: string | null; address: null; phone: null };
  card: { brand: string; last4: string; exp_month: number; exp_year: number; funding: 'credit'; country: 'US'; display_brand: string };
  metadata: Record<string, string>;
}

interface Price {
  id: string;
  object: 'price';
  active: true;
  created: number;
  currency: string;
  unit_amount: number;
  unit_amount_decimal: string;
  recurring: { interval: Interval; interval_count: number; usage_type: 'licensed'; meter: null };
  type: 'recurring';
  billing_scheme: 'per_unit';
  product: string;
  metadata: Record<string, string>;
  lookup_key: string | null;
  nickname: string | null;
  livemode: false;
}

interface Product {
  id: string;
  object: 'product';
  name: string;
  active: true;
  created: number;
  metadata: Record<string, string>;
  livemode: false;
}

export interface FakeCheckoutSession {
  id: string;
  object: 'checkout.session';
  mode: 'subscription';
  status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid' | 'no_payment_required';
  customer: string | null;
  customer_email: string | null;
  client_reference_id: string | null;
  subscription: string | null;
  invoice: string | null;
  success_url: string;
  cancel_url: string | null;
  url: string | null;
  created: number;
  expires_at: number;
  currency: string;
  amount_subtotal: number;
  amount_total: number;
  metadata: Record<string, string>;
  livemode: false;
  /** Not sent (Stripe sends line_items only when expanded): the price and subscription metadata. */
  _price: string;
  _subscriptionMetadata: Record<string, string>;
  _declines: number;
}

interface SubscriptionItem {
  id: string;
  object: 'subscription_item';
  created: number;
  current_period_start: number;
  current_period_end: number;
  metadata: Record<string, string>;
  price: Price;
  quantity: number;
  subscription: string;
}

export interface FakeSubscription {
  id: string;
  object: 'subscription';
  customer: string;
  status: 'incomplete' | 'incomplete_expired' | 'trialing' | 'active' | 'past_due' | 'unpaid' | 'canceled' | 'paused';
  created: number;
  start_date: number;
  billing_cycle_anchor: number;
  cancel_at: number | null;
  cancel_at_period_end: boolean;
  canceled_at: number | null;
  ended_at: number | null;
  cancellation_details: { comment: null; feedback: null; reason: 'cancellation_requested' | 'payment_failed' | null };
  collection_method: 'charge_automatically';
  currency: string;
  default_payment_method: string | null;
  latest_invoice: string | null;
  metadata: Record<string, string>;
  items: { object: 'list'; data: SubscriptionItem[]; has_more: false; total_count: number; url: string };
  livemode: false;
}

export interface FakeInvoice {
  id: string;
  object: 'invoice';
  customer: string;
  customer_email: string | null;
  customer_name: string | null;
  number: string | null;
  status: 'draft' | 'open' | 'paid' | 'uncollectible' | 'void';
  billing_reason: 'subscription_create' | 'subscription_cycle' | 'subscription_update' | 'manual';
  collection_method: 'charge_automatically';
  created: number;
  period_start: number;
  period_end: number;
  currency: string;
  subtotal: number;
  total: number;
  amount_due: number;
  amount_paid: number;
  amount_remaining: number;
  attempt_count: number;
  attempted: boolean;
  next_payment_attempt: number | null;
  hosted_invoice_url: string | null;
  invoice_pdf: string | null;
  parent: { type: 'subscription_details'; quote_details: null; subscription_details: { subscription: string; metadata: Record<string, string> } } | null;
  lines: { object: 'list'; data: Json[]; has_more: false; total_count: number; url: string };
  status_transitions: { finalized_at: number | null; paid_at: number | null; voided_at: null; marked_uncollectible_at: null };
  last_finalization_error: null;
  metadata: Record<string, string>;
  livemode: false;
}

interface PortalSession {
  id: string;
  object: 'billing_portal.session';
  customer: string;
  return_url: string | null;
  url: string;
  created: number;
  livemode: false;
  configuration: string;
  flow: null;
  locale: null;
  on_behalf_of: null;
}

export interface FakeStripeEvent {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  type: string;
  data: { object: Json; previous_attributes?: Json };
  livemode: false;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
}

export interface WebhookDelivery {
  event: FakeStripeEvent;
  status: number | null;
  error: string | null;
}

export interface FakeStripeOptions {
  /** The secret key the SDK must send (`Authorization: Bearer sk_test_…`). */
  secretKey: string;
  /** Signs the webhooks (whsec_…). */
  webhookSecret: string;
  /** Public origin + prefix of the fake's pages (checkout, portal, invoices), e.g. http://localhost:8080/dev/stripe. */
  publicBase: () => string;
  /** Sends one signed webhook; returns the HTTP status (null: nowhere to deliver yet). */
  send: (payload: string, signature: string) => Promise<number | null>;
  /** Seconds since the epoch (the tests' clock). */
  now?: () => number;
  /** Where the account is kept between restarts (the demo's data dir); unset: in memory only. */
  statePath?: string;
}

const PERSISTED = ['customers', 'paymentMethods', 'cardNumbers', 'prices', 'products', 'sessions', 'subscriptions', 'invoices', 'portalSessions'] as const;

function id(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;
}

function brandOf(number: string): string {
  if (/^4/.test(number)) return 'visa';
  if (/^(5[1-5]|2[2-7])/.test(number)) return 'mastercard';
  if (/^3[47]/.test(number)) return 'amex';
  return 'unknown';
}

/** Adds whole intervals in UTC (month ends clamp, as Stripe's billing cycle does). */
export function addInterval(seconds: number, interval: Interval, count = 1): number {
  const d = new Date(seconds * 1000);
  if (interval === 'day') return seconds + 86_400 * count;
  if (interval === 'week') return seconds + 7 * 86_400 * count;
  const months = interval === 'month' ? count : 12 * count;
  const day = d.getUTCDate();
  const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return Math.floor(target.getTime() / 1000);
}

/** `t=…,v1=…` over `${t}.${payload}` (Stripe's scheme). */
export function stripeSignature(payload: string, secret: string, timestamp: number): string {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

export class FakeStripe {
  readonly customers = new Map<string, Customer>();
  readonly paymentMethods = new Map<string, PaymentMethod>();
  /** Card number per payment method (what a charge checks). */
  readonly cardNumbers = new Map<string, string>();
  readonly prices = new Map<string, Price>();
  readonly products = new Map<string, Product>();
  readonly sessions = new Map<string, FakeCheckoutSession>();
  readonly subscriptions = new Map<string, FakeSubscription>();
  readonly invoices = new Map<string, FakeInvoice>();
  readonly portalSessions = new Map<string, PortalSession>();
  readonly events: FakeStripeEvent[] = [];
  readonly deliveries: WebhookDelivery[] = [];
  private pending = new Set<Promise<void>>();
  readonly now: () => number;

  constructor(readonly options: FakeStripeOptions) {
    this.now = options.now ?? (() => Math.floor(Date.now() / 1000));
    if (options.statePath && existsSync(options.statePath)) {
      try {
        const data = JSON.parse(readFileSync(options.statePath, 'utf8')) as Record<string, [string, unknown][]>;
        for (const name of PERSISTED) for (const [key, value] of data[name] ?? []) (this[name] as Map<string, unknown>).set(key, value);
      } catch {
        // A corrupt state file only costs the demo its fake Stripe account.
      }
    }
  }

  /** Writes the account to statePath (atomically); events and deliveries are not kept. */
  save(): void {
    const file = this.options.statePath;
    if (!file) return;
    const data = Object.fromEntries(PERSISTED.map((name) => [name, [...(this[name] as Map<string, unknown>).entries()]]));
    mkdirSync(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(data));
    renameSync(tmp, file);
  }

  // ---------- customers and payment methods ----------

  createCustomer(input: { email?: string; name?: string; description?: string; metadata?: Record<string, string> }): Customer {
    const customer: Customer = {
      id: id('cus'),
      object: 'customer',
      created: this.now(),
      email: input.email ?? null,
      name: input.name ?? null,
      description: input.description ?? null,
      metadata: input.metadata ?? {},
      invoice_settings: { default_payment_method: null, custom_fields: null, footer: null, rendering_options: null },
      livemode: false,
      invoice_prefix: randomBytes(4).toString('hex').toUpperCase(),
      next_invoice_sequence: 1,
    };
    this.customers.set(customer.id, customer);
    return customer;
  }

  customer(customerId: string, param = 'customer'): Customer {
    const c = this.customers.get(customerId);
    if (!c) throw noSuch('customer', customerId, param);
    return c;
  }

  updateCustomer(customerId: string, input: { email?: string; name?: string; metadata?: Record<string, string> }): Customer {
    const c = this.customer(customerId, 'id');
    if (input.email !== undefined) c.email = input.email;
    if (input.name !== undefined) c.name = input.name;
    if (input.metadata) c.metadata = { ...c.metadata, ...input.metadata };
    return c;
  }

  /** Validates a card (number, expiry) as Checkout and the portal do; declined cards are refused here. */
  private attachCard(customer: Customer, card: Card): PaymentMethod {
    const number = card.number.replace(/[\s-]/g, '');
    if (!/^\d{13,19}$/.test(number)) throw cardError('incorrect_number', 'Your card number is incorrect.');
    const now = new Date(this.now() * 1000);
    if (!(card.expMonth >= 1 && card.expMonth <= 12) || card.expYear < now.getUTCFullYear() || (card.expYear === now.getUTCFullYear() && card.expMonth < now.getUTCMonth() + 1)) {
      throw cardError('expired_card', 'Your card has expired.');
    }
    if (number === TEST_CARDS.declined) throw cardError('card_declined', 'Your card was declined.', 'generic_decline');
    if (number !== TEST_CARDS.success && number !== TEST_CARDS.chargeDeclined) throw cardError('card_declined', 'Your card was declined. Use a Stripe test card.', 'generic_decline');
    const pm: PaymentMethod = {
      id: id('pm'),
      object: 'payment_method',
      type: 'card',
      created: this.now(),
      customer: customer.id,
      livemode: false,
      billing_details: { email: customer.email, name: customer.name, address: null, phone: null },
      card: { brand: brandOf(number), last4: number.slice(-4), exp_month: card.expMonth, exp_year: card.expYear, funding: 'credit', country: 'US', display_brand: brandOf(number) },
      metadata: {},
    };
    this.paymentMethods.set(pm.id, pm);
    this.cardNumbers.set(pm.id, number);
    customer.invoice_settings.default_payment_method = pm.id;
    return pm;
  }

  private charge(paymentMethodId: string | null): { ok: true } | { ok: false; error: FakeStripeError } {
    const number = paymentMethodId ? this.cardNumbers.get(paymentMethodId) : undefined;
    if (!number) return { ok: false, error: invalidRequest('The customer has no attached payment source or default payment method.') };
    if (number === TEST_CARDS.success) return { ok: true };
    return { ok: false, error: cardError('card_declined', 'Your card was declined.', 'generic_decline') };
  }

  // ---------- prices ----------

  /** `line_items[0][price]` or `[price_data]` (inline: product_data.name, unit_amount, currency, recurring.interval). */
  resolvePrice(input: { price?: string; priceData?: { currency?: string; unitAmount?: number; interval?: string; intervalCount?: number; productName?: string; product?: string; metadata?: Record<string, string> } }, param: string): Price {
    if (input.price) {
      const p = this.prices.get(input.price);
      if (!p) throw noSuch('price', input.price, `${param}[price]`);
      return p;
    }
    const d = input.priceData;
    if (!d) throw invalidRequest('You must specify either `price` or `price_data` for each line item.', param);
    if (!d.currency) throw invalidRequest('Missing required param: line_items[0][price_data][currency].', `${param}[price_data][currency]`);
    if (d.unitAmount === undefined || !Number.isInteger(d.unitAmount) || d.unitAmount < 0) throw invalidRequest('Invalid integer: unit_amount', `${param}[price_data][unit_amount]`);
    const interval = d.interval as Interval;
    if (!['day', 'week', 'month', 'year'].includes(interval)) {
      throw invalidRequest('You must provide at least one recurring price in `subscription` mode when using prices.', `${param}[price_data][recurring]`);
    }
    let productId = d.product;
    if (productId && !this.products.has(productId)) throw noSuch('product', productId, `${param}[price_data][product]`);
    if (!productId) {
      if (!d.productName) throw invalidRequest('Missing required param: line_items[0][price_data][product_data][name].', `${param}[price_data][product_data][name]`);
      const product: Product = { id: id('prod'), object: 'product', name: d.productName, active: true, created: this.now(), metadata: {}, livemode: false };
      this.products.set(product.id, product);
      productId = product.id;
    }
    return this.addPrice({ currency: d.currency, unitAmount: d.unitAmount, interval, intervalCount: d.intervalCount ?? 1, product: productId, metadata: d.metadata ?? {} });
  }

  addPrice(input: { id?: string; currency: string; unitAmount: number; interval: Interval; intervalCount?: number; product: string; metadata?: Record<string, string>; lookupKey?: string }): Price {
    const price: Price = {
      id: input.id ?? id('price'),
      object: 'price',
      active: true,
      created: this.now(),
      currency: input.currency.toLowerCase(),
      unit_amount: input.unitAmount,
      unit_amount_decimal: String(input.unitAmount),
      recurring: { interval: input.interval, interval_count: input.intervalCount ?? 1, usage_type: 'licensed', meter: null },
      type: 'recurring',
      billing_scheme: 'per_unit',
      product: input.product,
      metadata: input.metadata ?? {},
      lookup_key: input.lookupKey ?? null,
      nickname: null,
      livemode: false,
    };
    this.prices.set(price.id, price);
    return price;
  }

  // ---------- checkout ----------

  createCheckoutSession(input: {
    mode?: string;
    customer?: string;
    customerEmail?: string;
    clientReferenceId?: string;
    successUrl?: string;
    cancelUrl?: string;
    price: Price;
    quantity: number;
    metadata: Record<string, string>;
    subscriptionMetadata: Record<string, string>;
  }): FakeCheckoutSession {
    if (input.mode !== 'subscription') throw invalidRequest('The fake Stripe supports Checkout in `subscription` mode only.', 'mode');
    if (!input.successUrl) throw invalidRequest('Missing required param: success_url.', 'success_url');
    if (!/^https?:\/\//.test(input.successUrl)) throw invalidRequest('Not a valid URL', 'success_url');
    if (input.customer) this.customer(input.customer);
    const sessionId = `cs_test_${randomBytes(24).toString('base64url').replace(/[-_]/g, 'x')}`;
    const session: FakeCheckoutSession = {
      id: sessionId,
      object: 'checkout.session',
      mode: 'subscription',
      status: 'open',
      payment_status: 'unpaid',
      customer: input.customer ?? null,
      customer_email: input.customerEmail ?? null,
      client_reference_id: input.clientReferenceId ?? null,
      subscription: null,
      invoice: null,
      success_url: input.successUrl,
      cancel_url: input.cancelUrl ?? null,
      url: `${this.options.publicBase()}/checkout/${sessionId}`,
      created: this.now(),
      expires_at: this.now() + 24 * 3600,
      currency: input.price.currency,
      amount_subtotal: input.price.unit_amount * input.quantity,
      amount_total: input.price.unit_amount * input.quantity,
      metadata: input.metadata,
      livemode: false,
      _price: input.price.id,
      _subscriptionMetadata: input.subscriptionMetadata,
      _declines: 0,
    };
    this.sessions.set(session.id, session);
    return session;
  }

  session(sessionId: string): FakeCheckoutSession {
    const s = this.sessions.get(sessionId);
    if (!s) throw noSuch('checkout.session', sessionId);
    return s;
  }

  /** The hosted page's Pay button: a declined card leaves the session open (the page shows the error). */
  payCheckout(sessionId: string, card: Card, email?: string): FakeCheckoutSession {
    const session = this.session(sessionId);
    if (session.status !== 'open') throw invalidRequest('This Checkout Session is no longer active.', 'session', 400);
    if (session.expires_at <= this.now()) {
      session.status = 'expired';
      session.url = null;
      this.emit('checkout.session.expired', session);
      throw invalidRequest('This Checkout Session has expired.');
    }
    let customer = session.customer ? this.customer(session.customer) : null;
    customer ??= this.createCustomer({ email: email ?? session.customer_email ?? undefined });
    let pm: PaymentMethod;
    try {
      pm = this.attachCard(customer, card);
    } catch (err) {
      session._declines += 1;
      throw err;
    }
    const price = this.prices.get(session._price)!;
    const subscription = this.startSubscription(customer, price, pm.id, session._subscriptionMetadata);
    const invoice = this.createInvoice(subscription, 'subscription_create');
    const paid = this.payInvoice(invoice, pm.id);
    if (!paid) throw cardError('card_declined', 'Your card was declined.', 'generic_decline');
    session.customer = customer.id;
    session.subscription = subscription.id;
    session.invoice = invoice.id;
    session.status = 'complete';
    session.payment_status = 'paid';
    session.url = null;
    this.emit('customer.subscription.created', subscription);
    this.emitInvoicePaid(invoice);
    this.emit('checkout.session.completed', session);
    return session;
  }

  /** The hosted page's "back" link: nothing is created (Stripe keeps the session open until it expires). */
  successRedirect(session: FakeCheckoutSession): string {
    return session.success_url.replace('{CHECKOUT_SESSION_ID}', encodeURIComponent(session.id));
  }

  expireSession(sessionId: string): FakeCheckoutSession {
    const session = this.session(sessionId);
    if (session.status !== 'open') throw invalidRequest(`Only Checkout Sessions with a status in ["open"] can be expired.`);
    session.status = 'expired';
    session.url = null;
    this.emit('checkout.session.expired', session);
    return session;
  }

  // ---------- subscriptions ----------

  private startSubscription(customer: Customer, price: Price, paymentMethodId: string, meta: Record<string, string>): FakeSubscription {
    const now = this.now();
    const subId = id('sub');
    const end = addInterval(now, price.recurring.interval, price.recurring.interval_count);
    const sub: FakeSubscription = {
      id: subId,
      object: 'subscription',
      customer: customer.id,
      status: 'active',
      created: now,
      start_date: now,
      billing_cycle_anchor: now,
      cancel_at: null,
      cancel_at_period_end: false,
      canceled_at: null,
      ended_at: null,
      cancellation_details: { comment: null, feedback: null, reason: null },
      collection_method: 'charge_automatically',
      currency: price.currency,
      default_payment_method: paymentMethodId,
      latest_invoice: null,
      metadata: meta,
      items: {
        object: 'list',
        data: [{ id: id('si'), object: 'subscription_item', created: now, current_period_start: now, current_period_end: end, metadata: {}, price, quantity: 1, subscription: subId }],
        has_more: false,
        total_count: 1,
        url: `/v1/subscription_items?subscription=${subId}`,
      },
      livemode: false,
    };
    this.subscriptions.set(sub.id, sub);
    return sub;
  }

  subscription(subscriptionId: string): FakeSubscription {
    const s = this.subscriptions.get(subscriptionId);
    if (!s) throw noSuch('subscription', subscriptionId);
    return s;
  }

  /**
   * Stripe's proration of a price change at `at` (unix seconds): the old price's unused time from `at` to the
   * period's end is credited, the new price's remaining time charged, each `unit_amount × remaining / period`
   * rounded to the cent (https://docs.stripe.com/billing/subscriptions/prorations).
   */
  prorationLines(sub: FakeSubscription, price: Price, at: number): Json[] {
    const item = sub.items.data[0];
    const { current_period_start: start, current_period_end: end } = item;
    if (at < start || at > end) throw invalidRequest('The proration_date must be within the current billing period.', 'proration_date');
    const share = end > start ? (end - at) / (end - start) : 0;
    const day = new Date(at * 1000).toLocaleDateString('en-US', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
    const productName = (p: Price) => this.products.get(p.product)?.name ?? 'Subscription';
    const line = (amount: number, of: Price, description: string): Json => ({
      id: id('il'),
      object: 'line_item',
      amount,
      currency: of.currency,
      description,
      period: { start: at, end },
      parent: { type: 'subscription_item_details', subscription_item_details: { subscription: sub.id, subscription_item: item.id, proration: true, invoice_item: id('ii') } },
      pricing: { type: 'price_details', price_details: { price: of.id, product: of.product }, unit_amount_decimal: String(of.unit_amount) },
      quantity: 1,
      metadata: {},
    });
    return [
      line(-Math.round(item.price.unit_amount * item.quantity * share), item.price, `Unused time on ${productName(item.price)} after ${day}`),
      line(Math.round(price.unit_amount * item.quantity * share), price, `Remaining time on ${productName(price)} after ${day}`),
    ];
  }

  /** POST /v1/invoices/create_preview for a price change with proration_behavior=always_invoice: the invoice the change would make now. */
  previewPriceChange(subscriptionId: string, price: Price, at: number): Json {
    const sub = this.subscription(subscriptionId);
    if (sub.status === 'canceled' || sub.status === 'incomplete_expired') throw invalidRequest('This subscription has ended.');
    const lines = this.prorationLines(sub, price, at);
    const total = lines.reduce((sum, l) => sum + (l.amount as number), 0);
    const customer = this.customer(sub.customer);
    return {
      id: `upcoming_${id('in')}`,
      object: 'invoice',
      customer: customer.id,
      billing_reason: 'subscription_update',
      currency: price.currency,
      subtotal: total,
      total,
      amount_due: Math.max(0, total),
      period_start: at,
      period_end: at,
      lines: { object: 'list', data: lines, has_more: false, total_count: lines.length, url: '/v1/invoices/upcoming/lines' },
      livemode: false,
    };
  }

  /**
   * POST /v1/subscriptions/{id}: cancel_at_period_end, or a new price on the item. Without proration the next
   * renewal bills the new price; with proration_behavior=always_invoice the prorated difference is invoiced and
   * charged now (a credit larger than the charge goes to the customer's balance: an invoice of 0).
   */
  updateSubscription(
    subscriptionId: string,
    input: { cancelAtPeriodEnd?: boolean; price?: Price; metadata?: Record<string, string>; prorationBehavior?: string; prorationDate?: number },
  ): FakeSubscription {
    const sub = this.subscription(subscriptionId);
    if (sub.status === 'canceled' || sub.status === 'incomplete_expired') {
      throw invalidRequest('A canceled subscription can only update its cancellation_details and metadata.');
    }
    const previous: Json = {};
    const item = sub.items.data[0];
    if (input.cancelAtPeriodEnd !== undefined && input.cancelAtPeriodEnd !== sub.cancel_at_period_end) {
      previous.cancel_at_period_end = sub.cancel_at_period_end;
      previous.cancel_at = sub.cancel_at;
      previous.canceled_at = sub.canceled_at;
      sub.cancel_at_period_end = input.cancelAtPeriodEnd;
      sub.cancel_at = input.cancelAtPeriodEnd ? item.current_period_end : null;
      sub.canceled_at = input.cancelAtPeriodEnd ? this.now() : null;
      sub.cancellation_details.reason = input.cancelAtPeriodEnd ? 'cancellation_requested' : null;
    }
    let prorated: FakeInvoice | null = null;
    if (input.price && input.price.id !== item.price.id) {
      if (input.prorationBehavior === 'always_invoice') {
        const lines = this.prorationLines(sub, input.price, input.prorationDate ?? this.now());
        prorated = this.createInvoice(sub, 'subscription_update', lines);
      }
      previous.items = JSON.parse(JSON.stringify(sub.items));
      item.price = input.price;
    }
    if (input.metadata) sub.metadata = { ...sub.metadata, ...input.metadata };
    if (prorated) {
      prorated.parent!.subscription_details.metadata = { ...sub.metadata };
      const paid = prorated.amount_due === 0 ? this.markPaid(prorated) : this.payInvoice(prorated, sub.default_payment_method ?? this.customer(sub.customer).invoice_settings.default_payment_method);
      this.emit('invoice.finalized', prorated);
      if (paid) this.emitInvoicePaid(prorated);
      else this.emit('invoice.payment_failed', prorated);
    }
    if (Object.keys(previous).length > 0) this.emit('customer.subscription.updated', sub, previous);
    return sub;
  }

  /** DELETE /v1/subscriptions/{id}: ends it now. */
  cancelSubscription(subscriptionId: string): FakeSubscription {
    const sub = this.subscription(subscriptionId);
    if (sub.status === 'canceled') throw invalidRequest(`No such subscription: '${subscriptionId}'`, 'id', 404);
    this.endSubscription(sub, this.now(), 'cancellation_requested');
    return sub;
  }

  private endSubscription(sub: FakeSubscription, at: number, reason: 'cancellation_requested' | 'payment_failed'): void {
    sub.status = 'canceled';
    sub.ended_at = at;
    sub.canceled_at ??= at;
    sub.cancellation_details.reason = reason;
    this.emit('customer.subscription.deleted', sub);
  }

  /**
   * Ends the current period now: a subscription set to cancel at the period's end is canceled;
   * otherwise the next period starts and its invoice is charged to the default payment method
   * (paid → active; declined → invoice open, subscription past_due, invoice.payment_failed).
   */
  renew(subscriptionId: string): FakeSubscription {
    const sub = this.subscription(subscriptionId);
    if (sub.status === 'canceled' || sub.status === 'incomplete_expired') throw invalidRequest('This subscription has ended.');
    const item = sub.items.data[0];
    const boundary = Math.min(item.current_period_end, Math.max(this.now(), item.current_period_start + 1));
    if (sub.cancel_at_period_end) {
      this.endSubscription(sub, boundary, 'cancellation_requested');
      return sub;
    }
    const previous = { status: sub.status, items: JSON.parse(JSON.stringify(sub.items)) };
    item.current_period_start = boundary;
    item.current_period_end = addInterval(boundary, item.price.recurring.interval, item.price.recurring.interval_count);
    const invoice = this.createInvoice(sub, 'subscription_cycle');
    const customer = this.customer(sub.customer);
    const paid = this.payInvoice(invoice, sub.default_payment_method ?? customer.invoice_settings.default_payment_method);
    sub.status = paid ? 'active' : 'past_due';
    this.emit('invoice.finalized', invoice);
    if (paid) this.emitInvoicePaid(invoice);
    else this.emit('invoice.payment_failed', invoice);
    this.emit('customer.subscription.updated', sub, previous);
    return sub;
  }

  /** Renews every subscription whose period has ended by now(). */
  renewDue(): FakeSubscription[] {
    const done: FakeSubscription[] = [];
    for (const sub of this.subscriptions.values()) {
      if ((sub.status === 'active' || sub.status === 'past_due' || sub.status === 'trialing') && sub.items.data[0].current_period_end <= this.now()) {
        done.push(this.renew(sub.id));
      }
    }
    return done;
  }

  // ---------- invoices ----------

  /** A subscription's invoice: the period's price, or the given lines (a prorated plan change's). */
  private createInvoice(sub: FakeSubscription, reason: FakeInvoice['billing_reason'], prorationLines?: Json[]): FakeInvoice {
    const customer = this.customer(sub.customer);
    const item = sub.items.data[0];
    const total = prorationLines ? prorationLines.reduce((sum, l) => sum + (l.amount as number), 0) : item.price.unit_amount * item.quantity;
    // A credit larger than the charge is not paid out: it goes to the customer's balance and the invoice is 0.
    const amount = Math.max(0, total);
    const invoiceId = id('in');
    const product = this.products.get(item.price.product);
    const now = this.now();
    const invoice: FakeInvoice = {
      id: invoiceId,
      object: 'invoice',
      customer: customer.id,
      customer_email: customer.email,
      customer_name: customer.name,
      number: `${customer.invoice_prefix}-${String(customer.next_invoice_sequence++).padStart(4, '0')}`,
      status: 'open',
      billing_reason: reason,
      collection_method: 'charge_automatically',
      created: now,
      // Stripe: a subscription invoice's period_start/period_end are the period BEFORE (usage); lines carry the service period.
      period_start: item.current_period_start,
      period_end: item.current_period_end,
      currency: item.price.currency,
      subtotal: total,
      total,
      amount_due: amount,
      amount_paid: 0,
      amount_remaining: amount,
      attempt_count: 0,
      attempted: false,
      next_payment_attempt: null,
      hosted_invoice_url: `${this.options.publicBase()}/invoices/${invoiceId}`,
      invoice_pdf: `${this.options.publicBase()}/invoices/${invoiceId}/pdf`,
      parent: { type: 'subscription_details', quote_details: null, subscription_details: { subscription: sub.id, metadata: { ...sub.metadata } } },
      lines: {
        object: 'list',
        data: prorationLines ?? [
          {
            id: id('il'),
            object: 'line_item',
            amount,
            currency: item.price.currency,
            description: `1 × ${product?.name ?? 'Subscription'} (at ${(item.price.unit_amount / 100).toFixed(2)} ${item.price.currency.toUpperCase()} / ${item.price.recurring.interval})`,
            period: { start: item.current_period_start, end: item.current_period_end },
            pricing: { type: 'price_details', price_details: { price: item.price.id, product: item.price.product }, unit_amount_decimal: String(item.price.unit_amount) },
            quantity: 1,
            metadata: {},
          },
        ],
        has_more: false,
        total_count: prorationLines?.length ?? 1,
        url: `/v1/invoices/${invoiceId}/lines`,
      },
      status_transitions: { finalized_at: now, paid_at: null, voided_at: null, marked_uncollectible_at: null },
      last_finalization_error: null,
      metadata: {},
      livemode: false,
    };
    this.invoices.set(invoice.id, invoice);
    sub.latest_invoice = invoice.id;
    return invoice;
  }

  /** An invoice of 0 (a credit covered it): paid without a charge. */
  private markPaid(invoice: FakeInvoice): true {
    invoice.status = 'paid';
    invoice.amount_remaining = 0;
    invoice.status_transitions.paid_at = this.now();
    return true;
  }

  private payInvoice(invoice: FakeInvoice, paymentMethodId: string | null): boolean {
    invoice.attempt_count += 1;
    invoice.attempted = true;
    const result = this.charge(paymentMethodId);
    if (!result.ok) {
      invoice.next_payment_attempt = this.now() + 3 * 86_400;
      return false;
    }
    invoice.status = 'paid';
    invoice.amount_paid = invoice.amount_due;
    invoice.amount_remaining = 0;
    invoice.next_payment_attempt = null;
    invoice.status_transitions.paid_at = this.now();
    return true;
  }

  private emitInvoicePaid(invoice: FakeInvoice): void {
    this.emit('invoice.paid', invoice);
    this.emit('invoice.payment_succeeded', invoice);
  }

  invoice(invoiceId: string): FakeInvoice {
    const i = this.invoices.get(invoiceId);
    if (!i) throw noSuch('invoice', invoiceId);
    return i;
  }

  listInvoices(filter: { customer?: string; subscription?: string; status?: string }): FakeInvoice[] {
    return [...this.invoices.values()]
      .filter((i) => (!filter.customer || i.customer === filter.customer) && (!filter.subscription || i.parent?.subscription_details.subscription === filter.subscription) && (!filter.status || i.status === filter.status))
      .sort((a, b) => b.created - a.created || (b.number ?? '').localeCompare(a.number ?? ''));
  }

  // ---------- customer portal ----------

  createPortalSession(input: { customer?: string; returnUrl?: string }): PortalSession {
    if (!input.customer) throw invalidRequest('Missing required param: customer.', 'customer');
    this.customer(input.customer);
    const portalId = id('bps');
    const session: PortalSession = {
      id: portalId,
      object: 'billing_portal.session',
      customer: input.customer,
      return_url: input.returnUrl ?? null,
      url: `${this.options.publicBase()}/portal/${portalId}`,
      created: this.now(),
      livemode: false,
      configuration: 'bpc_fake_default',
      flow: null,
      locale: null,
      on_behalf_of: null,
    };
    this.portalSessions.set(session.id, session);
    return session;
  }

  portalSession(portalId: string): PortalSession {
    const s = this.portalSessions.get(portalId);
    if (!s) throw noSuch('billing_portal.session', portalId);
    return s;
  }

  /** The portal's "Update payment method": the new card becomes the default, and open invoices are retried with it. */
  updatePaymentMethod(portalId: string, card: Card): PaymentMethod {
    const session = this.portalSession(portalId);
    const customer = this.customer(session.customer);
    const pm = this.attachCard(customer, card);
    this.emit('payment_method.attached', pm);
    for (const sub of this.subscriptions.values()) {
      if (sub.customer !== customer.id || sub.status === 'canceled') continue;
      const previous = { default_payment_method: sub.default_payment_method, status: sub.status };
      sub.default_payment_method = pm.id;
      const open = this.listInvoices({ subscription: sub.id, status: 'open' });
      let allPaid = true;
      for (const invoice of open) {
        if (this.payInvoice(invoice, pm.id)) this.emitInvoicePaid(invoice);
        else {
          allPaid = false;
          this.emit('invoice.payment_failed', invoice);
        }
      }
      if (sub.status === 'past_due' && allPaid) sub.status = 'active';
      this.emit('customer.subscription.updated', sub, previous);
    }
    return pm;
  }

  paymentMethod(pmId: string): PaymentMethod {
    const pm = this.paymentMethods.get(pmId);
    if (!pm) throw noSuch('payment_method', pmId);
    return pm;
  }

  // ---------- events and webhooks ----------

  emit(type: string, object: object, previous?: Json): FakeStripeEvent {
    const event: FakeStripeEvent = {
      id: id('evt'),
      object: 'event',
      api_version: FAKE_STRIPE_API_VERSION,
      created: this.now(),
      type,
      // A snapshot of the object as it is now (later changes do not rewrite a sent event).
      data: { object: publicView(object), ...(previous ? { previous_attributes: previous } : {}) },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
    };
    this.events.push(event);
    this.deliver(event);
    return event;
  }

  /** Sends (or re-sends) one event, signed at the current time. */
  deliver(event: FakeStripeEvent): Promise<void> {
    const payload = JSON.stringify(event, null, 2);
    const signature = stripeSignature(payload, this.options.webhookSecret, this.now());
    const delivery: WebhookDelivery = { event, status: null, error: null };
    this.deliveries.push(delivery);
    // Deliveries are sent in order, one after the other (Stripe does not promise an order; the receiver must not need one).
    const previous = [...this.pending];
    const done: Promise<void> = Promise.all(previous)
      .then(() => this.options.send(payload, signature))
      .then(
        (status) => {
          delivery.status = status;
          if (status !== null && status >= 200 && status < 300) event.pending_webhooks = 0;
        },
        (err: unknown) => {
          delivery.error = err instanceof Error ? err.message : String(err);
        },
      )
      .finally(() => this.pending.delete(done));
    this.pending.add(done);
    return done;
  }

  /** Resolves once every delivery started so far has been answered (tests). */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  event(eventId: string): FakeStripeEvent {
    const e = this.events.find((x) => x.id === eventId);
    if (!e) throw noSuch('event', eventId);
    return e;
  }
}

/** The object as the API shows it: our private `_…` fields and the customer's invoice bookkeeping removed, deep-copied. */
export function publicView<T extends object>(object: T): Json {
  return JSON.parse(
    JSON.stringify(object, (key, value) => (key.startsWith('_') || key === 'invoice_prefix' || key === 'next_invoice_sequence' ? undefined : value)),
  ) as Json;
}
