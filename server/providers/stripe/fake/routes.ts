/**
 * The fake Stripe over HTTP: the REST endpoints the official SDK calls (under /v1, form-encoded
 * requests, Stripe's JSON objects and `{error:{type,code,message,param}}` errors, Bearer secret key,
 * Idempotency-Key replays) and the pages a browser visits: the hosted Checkout page double, the
 * Customer Portal double (payment method), the hosted invoice page and its PDF.
 * Mounted at /dev/stripe in demo mode only (server/providers/stripe/mount.ts); tests also run it
 * on a port of its own (startFakeStripeServer).
 */
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { FakeStripe, FakeStripeError, TEST_CARDS, invalidRequest, publicView, type Card, type FakeStripeOptions } from './fakeStripe';
import { bool, list, metadata, obj, parseStripeForm, str, type FormObject, type FormValue } from './forms';
import { textPdf } from './pdf';

export interface FakeStripePluginOptions {
  fake: FakeStripe;
}

type Params = { Params: Record<string, string> };

function esc(s: string | null | undefined): string {
  return String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function money(amount: number, currency: string): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(amount / 100);
}

function date(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(0, 10);
}

const STYLE = `body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;background:#f6f9fc;color:#1a1f36;margin:0}
main{max-width:440px;margin:48px auto;background:#fff;border-radius:8px;box-shadow:0 2px 8px rgba(0,0,0,.12);padding:32px}
h1{font-size:20px;margin:0 0 4px}p{color:#4f566b}label{display:block;font-size:14px;margin:14px 0 4px;color:#30313d}
input{width:100%;box-sizing:border-box;font-size:16px;padding:10px;border:1px solid #c0c8d2;border-radius:6px}
.row{display:flex;gap:12px}.row>div{flex:1}button{margin-top:20px;width:100%;padding:12px;font-size:16px;border:0;border-radius:6px;background:#0a2540;color:#fff;cursor:pointer}
.error{background:#fde8e8;color:#8a1c1c;border-radius:6px;padding:10px;margin-top:14px}.muted{font-size:13px;color:#4f566b}
a{color:#0a2540}table{width:100%;border-collapse:collapse}td,th{text-align:left;padding:6px 0;border-bottom:1px solid #e3e8ee}.badge{display:inline-block;padding:2px 8px;border-radius:10px;background:#e3e8ee;font-size:13px}`;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${esc(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
}

function cardFields(email: string | null): string {
  return `${email !== null ? `<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="email" value="${esc(email)}">` : ''}
<label for="card_number">Card number</label><input id="card_number" name="card_number" inputmode="numeric" autocomplete="cc-number" placeholder="1234 1234 1234 1234" required>
<div class="row"><div><label for="card_expiry">Expiration (MM / YY)</label><input id="card_expiry" name="card_expiry" autocomplete="cc-exp" placeholder="MM / YY" required></div>
<div><label for="card_cvc">CVC</label><input id="card_cvc" name="card_cvc" inputmode="numeric" autocomplete="cc-csc" placeholder="123" required></div></div>
<p class="muted">Test mode. Success: 4242 4242 4242 4242. Declined: 4000 0000 0000 0002. Declined on renewal: 4000 0000 0000 0341. Any future date, any CVC.</p>`;
}

/** MM / YY, MM/YYYY, MMYY → a Card; a wrong expiry is Stripe's invalid_expiry error. */
function cardFrom(form: FormObject): Card {
  const number = (str(form.card_number) ?? '').replace(/[\s-]/g, '');
  const m = /^\s*(\d{1,2})\s*\/?\s*(\d{2}|\d{4})\s*$/.exec(str(form.card_expiry) ?? '');
  if (!m) throw new FakeStripeError(402, { type: 'card_error', code: 'invalid_expiry_year', message: "Your card's expiration date is incomplete." });
  const year = m[2].length === 2 ? 2000 + Number(m[2]) : Number(m[2]);
  if (!/^\d{3,4}$/.test(str(form.card_cvc) ?? '')) throw new FakeStripeError(402, { type: 'card_error', code: 'invalid_cvc', message: "Your card's security code is incomplete." });
  return { number, expMonth: Number(m[1]), expYear: year };
}

function expand(fake: FakeStripe, object: Record<string, unknown>, paths: string[]): Record<string, unknown> {
  const out = { ...object };
  for (const path of paths) {
    const value = out[path];
    if (typeof value !== 'string') continue;
    try {
      if (path === 'default_payment_method') out[path] = publicView(fake.paymentMethod(value));
      else if (path === 'subscription') out[path] = publicView(fake.subscription(value));
      else if (path === 'latest_invoice' || path === 'invoice') out[path] = publicView(fake.invoice(value));
      else if (path === 'customer') out[path] = publicView(fake.customer(value));
    } catch {
      // An unknown id stays an id.
    }
  }
  return out;
}

function expandParam(form: FormObject): string[] {
  return list(form.expand).filter((v): v is string => typeof v === 'string');
}

function queryForm(request: FastifyRequest): FormObject {
  const q = request.raw.url?.split('?')[1] ?? '';
  return parseStripeForm(q);
}

function intParam(value: string | undefined, param: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value)) throw invalidRequest(`Invalid integer: ${value}`, param);
  return Number(value);
}

export async function fakeStripePlugin(app: FastifyInstance, { fake }: FakeStripePluginOptions): Promise<void> {
  const { secretKey } = fake.options;
  const idempotent = new Map<string, { status: number; body: unknown }>();

  if (!app.hasContentTypeParser('application/x-www-form-urlencoded')) {
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => done(null, parseStripeForm(String(body))));
  }

  // Every change is kept (statePath) once answered.
  app.addHook('onResponse', async (request) => {
    if (request.method !== 'GET') fake.save();
  });

  app.setErrorHandler((error, request, reply) => {
    if (error instanceof FakeStripeError) return reply.code(error.status).send(error.toJSON());
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    request.log.warn({ err: error }, 'fake Stripe error');
    return reply.code(status >= 400 && status < 500 ? status : 500).send({ error: { type: status < 500 ? 'invalid_request_error' : 'api_error', message: status < 500 && error instanceof Error ? error.message : 'An unknown error occurred.' } });
  });

  // ---------- the REST API (/v1) ----------
  await app.register(async (api) => {
    api.addHook('onRequest', async (request, reply) => {
      const auth = request.headers.authorization ?? '';
      const key = /^Bearer (.+)$/.exec(auth)?.[1] ?? '';
      if (!key) {
        return reply.code(401).send({ error: { type: 'invalid_request_error', message: 'You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. \'Authorization: Bearer YOUR_SECRET_KEY\').' } });
      }
      if (key !== secretKey) {
        return reply.code(401).send({ error: { type: 'invalid_request_error', code: 'api_key_invalid', message: `Invalid API Key provided: ${key.slice(0, 8)}${'*'.repeat(Math.max(0, key.length - 12))}${key.slice(-4)}` } });
      }
      reply.header('request-id', `req_${Math.random().toString(36).slice(2, 16)}`);
      reply.header('stripe-version', request.headers['stripe-version'] ?? 'fake');
    });
    // Idempotency-Key: the same POST with the same key answers what it answered the first time.
    api.addHook('preHandler', async (request, reply) => {
      const key = request.headers['idempotency-key'];
      if (request.method !== 'POST' || typeof key !== 'string') return;
      const seen = idempotent.get(`${request.url} ${key}`);
      if (seen) {
        reply.header('idempotent-replayed', 'true');
        return reply.code(seen.status).send(seen.body);
      }
    });
    api.addHook('onSend', async (request, reply, payload) => {
      const key = request.headers['idempotency-key'];
      if (request.method === 'POST' && typeof key === 'string' && reply.statusCode < 500 && typeof payload === 'string' && !reply.getHeader('idempotent-replayed')) {
        idempotent.set(`${request.url} ${key}`, { status: reply.statusCode, body: JSON.parse(payload) as unknown });
      }
      return payload;
    });

    const body = (request: FastifyRequest): FormObject => (request.body && typeof request.body === 'object' ? (request.body as FormObject) : {});

    api.post('/customers', async (request) => {
      const f = body(request);
      return publicView(fake.createCustomer({ email: str(f.email), name: str(f.name), description: str(f.description), metadata: metadata(f.metadata) }));
    });
    api.get<Params>('/customers/:id', async (request) => expand(fake, publicView(fake.customer(request.params.id, 'id')), expandParam(queryForm(request))));
    api.post<Params>('/customers/:id', async (request) => {
      const f = body(request);
      return publicView(fake.updateCustomer(request.params.id, { email: str(f.email), name: str(f.name), metadata: f.metadata ? metadata(f.metadata) : undefined }));
    });

    api.post('/products', async (request) => {
      const f = body(request);
      const name = str(f.name);
      if (!name) throw invalidRequest('Missing required param: name.', 'name');
      const product = { id: `prod_${Math.random().toString(36).slice(2, 16)}`, object: 'product' as const, name, active: true as const, created: fake.now(), metadata: metadata(f.metadata), livemode: false as const };
      fake.products.set(product.id, product);
      return publicView(product);
    });

    api.get<Params>('/prices/:id', async (request) => {
      const p = fake.prices.get(request.params.id);
      if (!p) throw invalidRequest(`No such price: '${request.params.id}'`, 'id', 404);
      return publicView(p);
    });

    api.post('/checkout/sessions', async (request) => {
      const f = body(request);
      const items = list(f.line_items);
      if (items.length !== 1) throw invalidRequest(items.length === 0 ? 'Missing required param: line_items.' : 'The fake Stripe takes one line item.', 'line_items');
      const item = obj(items[0]);
      const pd = obj(item.price_data);
      const unitAmount = str(pd.unit_amount);
      const price = fake.resolvePrice(
        {
          price: str(item.price),
          priceData: item.price_data
            ? {
                currency: str(pd.currency),
                unitAmount: unitAmount !== undefined && /^\d+$/.test(unitAmount) ? Number(unitAmount) : -1,
                interval: str(obj(pd.recurring).interval),
                intervalCount: intParam(str(obj(pd.recurring).interval_count), 'line_items[0][price_data][recurring][interval_count]'),
                productName: str(obj(pd.product_data).name),
                product: str(pd.product),
                metadata: metadata(pd.metadata),
              }
            : undefined,
        },
        'line_items[0]',
      );
      const quantity = intParam(str(item.quantity), 'line_items[0][quantity]') ?? 1;
      if (quantity < 1) throw invalidRequest('Invalid positive integer', 'line_items[0][quantity]');
      return publicView(
        fake.createCheckoutSession({
          mode: str(f.mode),
          customer: str(f.customer),
          customerEmail: str(f.customer_email),
          clientReferenceId: str(f.client_reference_id),
          successUrl: str(f.success_url),
          cancelUrl: str(f.cancel_url),
          price,
          quantity,
          metadata: metadata(f.metadata),
          subscriptionMetadata: metadata(obj(f.subscription_data).metadata),
        }),
      );
    });
    api.get<Params>('/checkout/sessions/:id', async (request) => expand(fake, publicView(fake.session(request.params.id)), expandParam(queryForm(request))));
    api.post<Params>('/checkout/sessions/:id/expire', async (request) => publicView(fake.expireSession(request.params.id)));

    api.get<Params>('/subscriptions/:id', async (request) => expand(fake, publicView(fake.subscription(request.params.id)), expandParam(queryForm(request))));
    /** A subscription item's new price: `price` (an id) or `price_data`, as subscriptions and invoice previews take it. */
    const itemPrice = (items: FormValue[], param: string) => {
      if (items.length === 0) return undefined;
      const item = obj(items[0]);
      const pd = obj(item.price_data);
      return fake.resolvePrice(
        {
          price: str(item.price),
          priceData: item.price_data
            ? {
                currency: str(pd.currency),
                unitAmount: Number(str(pd.unit_amount) ?? -1),
                interval: str(obj(pd.recurring).interval),
                product: str(pd.product),
                productName: str(obj(pd.product_data).name),
              }
            : undefined,
        },
        param,
      );
    };
    const prorationBehavior = (value: FormValue | undefined, param: string) => {
      const behavior = str(value);
      if (behavior !== undefined && !['create_prorations', 'none', 'always_invoice'].includes(behavior)) throw invalidRequest(`Invalid ${param}: must be one of create_prorations, none, or always_invoice`, param);
      return behavior;
    };

    api.post<Params>('/subscriptions/:id', async (request) => {
      const f = body(request);
      const price = itemPrice(list(f.items), 'items[0]');
      const sub = fake.updateSubscription(request.params.id, {
        cancelAtPeriodEnd: bool(f.cancel_at_period_end),
        price,
        metadata: f.metadata ? metadata(f.metadata) : undefined,
        prorationBehavior: prorationBehavior(f.proration_behavior, 'proration_behavior'),
        prorationDate: intParam(str(f.proration_date), 'proration_date'),
      });
      return expand(fake, publicView(sub), expandParam(f));
    });

    // The invoice a subscription change would make; the fake previews what billing asks: a prorated price change, invoiced at once.
    api.post('/invoices/create_preview', async (request) => {
      const f = body(request);
      const subscription = str(f.subscription);
      if (!subscription) throw invalidRequest('The fake Stripe previews subscription changes only: subscription is required.', 'subscription');
      const details = obj(f.subscription_details);
      const price = itemPrice(list(details.items), 'subscription_details[items][0]');
      if (!price) throw invalidRequest('Missing required param: subscription_details[items].', 'subscription_details[items]');
      if (prorationBehavior(details.proration_behavior, 'subscription_details[proration_behavior]') !== 'always_invoice') {
        throw invalidRequest('The fake Stripe previews proration_behavior=always_invoice only.', 'subscription_details[proration_behavior]');
      }
      return fake.previewPriceChange(subscription, price, intParam(str(details.proration_date), 'subscription_details[proration_date]') ?? fake.now());
    });
    api.delete<Params>('/subscriptions/:id', async (request) => publicView(fake.cancelSubscription(request.params.id)));

    api.get('/invoices', async (request) => {
      const q = queryForm(request);
      const limit = Math.min(100, Math.max(1, intParam(str(q.limit), 'limit') ?? 10));
      let rows = fake.listInvoices({ customer: str(q.customer), subscription: str(q.subscription), status: str(q.status) });
      const after = str(q.starting_after);
      if (after) {
        const index = rows.findIndex((i) => i.id === after);
        if (index < 0) throw invalidRequest(`No such invoice: '${after}'`, 'starting_after', 404);
        rows = rows.slice(index + 1);
      }
      return { object: 'list', data: rows.slice(0, limit).map((i) => publicView(i)), has_more: rows.length > limit, url: '/v1/invoices' };
    });
    api.get<Params>('/invoices/:id', async (request) => expand(fake, publicView(fake.invoice(request.params.id)), expandParam(queryForm(request))));

    api.get<Params>('/payment_methods/:id', async (request) => publicView(fake.paymentMethod(request.params.id)));
    api.get<Params>('/events/:id', async (request) => fake.event(request.params.id));

    api.post('/billing_portal/sessions', async (request) => {
      const f = body(request);
      return publicView(fake.createPortalSession({ customer: str(f.customer), returnUrl: str(f.return_url) }));
    });

    api.route({
      method: ['GET', 'POST', 'DELETE'],
      url: '/*',
      handler: async (request, reply) =>
        reply.code(404).send({ error: { type: 'invalid_request_error', message: `Unrecognized request URL (${request.method}: ${request.url}). The fake Stripe serves what billing uses.` } }),
    });
  }, { prefix: '/v1' });

  // ---------- the hosted Checkout page double ----------
  const checkoutPage = (reply: FastifyReply, sessionId: string, error?: string, status = 200) => {
    const session = fake.session(sessionId);
    const price = fake.prices.get(session._price)!;
    const product = fake.products.get(price.product);
    if (session.status !== 'open') {
      return reply.code(status).type('text/html; charset=utf-8').send(page('Checkout', `<h1>This checkout session is ${esc(session.status)}</h1><p><a href="${esc(session.status === 'complete' ? fake.successRedirect(session) : (session.cancel_url ?? '/'))}">Return to the merchant</a></p>`));
    }
    const customer = session.customer ? fake.customers.get(session.customer) : null;
    return reply
      .code(status)
      .type('text/html; charset=utf-8')
      .send(
        page(
          'Checkout',
          `<p class="muted">Fake Stripe Checkout · test mode</p><h1>Subscribe to ${esc(product?.name ?? 'the plan')}</h1>
<p><strong>${esc(money(price.unit_amount, price.currency))}</strong> per ${esc(price.recurring.interval)}</p>
<form method="post" action="${esc(sessionId)}" aria-label="Payment">
${cardFields(customer?.email ?? session.customer_email ?? '')}
${error ? `<div class="error" role="alert">${esc(error)}</div>` : ''}
<button type="submit">Subscribe</button></form>
${session.cancel_url ? `<p><a href="${esc(sessionId)}/cancel">← Back</a></p>` : ''}`,
        ),
      );
  };

  app.get<Params>('/checkout/:id', async (request, reply) => checkoutPage(reply, request.params.id));
  app.post<Params & { Body: FormObject }>('/checkout/:id', async (request, reply) => {
    const form = request.body && typeof request.body === 'object' ? request.body : {};
    try {
      const session = fake.payCheckout(request.params.id, cardFrom(form), str(form.email) || undefined);
      // Like Stripe: the webhooks are on their way; the browser goes back to the merchant at once.
      return reply.redirect(fake.successRedirect(session), 303);
    } catch (err) {
      if (err instanceof FakeStripeError && err.status === 402) return checkoutPage(reply, request.params.id, err.message, 402);
      throw err;
    }
  });
  app.get<Params>('/checkout/:id/cancel', async (request, reply) => {
    const session = fake.session(request.params.id);
    return reply.redirect(session.cancel_url ?? '/', 303);
  });

  // ---------- the Customer Portal double ----------
  const portalPage = (reply: FastifyReply, portalId: string, message?: { error?: string; ok?: string }, status = 200) => {
    const session = fake.portalSession(portalId);
    const customer = fake.customer(session.customer);
    const pm = customer.invoice_settings.default_payment_method ? fake.paymentMethods.get(customer.invoice_settings.default_payment_method) : undefined;
    const subs = [...fake.subscriptions.values()].filter((s) => s.customer === customer.id && s.status !== 'canceled');
    const invoices = fake.listInvoices({ customer: customer.id }).slice(0, 10);
    return reply
      .code(status)
      .type('text/html; charset=utf-8')
      .send(
        page(
          'Billing portal',
          `<p class="muted">Fake Stripe customer portal · test mode</p><h1>${esc(customer.name ?? customer.email ?? 'Your billing')}</h1>
${subs.map((s) => `<p>Subscription <span class="badge">${esc(s.status)}</span>${s.cancel_at_period_end ? ` · ends ${date(s.items.data[0].current_period_end)}` : ` · renews ${date(s.items.data[0].current_period_end)}`}</p>`).join('')}
<h2>Payment method</h2><p>${pm ? `${esc(pm.card.brand)} •••• ${esc(pm.card.last4)} (expires ${pm.card.exp_month}/${pm.card.exp_year})` : 'No payment method on file.'}</p>
<form method="post" action="${esc(portalId)}" aria-label="Update payment method">${cardFields(null)}
${message?.error ? `<div class="error" role="alert">${esc(message.error)}</div>` : ''}${message?.ok ? `<p role="status">${esc(message.ok)}</p>` : ''}
<button type="submit">Update payment method</button></form>
<h2>Invoices</h2><table><tbody>${invoices.map((i) => `<tr><td>${date(i.created)}</td><td>${esc(money(i.amount_due, i.currency))}</td><td>${esc(i.status)}</td><td><a href="../invoices/${esc(i.id)}">View</a></td></tr>`).join('')}</tbody></table>
<p><a href="${esc(portalId)}/return">← Return to the merchant</a></p>`,
        ),
      );
  };

  app.get<Params>('/portal/:id', async (request, reply) => portalPage(reply, request.params.id));
  app.post<Params & { Body: FormObject }>('/portal/:id', async (request, reply) => {
    const form = request.body && typeof request.body === 'object' ? request.body : {};
    try {
      fake.updatePaymentMethod(request.params.id, cardFrom(form));
      return portalPage(reply, request.params.id, { ok: 'Payment method updated.' });
    } catch (err) {
      if (err instanceof FakeStripeError && err.status === 402) return portalPage(reply, request.params.id, { error: err.message }, 402);
      throw err;
    }
  });
  app.get<Params>('/portal/:id/return', async (request, reply) => reply.redirect(fake.portalSession(request.params.id).return_url ?? '/', 303));

  // ---------- hosted invoice page and PDF ----------
  app.get<Params>('/invoices/:id', async (request, reply) => {
    const i = fake.invoice(request.params.id);
    const line = i.lines.data[0] as { description?: string } | undefined;
    return reply
      .type('text/html; charset=utf-8')
      .send(
        page(
          `Invoice ${i.number ?? i.id}`,
          `<p class="muted">Fake Stripe invoice · test mode</p><h1>Invoice ${esc(i.number)}</h1><p><span class="badge">${esc(i.status)}</span></p>
<table><tbody><tr><th>Date</th><td>${date(i.created)}</td></tr><tr><th>Billed to</th><td>${esc(i.customer_name ?? i.customer_email ?? i.customer)}</td></tr>
<tr><th>Item</th><td>${esc(line?.description ?? '')}</td></tr><tr><th>Amount due</th><td>${esc(money(i.amount_due, i.currency))}</td></tr><tr><th>Amount paid</th><td>${esc(money(i.amount_paid, i.currency))}</td></tr></tbody></table>
<p><a href="${esc(i.id)}/pdf">Download PDF</a></p>`,
        ),
      );
  });
  app.get<Params>('/invoices/:id/pdf', async (request, reply) => {
    const i = fake.invoice(request.params.id);
    const line = i.lines.data[0] as { description?: string } | undefined;
    const pdf = textPdf([
      `Invoice ${i.number ?? i.id}`,
      `Date: ${date(i.created)}`,
      `Billed to: ${i.customer_name ?? i.customer_email ?? i.customer}`,
      `${line?.description ?? ''}`,
      `Service period: ${date(i.period_start)} - ${date(i.period_end)}`,
      `Amount due: ${money(i.amount_due, i.currency)}`,
      `Amount paid: ${money(i.amount_paid, i.currency)}`,
      `Status: ${i.status}`,
      'Fake Stripe (test mode)',
    ]);
    return reply.type('application/pdf').header('content-disposition', `inline; filename="invoice-${i.number ?? i.id}.pdf"`).send(pdf);
  });

  // ---------- test helpers (what Stripe's test clocks do): end a subscription's period now ----------
  app.post<Params>('/test_helpers/subscriptions/:id/renew', async (request) => publicView(fake.renew(request.params.id)));
  app.post('/test_helpers/renew_due', async () => ({ renewed: fake.renewDue().map((s) => s.id) }));
}

export { TEST_CARDS };

/**
 * A fake Stripe on a port of its own (tests): returns the fake, its origin and a close function.
 * The SDK points at it with host 127.0.0.1, this port and protocol http.
 */
export async function startFakeStripeServer(options: Omit<FakeStripeOptions, 'publicBase'>): Promise<{ fake: FakeStripe; port: number; origin: string; close: () => Promise<void> }> {
  const app = Fastify({ logger: false });
  let origin = '';
  const fake = new FakeStripe({ ...options, publicBase: () => origin });
  await app.register(fakeStripePlugin, { fake });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
  return {
    fake,
    port,
    origin,
    close: async () => {
      await fake.settled();
      await app.close();
    },
  };
}
