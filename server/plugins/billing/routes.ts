/**
 * Billing routes (contract/billing.ts lists them): plans, the active subscription, checkout,
 * cancel / resume, the customer portal, invoices — reading needs billing view access, changing
 * needs billing manage access (admins by default; spec §6: /pricing is checked as billing) — and
 * the provider's webhook, checked by its `Stripe-Signature` only.
 */
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { ActiveSubscriptionQuery, InvoiceListQuery, PlanChangePreviewBody, SubscribeBody } from '../../../contract/billing';
import { access } from '../../core/access';
import { currentUser } from '../../core/auth/requireUser';
import { PaymentsWebhookError } from '../../providers/stripe/types';
import { STRIPE_WEBHOOK_PATH } from '../../providers/stripe/mount';
import type { BillingService } from './service';
import { paymentsError } from './service';

export function billingRoutes(app: FastifyInstance, billing: BillingService): void {
  const view = { access: access.company('billing', 'view') };
  const manage = { access: access.company('billing', 'manage') };

  app.get('/api/plans/', { config: view }, async (request) => billing.listPlans(request.company!.id));

  app.get<{ Querystring: z.infer<typeof ActiveSubscriptionQuery> }>('/api/subscriptions/active/', { schema: { querystring: ActiveSubscriptionQuery }, config: view }, async (request) =>
    billing.subscription(request.company!.id, { session_id: request.query.session_id }),
  );

  app.post<{ Body: z.infer<typeof SubscribeBody> }>('/api/subscriptions/', { schema: { body: SubscribeBody }, config: manage }, async (request, reply) =>
    reply.code(201).send(await billing.subscribe(request.company!.id, request.body.plan_id, currentUser(request).id, request.body.proration_date)),
  );

  // What a plan change costs now (the provider's proration preview), shown before the change is confirmed.
  app.post<{ Body: z.infer<typeof PlanChangePreviewBody> }>('/api/subscriptions/preview/', { schema: { body: PlanChangePreviewBody }, config: manage }, async (request) =>
    billing.previewChange(request.company!.id, request.body.plan_id),
  );

  app.delete('/api/subscriptions/active/', { config: manage }, async (request) => billing.cancel(request.company!.id));

  app.post('/api/subscriptions/active/resume/', { config: manage }, async (request) => billing.resume(request.company!.id));

  app.post('/api/subscriptions/portal/', { config: manage }, async (request) => billing.portal(request.company!.id));

  app.get<{ Querystring: z.infer<typeof InvoiceListQuery> }>('/api/invoices/', { schema: { querystring: InvoiceListQuery }, config: view }, async (request) =>
    billing.invoices(request.company!.id, request.query.page, request.query.page_size),
  );
}

/** The webhook in its own encapsulated plugin: the raw body is kept (the signature is over its bytes). */
export function billingWebhookRoutes(billing: BillingService, payments: () => import('../../providers/stripe/types').PaymentsProvider, nowSeconds: () => number) {
  return async function stripeWebhooks(app: FastifyInstance): Promise<void> {
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 512 * 1024 }, (_request, body, done) => done(null, body));

    app.post(STRIPE_WEBHOOK_PATH, { config: { access: access.signedWebhook('Stripe deliveries: Stripe-Signature (t=, v1= HMAC-SHA256 over "t.payload", 300-second tolerance)') } }, async (request, reply) => {
      const raw = request.body;
      const header = request.headers['stripe-signature'];
      let event;
      try {
        if (!Buffer.isBuffer(raw)) throw new PaymentsWebhookError('No body.');
        event = payments().verifyWebhook(raw, Array.isArray(header) ? header[0] : header, nowSeconds());
      } catch (err) {
        if (err instanceof PaymentsWebhookError) return reply.code(400).send({ detail: 'Invalid signature.', code: 'invalid_signature' });
        throw paymentsError(err);
      }
      try {
        const applied = await billing.handleEvent(event);
        return reply.code(200).send({ received: true, ...(applied ? {} : { duplicate: true }) });
      } catch (err) {
        request.log.warn({ err, event: event.id, type: event.type }, 'stripe webhook not applied');
        // Not stored: the provider retries later.
        throw paymentsError(err);
      }
    });
  };
}
