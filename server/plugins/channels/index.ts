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

export default async function channelsPlugin(app: FastifyInstance): Promise<void> {
  const rt = channelsRuntime(app);
  for (const platform of ['whatsapp', 'messenger', 'instagram'] as const) rt.chats.registerProvider(platform, rt.provider);
  channelRoutes(app, rt.channels, rt.signup);
  await app.register(webhookRoutes(rt.webhooks, app.services.get('Config')));

  rt.webhooks.onSweep = () => rt.signup.resumeAll();
  app.addHook('onReady', async () => {
    try {
      await rt.chats.resumePending();
      await rt.signup.resumeAll();
    } catch (err) {
      app.log.error({ err }, 'channels: resuming deliveries and signups');
    }
    rt.webhooks.start();
  });
  app.addHook('onClose', async () => {
    rt.webhooks.stop();
    rt.chats.close();
    await rt.webhooks.settled();
    await rt.signup.close();
  });
}
