/**
 * This plugin's part of the generated tenant-isolation test (server/testing/isolation/areas.ts).
 * Each company gets a subscription row (a checkout waiting, session id carrying the company) and
 * an invoice (number carrying B's marker). Billing routes act on the `Company` header's company
 * only: A calling with B's checkout session id gets A's own subscription; nothing of B's changes.
 */
import { asc, eq } from 'drizzle-orm';
import type { IsolationArea } from '../../testing/isolation/areas';
import { ensurePlans } from './plans';
import { billingInvoices, billingPlans, billingSubscriptions } from './schema';

export const billingIsolation: IsolationArea = {
  name: 'billing',
  async seed(t, company, mark) {
    await ensurePlans(t.db);
    const [plan] = await t.db.select().from(billingPlans).where(eq(billingPlans.code, 'starter_month'));
    const sessionId = `cs_test_isolation_${company.id}`;
    await t.db.insert(billingSubscriptions).values({ companyId: company.id, status: 'free', pendingCheckoutSessionId: sessionId, pendingPlanId: plan.id });
    const [invoice] = await t.db
      .insert(billingInvoices)
      .values({
        companyId: company.id,
        stripeInvoiceId: `in_isolation_${company.id}`,
        number: `INV${mark}`,
        status: 'paid',
        amountDue: plan.amount,
        amountPaid: plan.amount,
        planId: plan.id,
        hostedInvoiceUrl: `https://invoice.example/${company.id}`,
        invoicePdf: `https://invoice.example/${company.id}.pdf`,
      })
      .returning();
    return { sessionId, invoiceId: invoice.id, planId: plan.id };
  },

  async snapshot(t, companyId) {
    return {
      subscription: await t.db.select().from(billingSubscriptions).where(eq(billingSubscriptions.companyId, companyId)),
      invoices: await t.db.select().from(billingInvoices).where(eq(billingInvoices.companyId, companyId)).orderBy(asc(billingInvoices.id)),
    };
  },

  routes: {
    'GET /api/plans/': { allowed: [200] },
    // B's checkout session id in A's query string: A's own subscription answers (B's session is not looked at).
    'GET /api/subscriptions/active/': { query: (w) => ({ checkout: 'success', session_id: String(w.B.areas.billing.sessionId) }), allowed: [200] },
    // A subscribes A (a checkout at the fake Stripe): the company is the header's, never a body field.
    'POST /api/subscriptions/': { body: (w) => ({ plan_id: w.B.areas.billing.planId }), allowed: [201, 400] },
    // A previews a change of A's own subscription (A pays nothing: refused as A's own state).
    'POST /api/subscriptions/preview/': { body: (w) => ({ plan_id: w.B.areas.billing.planId }), allowed: [400] },
    // A has no running subscription: refused as A's own state.
    'DELETE /api/subscriptions/active/': { allowed: [400] },
    'POST /api/subscriptions/active/resume/': { allowed: [400] },
    'POST /api/subscriptions/portal/': { allowed: [200, 400] },
    'GET /api/invoices/': { query: () => ({ page: '1', page_size: '10' }), allowed: [200] },
  },
};
