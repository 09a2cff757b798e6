/**
 * The offline demo's fake Stripe at /dev/stripe on the app's own port (demo mode and 'local' mode
 * only, like the fake Meta): the SDK's requests (/dev/stripe/v1/…), the hosted checkout and portal
 * pages, invoices and their PDFs. Its webhooks go to this server's /api/webhooks/stripe/, signed
 * with the configured webhook secret. Subscriptions whose period has ended renew once a minute.
 */
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../../core/config';
import { FAKE_STRIPE_PREFIX, type StripeConfig } from './config';
import { FakeStripe } from './fake/fakeStripe';
import { fakeStripePlugin } from './fake/routes';

export const STRIPE_WEBHOOK_PATH = '/api/webhooks/stripe/';

export async function registerFakeStripe(app: FastifyInstance, config: AppConfig, stripe: StripeConfig): Promise<FakeStripe | null> {
  if (!config.demo.enabled || stripe.mode !== 'local') return null;
  const listeningPort = () => {
    const address = app.server.listening ? (app.server.address() as AddressInfo | string | null) : null;
    return address && typeof address === 'object' ? address.port : null;
  };
  const fake = new FakeStripe({
    secretKey: stripe.secretKey,
    webhookSecret: stripe.webhookSecret,
    // Kept with the database (a test's in-memory database gets an in-memory fake).
    statePath: config.databaseUrl !== null || config.pgliteDir !== null ? path.join(config.dataDir, 'fake-stripe.json') : undefined,
    // The browser reaches the pages at the console's own origin.
    publicBase: () => `${config.publicUrl.replace(/\/+$/, '')}${FAKE_STRIPE_PREFIX}`,
    async send(payload, signature) {
      const headers = { 'content-type': 'application/json', 'stripe-signature': signature };
      const port = listeningPort();
      if (port !== null) {
        const res = await fetch(`http://127.0.0.1:${port}${STRIPE_WEBHOOK_PATH}`, { method: 'POST', headers, body: payload });
        await res.arrayBuffer();
        return res.status;
      }
      // A test app that never listens: the same request through inject.
      const res = await app.inject({ method: 'POST', url: STRIPE_WEBHOOK_PATH, headers, payload });
      return res.statusCode;
    },
  });
  await app.register(fakeStripePlugin, { prefix: FAKE_STRIPE_PREFIX, fake });
  const timer = setInterval(() => {
    try {
      if (fake.renewDue().length > 0) fake.save();
    } catch (err) {
      app.log.warn({ err }, 'fake Stripe renewal failed');
    }
  }, 60_000);
  timer.unref();
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await fake.settled();
  });
  return fake;
}
