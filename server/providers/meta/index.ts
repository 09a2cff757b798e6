/** The Meta and Google adapters as the app builds them, and what other modules import from here. */
import type { GoogleConfig, MetaConfig } from '../../core/config';
import { HttpGoogleIdentity } from '../google/google';
import { HttpMetaGraph } from './graphClient';
import { unconfiguredGoogleIdentity, unconfiguredMetaGraph } from './notConfigured';
import type { GoogleIdentity, MetaGraph } from './types';

/** The real HTTP adapter (in 'local' mode its graphUrl points at the fake mounted at /dev/meta); 'off' refuses every call. */
export function createMetaGraph(config: MetaConfig): MetaGraph {
  return config.mode === 'off' ? unconfiguredMetaGraph : new HttpMetaGraph(config);
}

export function createGoogleIdentity(config: GoogleConfig): GoogleIdentity {
  return config.mode === 'off' ? unconfiguredGoogleIdentity : new HttpGoogleIdentity(config);
}

export * from './types';
export { HttpMetaGraph, appSecretProof, type HttpMetaGraphDeps } from './graphClient';
export { HttpGoogleIdentity, GoogleUnavailableError, type HttpGoogleIdentityDeps } from '../google/google';
export { OutboundContentError, whatsAppMessagePayload, messengerMessagePayload, WHATSAPP_LIMITS, MESSENGER_LIMITS } from './outboundPayloads';
export { verifyMetaSignature, signMetaPayload, parseMetaWebhook } from './webhooks';
export { providerNotConfigured, requireMeta, MetaNotConfiguredError, NOT_CONFIGURED_MESSAGES } from './notConfigured';
export { clientConfigRoute, clientConfigOf, FACEBOOK_PAGE_SCOPES, FACEBOOK_LOGIN_SCOPES } from './clientConfigRoute';
