/**
 * A provider that is neither configured (META_APP_ID, GOOGLE_CLIENT_ID) nor faked (demo mode):
 * its routes answer 503 `provider_not_configured` with a sentence an operator can act on, and the
 * adapters refuse every call, so a background job (a resumed signup, a pending send) fails cleanly
 * instead of calling a fake that is not mounted.
 */
import type { onRequestHookHandler } from 'fastify';
import type { MetaConfig } from '../../core/config';
import { ApiError } from '../../core/errors';
import { GraphApiError, type GoogleIdentity, type MetaGraph } from './types';

export const NOT_CONFIGURED_MESSAGES = {
  meta: 'WhatsApp, Messenger and Instagram are not configured on this server (META_APP_ID is not set).',
  facebook: 'Facebook sign-in is not configured on this server.',
  google: 'Google sign-in is not configured on this server.',
} as const;

export type UnconfiguredProvider = keyof typeof NOT_CONFIGURED_MESSAGES;

export function providerNotConfigured(provider: UnconfiguredProvider): ApiError {
  return new ApiError(503, { detail: NOT_CONFIGURED_MESSAGES[provider], code: 'provider_not_configured' });
}

/**
 * A route hook refusing the request while Meta is off. Listed after the route's access rule, so
 * only members allowed to connect a channel learn how the server is configured.
 */
export function requireMeta(config: Pick<MetaConfig, 'mode'>): onRequestHookHandler {
  return async () => {
    if (config.mode === 'off') throw providerNotConfigured('meta');
  };
}

/** Non-retryable, so a pending message fails rather than waiting for a provider that will not come. */
export class MetaNotConfiguredError extends GraphApiError {
  constructor() {
    super(NOT_CONFIGURED_MESSAGES.meta, 503, null, null, false);
    this.name = 'MetaNotConfiguredError';
  }
}

const refuseMeta = async (): Promise<never> => {
  throw new MetaNotConfiguredError();
};

/** The MetaGraph of mode 'off': every call refused (listed one by one so a new method cannot be forgotten). */
export const unconfiguredMetaGraph: MetaGraph = {
  exchangeCode: refuseMeta,
  phoneNumber: refuseMeta,
  registerPhone: refuseMeta,
  subscribeWaba: refuseMeta,
  unsubscribeWaba: refuseMeta,
  messageTemplates: refuseMeta,
  createMessageTemplate: refuseMeta,
  editMessageTemplate: refuseMeta,
  deleteMessageTemplate: refuseMeta,
  uploadTemplateMedia: refuseMeta,
  sendWhatsApp: refuseMeta,
  sendMessenger: refuseMeta,
  downloadMedia: refuseMeta,
  userProfile: refuseMeta,
  managedPages: refuseMeta,
  subscribePage: refuseMeta,
  unsubscribePage: refuseMeta,
  debugToken: refuseMeta,
  profile: refuseMeta,
};

/** The GoogleIdentity of mode 'off'. */
export const unconfiguredGoogleIdentity: GoogleIdentity = {
  verifyAccessToken: async () => {
    throw providerNotConfigured('google');
  },
};
