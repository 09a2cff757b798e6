/**
 * GET /api/client-config/ (no login): the app ids and SDK script URLs the console needs before
 * anyone signs in (Facebook and Google sign-in buttons), and the feature keys the operator turned on
 * (CONSOLE_FEATURES). Only public identifiers — never secrets.
 */
import type { FastifyInstance } from 'fastify';
import type { ClientConfig } from '../../../contract/channels';
import type { AppConfig } from '../../core/config';
import { access } from '../../core/access';

/** Connecting Messenger and Instagram: list the pages, message as them, subscribe their webhooks. */
export const FACEBOOK_PAGE_SCOPES = [
  'pages_show_list',
  'pages_messaging',
  'pages_manage_metadata',
  'pages_read_engagement',
  'instagram_basic',
  'instagram_manage_messages',
  'business_management',
];

export const FACEBOOK_LOGIN_SCOPES = ['email', 'public_profile'];

/** A provider that is off (neither configured nor faked) is null: the console then says it is not configured. */
export function clientConfigOf(config: Pick<AppConfig, 'meta' | 'google'> & Partial<Pick<AppConfig, 'consoleFeatures'>>): ClientConfig {
  // the operator's CONSOLE_FEATURES (e.g. branching_flows), only when set: the console adds them to its start-up keys
  const features = config.consoleFeatures?.length ? { features: config.consoleFeatures } : {};
  return {
    ...features,
    facebook: config.meta.mode !== 'off' && config.meta.appId
      ? {
          app_id: config.meta.appId,
          config_id: config.meta.configId,
          sdk_url: config.meta.sdkUrl,
          version: config.meta.graphVersion,
          page_scopes: FACEBOOK_PAGE_SCOPES,
          login_scopes: FACEBOOK_LOGIN_SCOPES,
        }
      : null,
    google: config.google.mode !== 'off' && config.google.clientId ? { client_id: config.google.clientId, script_url: config.google.scriptUrl } : null,
  };
}

export async function clientConfigRoute(app: FastifyInstance): Promise<void> {
  app.get('/api/client-config/', { config: { access: access.public('read before sign-in: public app ids and SDK URLs, never secrets') } }, async (_request, reply) => {
    // Short cache: the console asks once per load, and a changed app id should not linger.
    reply.header('cache-control', 'public, max-age=60');
    return clientConfigOf(app.services.get('Config'));
  });
}
