/**
 * Channels plugin: WhatsApp (embedded signup), Messenger and Instagram channels of a company, their
 * outbound providers on the chat service, and Meta's webhooks (inbound messages and statuses).
 * At start: pending outgoing messages are handed to their providers again, in-progress signups
 * resume and unprocessed webhook events are processed; a sweep repeats the last two.
 */
import type { FastifyInstance } from 'fastify';
import { SecretBox } from '../../core/crypto/secretBox';
import type { Services } from '../../core/services';
import { chatService } from '../chats/runtime';
import type { ChatService } from '../chats/service';
import { MetaChannelProvider } from './providers';
import { channelRoutes } from './routes';
import { ChannelService, type ChannelDeps } from './service';
import { SignupService } from './signup';
import { WebhookProcessor, webhookRoutes } from './webhooks';
import type { ChannelRow } from '../chats';
import { coreServices, createExtensionPoint, createServiceRef, defineServerPlugin, offerExtensionPoint } from '../../core/plugins';
import { channelProvidersExtensionPoint } from '../chats';
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

const runtimes = new WeakMap<Services, ChannelsRuntime>();

/** The app's channel services (one set per app; tests reach them to tune timings or wait for background work). */
export function channelsRuntime(app: FastifyInstance): ChannelsRuntime {
  const existing = runtimes.get(app.services);
  if (existing) return existing;
  const services = app.services;
  const config = services.get('Config');
  const deps: ChannelDeps = {
    db: services.get('Database'),
    clock: services.get('Clock'),
    box: new SecretBox(config.channelSecretKey),
    graph: () => services.get('MetaGraph'),
    log: app.log,
  };
  const chats = chatService(app);
  const channels = new ChannelService(deps);
  const signup = new SignupService(deps, channels);
  const webhooks = new WebhookProcessor({ ...deps, chats, channels, storage: () => services.get('MediaStorage') });
  const provider = new MetaChannelProvider({ ...deps, publicUrl: config.publicUrl }, channels);
  const runtime: ChannelsRuntime = {
    channels,
    signup,
    webhooks,
    provider,
    chats,
    box: deps.box,
    async settled() {
      for (let i = 0; i < 5; i++) {
        await Promise.all([signup.settled(), webhooks.settled(), chats.settled()]);
      }
    },
  };
  runtimes.set(services, runtime);
  return runtime;
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
    rootHttp: coreServices.rootHttp,
    config: coreServices.config,
    lifecycle: coreServices.lifecycle,
    logger: coreServices.logger,
    providers: channelProvidersExtensionPoint,
    webhookEvents: webhookEventsExtensionPoint,
  },
  provides: { channels: channelServiceRef },
  extensionPoints: [offerExtensionPoint(webhookEventsExtensionPoint, () => new WebhookEventRegistry())],
  async init({ http, rootHttp, config, lifecycle, logger, providers, webhookEvents }) {
    const rt = channelsRuntime(rootHttp);
    for (const platform of ['whatsapp', 'messenger', 'instagram'] as const) providers.register(platform, rt.provider);
    channelRoutes(http, rt.channels, rt.signup);
    await http.register(webhookRoutes(rt.webhooks, config));

    const events = webhookEvents as WebhookEventRegistry;
    rt.webhooks.templateEvents = (event) => events.templateEvent(event);
    rt.webhooks.broadcastEvents = {
      status: (channel, event) => events.messageStatus(channel, event),
      inbound: (channel, event) => events.inboundMessage(channel, event),
      preference: (channel, event) => events.userPreference(channel, event),
    };
    rt.webhooks.onSweep = () => rt.signup.resumeAll();
    lifecycle.addStartHook(async () => {
      try {
        await rt.chats.resumePending();
        await rt.signup.resumeAll();
      } catch (err) {
        logger.error({ err }, 'channels: resuming deliveries and signups');
      }
      rt.webhooks.start();
    });
    lifecycle.addShutdownHook(async () => {
      rt.webhooks.stop();
      rt.chats.close();
      await rt.webhooks.settled();
      await rt.signup.close();
    });
    return { channels: rt.channels };
  },
});
