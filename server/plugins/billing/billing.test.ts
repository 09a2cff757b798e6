/**
 * Billing against the fake Stripe with the real SDK: the fake runs on a port of its own and the
 * app's StripePayments points at it with the SDK's host/port/protocol options; the fake's webhooks
 * reach the app's /api/webhooks/stripe/ signed with the shared secret.
 */
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PLAN_LIMIT_ERROR_CODE,
  SUBSCRIPTION_CANCELLED_MESSAGE,
  type InvoicesResponse,
  type PlanChangePreview,
  type PlansResponse,
  type SubscribeResponse,
  type Subscription,
} from '../../../contract/billing';
import type { User } from '../../../contract/api';
import { channels, companies, invites } from '../../core/db/schema';
import { StripePayments } from '../../providers/stripe';
import { TEST_CARDS, stripeSignature, type FakeStripe, type FakeStripeEvent } from '../../providers/stripe/fake/fakeStripe';
import { startFakeStripeServer } from '../../providers/stripe/fake/routes';
import { createTestApp, describeEachDatabase, type TestApp } from '../../testing/testApp';
import { teamFixture, type TeamFixture } from '../team/testing';
import { billingServices } from '.';
import { billingInvoices, billingWebhookEvents } from './schema';

const SECRET_KEY = 'sk_test_fake_billing_0123456789';
const WEBHOOK_SECRET = 'whsec_fake_billing_test';

describeEachDatabase('billing with the fake Stripe', (database) => {
  let t: TestApp;
  let fake: FakeStripe;
  let closeFake: () => Promise<void>;
  let n = 0;
  let plans: PlansResponse['results'];

  const nowSeconds = () => Math.floor(t.clock.now().getTime() / 1000);

  beforeAll(async () => {
    t = await createTestApp({ database });
    const server = await startFakeStripeServer({
      secretKey: SECRET_KEY,
      webhookSecret: WEBHOOK_SECRET,
      now: nowSeconds,
      send: async (payload, signature) => {
        const res = await t.app.inject({ method: 'POST', url: '/api/webhooks/stripe/', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, payload });
        return res.statusCode;
      },
    });
    fake = server.fake;
    closeFake = server.close;
    // The real SDK, pointed at the fake with host/port/protocol.
    billingServices(t.app).payments = new StripePayments({ mode: 'local', secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, host: '127.0.0.1', port: server.port, protocol: 'http', maxNetworkRetries: 0 });
  });

  afterAll(async () => {
    await closeFake?.();
    await t?.close();
  });

  const company = async (): Promise<TeamFixture> => {
    n++;
    return teamFixture(t, `Billing ${n}`, `billing${n}.test`);
  };

  const plan = (code: string) => {
    const found = plans.find((p) => p.code === code);
    if (!found) throw new Error(`no plan ${code}`);
    return found;
  };

  const subscriptionOf = async (f: TeamFixture, query = ''): Promise<Subscription> => {
    const res = await f.call(f.admin, 'GET', `/api/subscriptions/active/${query}`);
    expect(res.statusCode).toBe(200);
    return res.json() as Subscription;
  };

  /** The browser on the hosted checkout page: fills in a card and presses Subscribe. */
  const pay = async (checkoutUrl: string, card: string) =>
    fetch(checkoutUrl, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: 'payer@billing.test', card_number: card, card_expiry: '12 / 34', card_cvc: '123' }).toString(),
    });

  /** Subscribes the company to a plan through checkout with the success card; returns the session id. */
  const subscribe = async (f: TeamFixture, code: string): Promise<string> => {
    const res = await f.call(f.admin, 'POST', '/api/subscriptions/', { plan_id: plan(code).id });
    expect(res.statusCode).toBe(201);
    const { checkout_url, session_id } = res.json() as SubscribeResponse;
    const paid = await pay(checkout_url, TEST_CARDS.success);
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(`http://console.test/account?checkout=success&session_id=${session_id}`);
    await fake.settled();
    return session_id!;
  };

  const subscriptionIdAtStripe = (session: string) => fake.session(session).subscription!;

  it('lists the plans: Free first, each paid tier monthly and yearly, the current one marked', async () => {
    const f = await company();
    const res = await f.call(f.admin, 'GET', '/api/plans/');
    expect(res.statusCode).toBe(200);
    const body = res.json() as PlansResponse;
    plans = body.results;
    expect(body.count).toBe(7);
    expect(plans.map((p) => p.code)).toEqual(['free', 'starter_month', 'starter_year', 'growth_month', 'growth_year', 'business_month', 'business_year']);
    expect(plans.filter((p) => p.is_current).map((p) => p.code)).toEqual(['free']);
    expect(plan('business_month').limits.members).toBeNull();
  });

  it('checkout to active: redirect to the hosted page, pay, back to /account with the plan active, an invoice with a PDF, the picker shows the plan', async () => {
    const f = await company();
    const res = await f.call(f.admin, 'POST', '/api/subscriptions/', { plan_id: plan('starter_month').id });
    expect(res.statusCode).toBe(201);
    const { checkout_url, session_id } = res.json() as SubscribeResponse;
    expect(checkout_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/checkout\/cs_test_/);
    expect((await subscriptionOf(f)).checkout_pending).toBe(true);
    const page = await fetch(checkout_url);
    expect(await page.text()).toContain('Subscribe to Starter (monthly)');

    const paid = await pay(checkout_url, TEST_CARDS.success);
    expect(paid.status).toBe(303);
    await fake.settled();
    const sub = await subscriptionOf(f, `?checkout=success&session_id=${session_id}`);
    expect(sub).toMatchObject({ status: 'active', cancel_at_period_end: false, checkout_pending: false, payment_failed: false, plan: { code: 'starter_month', name: 'Starter' }, payment_method: { brand: 'visa', last4: '4242' } });
    const days = (Date.parse(sub.current_period_end!) - Date.parse(sub.current_period_start!)) / 86_400_000;
    expect(days).toBeGreaterThanOrEqual(28);
    expect(days).toBeLessThanOrEqual(31);

    const invoices = (await f.call(f.admin, 'GET', '/api/invoices/')).json() as InvoicesResponse;
    expect(invoices.count).toBe(1);
    expect(invoices.results[0]).toMatchObject({ status: 'paid', amount_due: 2900, amount_paid: 2900, currency: 'usd', plan_name: 'Starter' });
    const pdf = await fetch(invoices.results[0].invoice_pdf!);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString()).toBe('%PDF-');

    const me = (await f.call(f.admin, 'GET', '/account/user/')).json() as User;
    expect(me.companies.find((c) => c.id === f.company)?.subscription_plan_name).toBe('Starter');
    const listed = (await f.call(f.admin, 'GET', '/api/plans/')).json() as PlansResponse;
    expect(listed.results.filter((p) => p.is_current).map((p) => p.code)).toEqual(['starter_month']);
  });

  it('a declined card stays on the checkout page with its message; nothing is subscribed or billed', async () => {
    const f = await company();
    const res = await f.call(f.admin, 'POST', '/api/subscriptions/', { plan_id: plan('growth_month').id });
    const { checkout_url } = res.json() as SubscribeResponse;
    const declined = await pay(checkout_url, TEST_CARDS.declined);
    expect(declined.status).toBe(402);
    expect(await declined.text()).toContain('Your card was declined.');
    await fake.settled();
    const sub = await subscriptionOf(f);
    expect(sub).toMatchObject({ status: 'free', plan: { code: 'free' }, checkout_pending: true });
    expect(((await f.call(f.admin, 'GET', '/api/invoices/')).json() as InvoicesResponse).count).toBe(0);
    const [row] = await t.db.select({ planName: companies.planName }).from(companies).where(eq(companies.id, f.company));
    expect(row.planName).toBeNull();
  });

  it('renewal: the next period is billed and paid; a failing card on renewal makes it past_due until the portal gets a working card', async () => {
    const f = await company();
    const session = await subscribe(f, 'growth_month');
    const before = await subscriptionOf(f);

    fake.renew(subscriptionIdAtStripe(session));
    await fake.settled();
    const renewed = await subscriptionOf(f);
    expect(renewed.status).toBe('active');
    expect(Date.parse(renewed.current_period_start!)).toBeGreaterThan(Date.parse(before.current_period_start!));
    let invoices = (await f.call(f.admin, 'GET', '/api/invoices/')).json() as InvoicesResponse;
    expect(invoices.results.map((i) => i.status)).toEqual(['paid', 'paid']);

    // The portal: a card that attaches but declines charges.
    const portal = await f.call(f.admin, 'POST', '/api/subscriptions/portal/');
    expect(portal.statusCode).toBe(200);
    const { url } = portal.json() as { url: string };
    const cardForm = (card: string) => ({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ card_number: card, card_expiry: '12/34', card_cvc: '123' }).toString() });
    expect((await fetch(url, cardForm(TEST_CARDS.chargeDeclined))).status).toBe(200);
    await fake.settled();

    fake.renew(subscriptionIdAtStripe(session));
    await fake.settled();
    const failing = await subscriptionOf(f);
    expect(failing).toMatchObject({ status: 'past_due', payment_failed: true, plan: { code: 'growth_month' }, payment_method: { last4: '0341' } });
    invoices = (await f.call(f.admin, 'GET', '/api/invoices/')).json() as InvoicesResponse;
    expect(invoices.results.map((i) => i.status)).toEqual(['open', 'paid', 'paid']);

    expect((await fetch(url, cardForm(TEST_CARDS.success))).status).toBe(200);
    await fake.settled();
    expect(await subscriptionOf(f)).toMatchObject({ status: 'active', payment_failed: false, payment_method: { last4: '4242' } });
    invoices = (await f.call(f.admin, 'GET', '/api/invoices/?page=1&page_size=2')).json() as InvoicesResponse;
    expect(invoices).toMatchObject({ count: 3, next: '/api/invoices/?page=2&page_size=2', previous: null });
    expect(invoices.results.map((i) => i.status)).toEqual(['paid', 'paid']);
  });

  it('cancel at period end: still active until the period ends, resumable, then back on Free', async () => {
    const f = await company();
    const session = await subscribe(f, 'starter_year');
    const cancel = await f.call(f.admin, 'DELETE', '/api/subscriptions/active/');
    expect(cancel.statusCode).toBe(200);
    expect(cancel.json()).toMatchObject({ status: 'active', cancel_at_period_end: true, plan: { code: 'starter_year' } });
    expect(SUBSCRIPTION_CANCELLED_MESSAGE).toBe('Subscription cancelled successfully');
    expect((await f.call(f.admin, 'DELETE', '/api/subscriptions/active/')).statusCode).toBe(400);

    const resumed = await f.call(f.admin, 'POST', '/api/subscriptions/active/resume/');
    expect(resumed.json()).toMatchObject({ status: 'active', cancel_at_period_end: false });
    expect((await f.call(f.admin, 'DELETE', '/api/subscriptions/active/')).statusCode).toBe(200);
    await fake.settled();

    fake.renew(subscriptionIdAtStripe(session));
    await fake.settled();
    const ended = await subscriptionOf(f);
    expect(ended).toMatchObject({ id: null, status: 'free', plan: { code: 'free' } });
    const [row] = await t.db.select({ planName: companies.planName }).from(companies).where(eq(companies.id, f.company));
    expect(row.planName).toBeNull();
    // Only the first year was billed.
    expect(((await f.call(f.admin, 'GET', '/api/invoices/')).json() as InvoicesResponse).count).toBe(1);
    expect((await f.call(f.admin, 'DELETE', '/api/subscriptions/active/')).statusCode).toBe(400);
  });

  it('changes plan in place while subscribed; Free needs a cancellation; bad input is a 400', async () => {
    const f = await company();
    await subscribe(f, 'starter_month');
    const change = await f.call(f.admin, 'POST', '/api/subscriptions/', { plan_id: plan('growth_month').id });
    expect(change.statusCode).toBe(201);
    expect(change.json()).toEqual({ checkout_url: 'http://console.test/account?plan_changed=1', session_id: null });
    expect((await subscriptionOf(f)).plan.code).toBe('growth_month');
    expect((await f.call(f.admin, 'POST', '/api/subscriptions/', { plan_id: plan('growth_month').id })).json()).toEqual({ plan_id: ['You are already on this plan.'] });
    expect((await f.call(f.admin, 'POST', '/api/subscriptions/', { plan_id: plan('free').id })).statusCode).toBe(400);
    expect((await f.call(f.admin, 'POST', '/api/subscriptions/', { plan_id: 999_999 })).json()).toEqual({ plan_id: ['Invalid plan.'] });
    expect((await f.call(f.admin, 'POST', '/api/subscriptions/', { plan_id: 'abc' })).statusCode).toBe(400);
    expect((await f.call(f.admin, 'POST', '/api/subscriptions/', {})).statusCode).toBe(400);
  });

  it('previews a plan change with Stripe\'s proration, then bills exactly the previewed amount at once', async () => {
    const f = await company();
    const session = await subscribe(f, 'starter_month');
    const subId = subscriptionIdAtStripe(session);
    // Ten days into the period (moved at the fake: advancing the app's clock that far would expire the session).
    const item = fake.subscription(subId).items.data[0];
    item.current_period_start -= 10 * 86_400;
    item.current_period_end -= 10 * 86_400;
    const { current_period_start: start, current_period_end: end } = item;

    const res = await f.call(f.admin, 'POST', '/api/subscriptions/preview/', { plan_id: plan('growth_month').id });
    expect(res.statusCode).toBe(200);
    const preview = res.json() as PlanChangePreview;
    const at = nowSeconds();
    const share = (end - at) / (end - start);
    const credit = -Math.round(plan('starter_month').amount * share);
    const charge = Math.round(plan('growth_month').amount * share);
    expect(preview).toMatchObject({ plan_id: plan('growth_month').id, currency: 'usd', proration_date: at, total: credit + charge, amount_due: credit + charge, next_amount: plan('growth_month').amount });
    expect(preview.lines.map((l) => l.amount)).toEqual([credit, charge]);
    expect(preview.lines[0].description).toMatch(/^Unused time on .+ after /);
    expect(preview.lines[1].description).toMatch(/^Remaining time on .+ after /);
    // Nothing changed yet.
    expect((await subscriptionOf(f)).plan.code).toBe('starter_month');

    // Confirmed a minute later: billed as previewed (the preview's proration date), invoiced and paid now.
    t.clock.advance(60_000);
    const change = await f.call(f.admin, 'POST', '/api/subscriptions/', { plan_id: plan('growth_month').id, proration_date: preview.proration_date });
    expect(change.statusCode).toBe(201);
    await fake.settled();
    expect((await subscriptionOf(f)).plan.code).toBe('growth_month');
    const invoices = (await f.call(f.admin, 'GET', '/api/invoices/')).json() as InvoicesResponse;
    expect(invoices.results.map((i) => [i.status, i.amount_due])).toEqual([
      ['paid', preview.amount_due],
      ['paid', plan('starter_month').amount],
    ]);

    // Down again: the credit exceeds the charge, nothing is due now.
    const down = (await f.call(f.admin, 'POST', '/api/subscriptions/preview/', { plan_id: plan('starter_month').id })).json() as PlanChangePreview;
    expect(down.total).toBeLessThan(0);
    expect(down.amount_due).toBe(0);
    // A preview from days ago is stale: confirmed again at today's amount.
    const stale = await f.call(f.admin, 'POST', '/api/subscriptions/', { plan_id: plan('starter_month').id, proration_date: nowSeconds() - 3 * 86_400 });
    expect(stale.statusCode).toBe(400);
    expect(stale.json()).toEqual({ proration_date: ['This price has expired: review the plan change again.'] });
    expect((await subscriptionOf(f)).plan.code).toBe('growth_month');
  });

  it('refuses a preview without a running subscription, of the current plan, of Free, and to non-managers', async () => {
    const f = await company();
    const none = await f.call(f.admin, 'POST', '/api/subscriptions/preview/', { plan_id: plan('growth_month').id });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toEqual({ plan_id: ['There is no active subscription to change: subscribe to a plan first.'] });
    await subscribe(f, 'starter_month');
    expect((await f.call(f.admin, 'POST', '/api/subscriptions/preview/', { plan_id: plan('starter_month').id })).json()).toEqual({ plan_id: ['You are already on this plan.'] });
    expect((await f.call(f.admin, 'POST', '/api/subscriptions/preview/', { plan_id: plan('free').id })).statusCode).toBe(400);
    expect((await f.call(f.admin, 'POST', '/api/subscriptions/preview/', { plan_id: 'x' })).statusCode).toBe(400);
    expect((await f.call(f.manager, 'POST', '/api/subscriptions/preview/', { plan_id: plan('growth_month').id })).statusCode).toBe(403);
  });

  it('only billing managers change billing; agents do not read it', async () => {
    const f = await company();
    expect((await f.call(f.agent, 'GET', '/api/plans/')).statusCode).toBe(403);
    expect((await f.call(f.agent, 'GET', '/api/subscriptions/active/')).statusCode).toBe(403);
    expect((await f.call(f.manager, 'GET', '/api/invoices/')).statusCode).toBe(200);
    expect((await f.call(f.manager, 'POST', '/api/subscriptions/', { plan_id: plan('starter_month').id })).statusCode).toBe(403);
    expect((await f.call(f.manager, 'DELETE', '/api/subscriptions/active/')).statusCode).toBe(403);
  });

  describe('webhooks', () => {
    const post = (payload: string, signature?: string) =>
      t.app.inject({ method: 'POST', url: '/api/webhooks/stripe/', headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) }, payload });
    const storedEvents = async () => Number((await t.db.select({ n: count() }).from(billingWebhookEvents))[0].n);

    it('forged, unsigned, stale and replayed events change nothing; a replay with a fresh signature is acknowledged once', async () => {
      const f = await company();
      const session = await subscribe(f, 'starter_month');
      const subId = subscriptionIdAtStripe(session);
      const events = await storedEvents();
      const invoicesBefore = await t.db.select().from(billingInvoices).where(eq(billingInvoices.companyId, f.company));

      // A forged "deleted" event: signed with another secret, or not signed.
      const forged: FakeStripeEvent = { ...fake.events.find((e) => e.type === 'customer.subscription.created' && (e.data.object as { id: string }).id === subId)! };
      forged.id = 'evt_forged_1';
      forged.type = 'customer.subscription.deleted';
      const forgedBody = JSON.stringify(forged);
      expect((await post(forgedBody, stripeSignature(forgedBody, 'whsec_not_ours', nowSeconds()))).statusCode).toBe(400);
      expect((await post(forgedBody)).statusCode).toBe(400);
      expect((await post(forgedBody, `t=${nowSeconds()},v1=${'0'.repeat(64)}`)).statusCode).toBe(400);
      // A delivered body altered after signing.
      const paidEvent = fake.events.find((e) => e.type === 'invoice.paid' && (e.data.object as { customer: string }).customer === fake.session(session).customer)!;
      const body = JSON.stringify(paidEvent, null, 2);
      const signature = stripeSignature(body, WEBHOOK_SECRET, nowSeconds());
      expect((await post(body.replace('"paid"', '"void"'), signature)).statusCode).toBe(400);

      // The same delivery again: acknowledged, not applied twice.
      const again = await post(body, signature);
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual({ received: true, duplicate: true });

      // A captured delivery replayed after the 300-second tolerance.
      t.clock.advance(301_000);
      expect((await post(body, signature)).statusCode).toBe(400);
      // Signed too far in the future.
      expect((await post(body, stripeSignature(body, WEBHOOK_SECRET, nowSeconds() + 301))).statusCode).toBe(400);

      expect(await storedEvents()).toBe(events);
      expect(await t.db.select().from(billingInvoices).where(eq(billingInvoices.companyId, f.company))).toEqual(invoicesBefore);
      expect(await subscriptionOf(f)).toMatchObject({ status: 'active', plan: { code: 'starter_month' } });
      await f.signInAgain();
    });

    it('events in any order: an old subscription event arriving late does not undo a newer state', async () => {
      const f = await company();
      const session = await subscribe(f, 'starter_month');
      const subId = subscriptionIdAtStripe(session);
      const created = fake.events.find((e) => e.type === 'customer.subscription.created' && (e.data.object as { id: string }).id === subId)!;
      expect((await f.call(f.admin, 'DELETE', '/api/subscriptions/active/')).statusCode).toBe(200);
      fake.renew(subId);
      await fake.settled();
      expect((await subscriptionOf(f)).status).toBe('free');
      // The "created" event (status active) delivered again under a new id, late: the subscription is re-read, still canceled.
      const late = { ...created, id: 'evt_late_created' };
      const body = JSON.stringify(late);
      expect((await post(body, stripeSignature(body, WEBHOOK_SECRET, nowSeconds()))).statusCode).toBe(200);
      expect((await subscriptionOf(f)).status).toBe('free');
    });
  });

  it('plan limits: going over the Free plan is refused with the limit and the plan that lifts it', async () => {
    const f = await company();
    const { billing } = billingServices(t.app);
    // Three members (admin, manager, agent) of the Free plan's 25.
    await expect(billing.assertWithinPlan(f.company, 'members', 22)).resolves.toBeUndefined();
    const err = await billing.assertWithinPlan(f.company, 'members', 23).catch((e: unknown) => e);
    expect(err).toMatchObject({
      statusCode: 403,
      body: {
        code: PLAN_LIMIT_ERROR_CODE,
        limit: 'members',
        max: 25,
        plan: 'Free',
        upgrade_plan: 'Starter',
        detail: 'The Free plan allows 25 team members. Upgrade to Starter to add more.',
      },
    });
    const broadcast = await billing.assertWithinPlan(f.company, 'broadcast_recipients_per_month', 30_000).catch((e: unknown) => e);
    expect(broadcast).toMatchObject({ body: { limit: 'broadcast_recipients_per_month', upgrade_plan: 'Growth', detail: 'The Free plan allows 2,500 broadcast recipients per month. Upgrade to Growth to add more.' } });
    await subscribe(f, 'business_month');
    await expect(billing.assertWithinPlan(f.company, 'members', 5_000)).resolves.toBeUndefined();
  });

  it("counts the plan's usage of members (open invites included) and channels (not the sandbox's, not disconnected ones)", async () => {
    const f = await company();
    const before = (await subscriptionOf(f)).usage;
    const day = 86_400_000;
    const invite = (email: string, extra: Partial<typeof invites.$inferInsert>) =>
      ({ companyId: f.company, email, tokenHash: `usage-${f.company}-${email}`, expiresAt: new Date(Date.now() + day), ...extra }) as typeof invites.$inferInsert;
    await t.db.insert(invites).values([
      invite('open@usage.test', {}),
      invite('expired@usage.test', { expiresAt: new Date(Date.now() - day) }),
      invite('accepted@usage.test', { acceptedAt: new Date() }),
      invite('revoked@usage.test', { revokedAt: new Date() }),
      invite('declined@usage.test', { declinedAt: new Date() }),
    ]);
    await t.db.insert(channels).values([
      { companyId: f.company, platform: 'whatsapp', name: 'Counted', externalId: `usage-wa-${f.company}`, status: 'active' },
      { companyId: f.company, platform: 'messenger', name: 'Pending', externalId: `usage-fb-${f.company}`, status: 'pending' },
      { companyId: f.company, platform: 'whatsapp', name: 'Gone', externalId: `usage-gone-${f.company}`, status: 'disconnected' },
      { companyId: f.company, platform: 'sandbox', name: 'Sandbox', externalId: `usage-sandbox-${f.company}`, status: 'active' },
    ]);
    const after = (await subscriptionOf(f)).usage;
    expect(after.members).toBe(before.members + 1);
    expect(after.channels).toBe(before.channels + 2);
  });

  it('plan limits on the routes: inviting past the Free plan is a 403 naming the limit; nothing is invited', async () => {
    const f = await company();
    const invite = (emails: string[]) => f.call(f.admin, 'POST', '/api/invites/bulk/', { invites: emails.map((email) => ({ email, role_id: 'agent' })) });
    // Three members and 22 open invites: the Free plan's 25.
    expect((await invite(Array.from({ length: 22 }, (_, i) => `p${i}@limits.test`))).statusCode).toBe(201);
    const refused = await invite(['three@limits.test']);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      detail: 'The Free plan allows 25 team members. Upgrade to Starter to add more.',
      code: PLAN_LIMIT_ERROR_CODE,
      limit: 'members',
      max: 25,
      plan: 'Free',
      upgrade_plan: 'Starter',
    });
    expect((await subscriptionOf(f)).usage.members).toBe(25);
    await subscribe(f, 'starter_month');
    expect((await invite(['three@limits.test'])).statusCode).toBe(201);
  });
});
