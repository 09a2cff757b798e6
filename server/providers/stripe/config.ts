/**
 * Stripe settings from the environment. STRIPE_SECRET_KEY set: 'live' (api.stripe.com, or
 * STRIPE_API_URL); else in demo mode 'local': the fake Stripe at /dev/stripe on this server's own
 * port, with keys derived from the JWT secret; else 'off' (billing answers 503, plans still list).
 */
import { createHmac } from 'node:crypto';
import type { AppConfig } from '../../core/config';
import type { PaymentsMode } from './types';

export interface StripeConfig {
  mode: PaymentsMode;
  secretKey: string;
  /** Signs (the fake) and checks (the webhook route) `Stripe-Signature`. */
  webhookSecret: string;
  /** Where the SDK sends its requests; null = Stripe's default (https://api.stripe.com). */
  apiUrl: string | null;
  /** STRIPE_PRICE_<PLAN CODE> (e.g. STRIPE_PRICE_STARTER_MONTH=price_…): Stripe price ids per plan; a plan without one is sent inline (price_data). */
  priceIds: Record<string, string>;
}

type Env = Record<string, string | undefined>;

export const FAKE_STRIPE_PREFIX = '/dev/stripe';

export function stripeConfig(env: Env, port: number, secret: (purpose: string) => string, demo: boolean): StripeConfig {
  const live = Boolean(env.STRIPE_SECRET_KEY);
  const mode: PaymentsMode = live ? 'live' : demo ? 'local' : 'off';
  if (live && !env.STRIPE_WEBHOOK_SECRET) throw new Error('STRIPE_WEBHOOK_SECRET is required with STRIPE_SECRET_KEY');
  if (env.STRIPE_API_URL && !/^https?:\/\/[^/]+\/?$/.test(env.STRIPE_API_URL)) throw new Error('STRIPE_API_URL must be an origin such as https://api.stripe.com');
  const priceIds: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    const m = /^STRIPE_PRICE_([A-Z0-9_]+)$/.exec(key);
    if (m && value) priceIds[m[1].toLowerCase()] = value;
  }
  return {
    mode,
    secretKey: env.STRIPE_SECRET_KEY || (mode === 'local' ? `sk_test_local_${secret('stripe-secret-key').slice(0, 24)}` : ''),
    // Off: a secret nobody knows, so no webhook ever checks out.
    webhookSecret: env.STRIPE_WEBHOOK_SECRET || `whsec_${secret('stripe-webhook-secret')}`,
    apiUrl: env.STRIPE_API_URL ? env.STRIPE_API_URL.replace(/\/+$/, '') : mode === 'local' ? `http://127.0.0.1:${port}` : null,
    priceIds: mode === 'live' ? priceIds : {},
  };
}

/** This app's Stripe settings: STRIPE_* from the environment, the demo's keys derived from the JWT secret. */
export function stripeConfigOf(config: Pick<AppConfig, 'jwtSecret' | 'port' | 'demo'>, env: Env = process.env): StripeConfig {
  const secret = (purpose: string) => createHmac('sha256', config.jwtSecret).update(purpose).digest('hex');
  return stripeConfig(env, config.port, secret, config.demo.enabled);
}

/** The start-up banner's line about payments. */
export function stripeBannerLine(stripe: StripeConfig, base: string): string {
  if (stripe.mode === 'live') return '  Stripe: live (STRIPE_SECRET_KEY)';
  if (stripe.mode === 'local') return `  Fake Stripe (checkout with 4242 4242 4242 4242, declined 4000 0000 0000 0002): ${base}${FAKE_STRIPE_PREFIX}/ (set STRIPE_SECRET_KEY for the real one)`;
  return '  Stripe (billing): not configured (set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET)';
}
