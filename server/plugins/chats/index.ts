/**
 * Chats plugin: the live inbox. Needs the database, clock, media storage and realtime hub of the core.
 * Gives the chat service (chatServiceRef) other plugins send and receive through, its realtime topics
 * (page:*, room:*) and REST routes, and three extension points: the inbound-message pipeline (flows,
 * bots… answer customers there), the channel providers' registry (who delivers a platform's messages)
 * and the template-send checks (the templates plugin's).
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { messages } from '../../core/db/schema';
import { chatKeyOf } from '../../providers/storage/sweeper';
import { registerChatChannels } from './handlers';
import { ownMediaBases } from './mediaBases';
import { chatRoutes } from './routes';
import { roomStatusRoutes } from './statusRoutes';
import { noteRoutes } from './noteRoutes';
import { seedDemoConversations, seedDemoCsat } from './demo';
import type { Message, Platform, TemplateSendPayload } from '../../../contract/chats';
import { coreExtensionPoints, coreServices, createExtensionPoint, createServiceRef, defineServerPlugin, offerExtensionPoint } from '../../core/plugins';
import { InboundPipelineRunner } from './inboundPipeline';
import { InboundQueue } from './inboundQueue';
import { autoAssignmentRoutes } from './autoAssignmentRoutes';
import { csatRoutes } from './csatRoutes';
import { ChannelProviders } from './channelProviders';
import { ChatService, type Broadcaster, type ChannelProvider } from './service';
import { BroadcastSwitch } from './broadcastSwitch';
import { TemplateSendCheckRegistry } from './templateSendChecks';
import type { RoomRecord } from './views';

// ---- What the chats plugin gives other plugins (issue #20: its contract; the only way in) ----

/** The live inbox's service: rooms, messages, sending as an agent or a bot, receiving from a channel. */
export const chatServiceRef = createServiceRef<ChatService>({ id: 'chats.service' });

/** A handler's answer: 'handled' ends the pipeline for this message, 'passed' hands it to the next handler. */
export type InboundOutcome = 'handled' | 'passed';

/**
 * One step of the inbound-message pipeline: runs after a customer's message is stored, once per message
 * (a replayed webhook does not run it again), one message of a room at a time and in arrival order
 * across every server process, handlers in ascending `order` until one has handled it.
 * Orders in use: contacts 10, flows 100, the assistant 150, bots 200, the away message 300.
 */
export interface InboundHandler {
  id: string;
  order: number;
  handle(room: RoomRecord, message: Message): Promise<InboundOutcome>;
}

export interface InboundPipeline {
  add(handler: InboundHandler): void;
}

/** Where flows, bots, the assistant and business hours answer customers. */
export const inboundPipelineExtensionPoint = createExtensionPoint<InboundPipeline>({ id: 'chats.inboundPipeline' });

/** Where channel plugins hand the chat service their outbound providers, one per platform. */
export interface ChannelProviderRegistry {
  register(platform: Platform, provider: ChannelProvider): void;
}
export const channelProvidersExtensionPoint = createExtensionPoint<ChannelProviderRegistry>({ id: 'chats.channelProviders' });

/** A check of a template message against the company's templates: a problem to refuse it with, or null. */
export type TemplateSendCheck = (room: { companyId: number; channelId: number }, template: TemplateSendPayload, mediaUrl: string | null | undefined) => Promise<string | null>;
export interface TemplateSendChecks {
  add(check: TemplateSendCheck): void;
}
/** Where the templates plugin checks a template message before the inbox stores it. */
export const templateSendChecksExtensionPoint = createExtensionPoint<TemplateSendChecks>({ id: 'chats.templateSendChecks' });

/** The inbound pipeline's queue across processes (which process answers a room's waiting messages). */
export const chatInboundQueueRef = createServiceRef<InboundQueue>({ id: 'chats.inboundQueue' });
export type { InboundQueue };

/** Where the chat service's broadcasts go: the app's hub, or a test's fake one (useHubForTests). */
export const chatBroadcastRef = createServiceRef<BroadcastSwitch>({ id: 'chats.broadcast' });

export type { ChatActor, ChannelProvider, Broadcaster, OutgoingInput, InboundInput } from './service';
export type { ChatService };
export type { RoomRecord, ChannelRow } from './views';
/** A refusal answered as `{reason, errors?}`, and which send errors leave a message pending: the channel plugins' too. */
export { ChatError, isRetryableSendError } from './service';

/** The app's chat service (many tests reach it this way). */
export function chatService(app: FastifyInstance): ChatService {
  return app.services.get(chatServiceRef);
}

/** Tests: route the chat service's broadcasts to a fake hub (null: back to the app's hub). */
export function useHubForTests(app: FastifyInstance, hub: Broadcaster | null): void {
  app.services.get(chatBroadcastRef).useForTests(hub);
}

/** Tests: serve the page and room topics on a fake hub. */
export { registerChatChannels } from './handlers';

/**
 * Chats plugin: the live inbox's realtime topics (page:*, room:*), its REST routes, the chat service
 * other plugins send and receive through, the inbound pipeline and the channel providers' registry.
 */
export const chatsPlugin = defineServerPlugin({
  id: 'chats',
  deps: {
    http: coreServices.http,
    config: coreServices.config,
    db: coreServices.database,
    clock: coreServices.clock,
    storage: coreServices.mediaStorage,
    realtime: coreServices.realtime,
    logger: coreServices.logger,
    lifecycle: coreServices.lifecycle,
    mediaReferences: coreExtensionPoints.mediaReferences,
    demoData: coreExtensionPoints.demoData,
    pipeline: inboundPipelineExtensionPoint,
    providers: channelProvidersExtensionPoint,
    templateChecks: templateSendChecksExtensionPoint,
  },
  provides: { chats: chatServiceRef, broadcast: chatBroadcastRef, inboundQueue: chatInboundQueueRef },
  extensionPoints: [
    offerExtensionPoint(inboundPipelineExtensionPoint, () => new InboundPipelineRunner()),
    offerExtensionPoint(channelProvidersExtensionPoint, () => new ChannelProviders()),
    offerExtensionPoint(templateSendChecksExtensionPoint, () => new TemplateSendCheckRegistry()),
  ],
  init({ http, config, db, clock, storage, realtime, logger, lifecycle, mediaReferences, demoData, pipeline, providers, templateChecks }) {
    const broadcast = new BroadcastSwitch(realtime);
    const handlers = pipeline as InboundPipelineRunner;
    // The queue loads a waiting message through the chat service, which runs the queue: the closure resolves it when used.
    const inboundQueue: InboundQueue = new InboundQueue({
      db,
      clock,
      log: logger,
      handle: (room, message) => handlers.handle(room, message),
      load: (messageId) => chats.inboundMessage(messageId),
    });
    const chats = new ChatService({
      db,
      clock,
      hub: () => broadcast,
      storage: () => storage,
      log: logger,
      inboundPipeline: inboundQueue,
      templateChecks: templateChecks as TemplateSendCheckRegistry,
      // Who has a channel's inbox open, on every process (Redis presence when configured): auto-assignment's "online".
      presentUsers: async (topic) =>
        Object.keys(await realtime.listPresence(topic))
          .map(Number)
          .filter((id) => Number.isInteger(id) && id > 0),
    });
    (providers as ChannelProviders).forEach((platform, provider) => chats.registerProvider(platform, provider));
    registerChatChannels(realtime, chats, ownMediaBases(config));
    // Start: pending deliveries and waiting customer messages left by a previous run or a dead process.
    lifecycle.addStartHook(async () => {
      try {
        await chats.startDeliveries();
      } catch (err) {
        logger.error({ err }, 'chats: resuming deliveries');
      }
      inboundQueue.start();
    });
    lifecycle.addShutdownHook(async () => {
      await chats.close();
      await inboundQueue.stop();
      await chats.settled();
    });
    chatRoutes(http, chats);
    roomStatusRoutes(http, chats);
    autoAssignmentRoutes(http, chats);
    csatRoutes(http, chats);
    noteRoutes(http, chats);
    // The demo's conversations in every status, assigned and not: after the sandbox's seeder (100) stored them.
    demoData.add({ id: 'chats-conversations', order: 110, phase: 'withCompanies', seed: ({ tx, companyIds, demo }) => seedDemoConversations(tx, companyIds.demo, { agent: demo.agent.email, admin: demo.admin.email }) });
    // A few CSAT ratings of earlier conversations (issue #22): /stats shows a score.
    demoData.add({ id: 'chats-csat', order: 111, phase: 'withCompanies', seed: ({ tx, companyIds, demo }) => seedDemoCsat(tx, companyIds.demo, { agent: demo.agent.email, admin: demo.admin.email }) });
    // Snoozes end by themselves (./roomStatus.ts): a pass at start (what ended while no process ran), then every interval.
    lifecycle.addStartHook(() => chats.statuses.snoozeJob.start());
    lifecycle.addShutdownHook(async () => {
      chats.statuses.snoozeJob.stop();
      await chats.statuses.snoozeJob.settled();
    });
    // A message's attachment (an agent's upload, media received from Meta) stays while the message names it; the LIKE is a cheap pre-filter.
    mediaReferences.add('messages', sql`SELECT ${chatKeyOf(messages.mediaUrl)} AS key FROM ${messages} WHERE ${messages.mediaUrl} LIKE '%/chats/%'`);
    return { chats, broadcast, inboundQueue };
  },
});



// For other plugins' tests: the in-memory hub and socket identities the chat topics are tested with.
export { FakeHub, identityFor, type FakeSocket } from './testing';
