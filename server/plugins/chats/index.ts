/** Chats plugin: the live inbox's realtime topics (page:*, room:*) and its REST helpers. */
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { messages } from '../../core/db/schema';
import { chatKeyOf } from '../../providers/storage/sweeper';
import { registerChatChannels } from './handlers';
import { ownMediaBases } from './mediaBases';
import { chatRoutes } from './routes';
import { chatService, findHub } from './runtime';
import type { Message, Platform } from '../../../contract/chats';
import { coreExtensionPoints, coreServices, createExtensionPoint, createServiceRef, defineServerPlugin, offerExtensionPoint } from '../../core/plugins';
import { InboundPipelineRunner } from './inboundPipeline';
import { ChannelProviders } from './channelProviders';
import type { ChannelProvider, ChatService } from './service';
import type { RoomRecord } from './views';

// ---- What the chats plugin gives other plugins (issue #20: its contract; the only way in) ----

/** The live inbox's service: rooms, messages, sending as an agent or a bot, receiving from a channel. */
export const chatServiceRef = createServiceRef<ChatService>({ id: 'chats.service' });

/** A handler's answer: 'handled' ends the pipeline for this message, 'passed' hands it to the next handler. */
export type InboundOutcome = 'handled' | 'passed';

/**
 * One step of the inbound-message pipeline: runs after a customer's message is stored (a replay too),
 * one message of a room at a time, handlers in ascending `order` until one has handled it.
 * Orders in use: business-hours replies 50, flows 100, the assistant 150, bots 200.
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

export type { ChatService, ChatActor, ChannelProvider, Broadcaster, OutgoingInput, InboundInput } from './service';
export type { RoomRecord, ChannelRow } from './views';


/**
 * Chats plugin: the live inbox's realtime topics (page:*, room:*), its REST routes, the chat service
 * other plugins send and receive through, the inbound pipeline and the channel providers' registry.
 */
export const chatsPlugin = defineServerPlugin({
  id: 'chats',
  deps: { http: coreServices.http, rootHttp: coreServices.rootHttp, config: coreServices.config, lifecycle: coreServices.lifecycle, mediaReferences: coreExtensionPoints.mediaReferences, pipeline: inboundPipelineExtensionPoint, providers: channelProvidersExtensionPoint },
  provides: { chats: chatServiceRef },
  extensionPoints: [
    offerExtensionPoint(inboundPipelineExtensionPoint, () => new InboundPipelineRunner()),
    offerExtensionPoint(channelProvidersExtensionPoint, () => new ChannelProviders()),
  ],
  init({ http, rootHttp, config, lifecycle, mediaReferences, pipeline, providers }) {
    const chats = chatService(rootHttp);
    (providers as ChannelProviders).forEach((platform, provider) => chats.registerProvider(platform, provider));
    chats.afterInbound = (room, message) => (pipeline as InboundPipelineRunner).run(room, message);
    const hub = findHub(rootHttp);
    if (hub) registerChatChannels(hub, chats, ownMediaBases(config));
    else http.log.warn('chats: no realtime hub, the page and room topics are not served');
    lifecycle.addShutdownHook(() => chats.settled());
    chatRoutes(http, chats);
    // A message's attachment (an agent's upload, media received from Meta) stays while the message names it; the LIKE is a cheap pre-filter.
    mediaReferences.add('messages', sql`SELECT ${chatKeyOf(messages.mediaUrl)} AS key FROM ${messages} WHERE ${messages.mediaUrl} LIKE '%/chats/%'`);
    return { chats };
  },
});
