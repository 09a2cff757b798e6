/**
 * Everything below /dev: the local fake Meta, Google and chat-completions model, the e-mail outbox pages. Each lets its
 * visitor sign in as anyone (fake provider tokens, password reset links), so it is mounted only
 * when the operator's configuration asks for it (config.demo, DEV_OUTBOX), never by omission.
 * The one place that mounts them: demoRoutes.test.ts checks a production-like app answers 404 on
 * every path registered here.
 */
import type { FastifyInstance } from 'fastify';
import type { AppConfig } from './config';
import { outboxRoutes } from '../providers/email/outboxRoutes';
import type { OutboxEmailSender } from '../providers/email/outboxSender';
import { registerLocalProviderFakes } from '../providers/meta/fake/mountFakes';
import { stripeConfigOf } from '../providers/stripe/config';
import { registerFakeStripe } from '../providers/stripe/mount';
import { registerFakeLlm } from '../providers/llm/fake/mount';

/** Whether the outbox pages are served: no SMTP server, and DEV_OUTBOX (default: demo mode). */
export function servesOutbox(config: Pick<AppConfig, 'smtpUrl' | 'devOutbox'>): boolean {
  return !config.smtpUrl && config.devOutbox;
}

export async function registerDemoRoutes(app: FastifyInstance, config: AppConfig, outbox: OutboxEmailSender | null): Promise<void> {
  // The fake Meta (/dev/meta) and Google (/dev/google) the adapters call in 'local' mode (demo mode only).
  await registerLocalProviderFakes(app, config);
  // The fake Stripe (/dev/stripe) billing's SDK calls without STRIPE_SECRET_KEY (demo mode only).
  await registerFakeStripe(app, config, stripeConfigOf(config));
  // The fake chat-completions model (/dev/llm) the assistant's openai-compatible adapter can call (demo mode only).
  await registerFakeLlm(app, config);
  if (outbox && servesOutbox(config)) await app.register(outboxRoutes, { outbox });
}
