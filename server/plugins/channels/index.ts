/**
 * Channels plugin: WhatsApp (embedded signup), Messenger and Instagram channels of a company, their
 * outbound providers on the chat service, and Meta's webhooks (inbound messages and statuses).
 * Needs the core's database, clock, config and Graph API, and the chats plugin's service and providers'
 * registry. Gives the channel service (channelServiceRef), its signup, webhook processor, provider and
 * secret box by ref, and the webhook events of other kinds to the handlers of webhookEventsExtensionPoint.
 * At start: pending outgoing messages are handed to their providers again, in-progress signups
 * resume and unprocessed webhook events are processed; a sweep repeats the last two.
 */
import type { FastifyInstance } from 'fastify';
import { SecretBox } from '../../core/crypto/secretBox';
import { MetaChannelProvider } from './providers';
import { channelRoutes } from './routes';
import { ChannelService, type ChannelDeps } from './service';
import { SignupService } from './signup';
import { WebhookProcessor, webhookRoutes } from './webhooks';
import { createLeases } from '../../core/jobs/leases';
import type { ChannelRow, ChatService } from '../chats';
import { coreServices, createExtensionPoint, createServiceRef, defineServerPlugin, offerExtensionPoint } from '../../core/plugins';
import { channelProvidersExtensionPoint, chatServiceRef } from '../chats';
import { WebhookEventRegistry } from './webhookEvents';
import type { InboundWebhookMessage, StatusWebhookEvent, TemplateWebhookEvent, UserPreferenceWebhookEvent } from '../../providers/meta/types';

// ---- What the channels plugin gives other plugins (issue #20: its contract; the only way in) ----

/** A company's channels: lookups, tokens (unsealed for the Graph API calls), pages and numbers. */
export const channelServiceRef = createServiceRef<ChannelService>({ id: 'channels.service' });

/** Handlers of Meta's webhook events by kind, beyond the inbox's own messages (which the plugin stores itself). */
export interface WebhookEventHandlers {
  /** Template review and quality events of a WABA (the templates plugin). */
  onTemplateEvent(handler: (event: TemplateWebhookEvent) => Promise<void>): void;
  /** Delivery statuses of outgoing messages (the broadcasts engine). */
  onMessageStatus(handler: (channel: ChannelRow, event: StatusWebhookEvent) => Promise<void>): void;
  /** A customer's new message, just before the inbox stores it (the broadcasts engine: replies, STOP). */
  onInboundMessage(handler: (channel: ChannelRow, event: InboundWebhookMessage) => Promise<void>): void;
  /** Marketing opt-outs and opt-ins (the broadcasts engine). */
  onUserPreference(handler: (channel: ChannelRow, event: UserPreferenceWebhookEvent) => Promise<void>): void;
}
export const webhookEventsExtensionPoint = createExtensionPoint<WebhookEventHandlers>({ id: 'channels.webhookEvents' });

export type { ChannelService } from './service';
export type { SignupService } from './signup';
export type { WebhookProcessor } from './webhooks';
export type { MetaChannelProvider } from './providers';
/** Errors of the Graph API answered to the client without the secrets they may carry (the templates plugin's too). */
export { graphFailure } from './service';

/** The WhatsApp embedded signups in progress (tests tune its grace period). */
export const signupServiceRef = createServiceRef<SignupService>({ id: 'channels.signup' });
/** Meta's stored webhook deliveries, processed in the background. */
export const webhookProcessorRef = createServiceRef<WebhookProcessor>({ id: 'channels.webhookProcessor' });
/** The outbound provider of WhatsApp, Messenger and Instagram. */
export const metaChannelProviderRef = createServiceRef<MetaChannelProvider>({ id: 'channels.metaProvider' });
/** Seals and opens the channels' access tokens (demo data and tests store sealed tokens). */
export const channelSecretBoxRef = createServiceRef<SecretBox>({ id: 'channels.secretBox' });

export interface ChannelsRuntime {
  channels: ChannelService;
  signup: SignupService;
  webhooks: WebhookProcessor;
  provider: MetaChannelProvider;
  chats: ChatService;
  box: SecretBox;
  /** Waits for every background run of this app (signups, webhook processing, deliveries): tests. */
  settled(): Promise<void>;
}

/** The app's channel services, gathered from their refs (tests reach them to tune timings or wait for background work). */
export function channelsRuntime(app: FastifyInstance): ChannelsRuntime {
  const services = app.services;
  const signup = services.get(signupServiceRef);
  const webhooks = services.get(webhookProcessorRef);
  const chats = services.get(chatServiceRef);
  return {
    channels: services.get(channelServiceRef),
    signup,
    webhooks,
    provider: services.get(metaChannelProviderRef),
    chats,
    box: services.get(channelSecretBoxRef),
    async settled() {
      for (let i = 0; i < 5; i++) {
        await Promise.all([signup.settled(), webhooks.settled(), chats.settled()]);
      }
    },
  };
}

/**
 * Channels plugin: WhatsApp (embedded signup), Messenger and Instagram channels, their outbound provider
 * on the chat service, and Meta's webhooks, whose events of other kinds go to the handlers registered
 * on webhookEventsExtensionPoint.
 */
export const channelsPlugin = defineServerPlugin({
  id: 'channels',
  deps: {
    http: coreServices.http,
    config: coreServices.config,
    db: coreServices.database,
    clock: coreServices.clock,
    graph: coreServices.metaGraph,
    storage: coreServices.mediaStorage,
    lifecycle: coreServices.lifecycle,
    logger: coreServices.logger,
    planLimits: coreServices.planLimits,
    chats: chatServiceRef,
    providers: channelProvidersExtensionPoint,
    webhookEvents: webhookEventsExtensionPoint,
  },
  provides: {
    channels: channelServiceRef,
    signup: signupServiceRef,
    webhooks: webhookProcessorRef,
    provider: metaChannelProviderRef,
    box: channelSecretBoxRef,
  },
  extensionPoints: [offerExtensionPoint(webhookEventsExtensionPoint, () => new WebhookEventRegistry())],
  async init({ http, config, db, clock, graph, storage, lifecycle, logger, planLimits, chats, providers, webhookEvents }) {
    const deps: ChannelDeps = { db, clock, box: new SecretBox(config.channelSecretKey), graph: () => graph, log: logger, planLimits };
    const channels = new ChannelService(deps);
    const signup = new SignupService(deps, channels);
    // Shared by the processes through Redis when there is one (a cluster requires it), else in memory.
    const leases = createLeases(config, clock);
    const webhooks = new WebhookProcessor({ ...deps, chats, channels, storage: () => storage, events: webhookEvents as WebhookEventRegistry, leases });
    const provider = new MetaChannelProvider({ ...deps, publicUrl: config.publicUrl }, channels);
    for (const platform of ['whatsapp', 'messenger', 'instagram'] as const) providers.register(platform, provider);
    channelRoutes(http, channels, signup);
    await http.register(webhookRoutes(webhooks, config));

    webhooks.onSweep = () => signup.resumeAll();
    // Pending deliveries are resumed by the chats plugin (their leases, at start and periodically).
    lifecycle.addStartHook(async () => {
      try {
        await signup.resumeAll();
      } catch (err) {
        logger.error({ err }, 'channels: resuming signups');
      }
      webhooks.start();
    });
    lifecycle.addShutdownHook(async () => {
      webhooks.stop();
      await chats.close();
      await webhooks.settled();
      await leases.close();
      await signup.close();
    });
    return { channels, signup, webhooks, provider, box: deps.box };
  },
});

/** What an outgoing message sends to Meta (the chats tests check attachments against it). */
export { outboundContent } from './providers';
