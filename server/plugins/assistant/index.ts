/**
 * The assistant plugin (issue #24): the company's knowledge (articles, uploaded documents, the flows'
 * extra context) split into passages and searched with PostgreSQL full-text search, and the
 * assistant that answers from it or hands over (providers: `local`, retrieval only; `openai-compatible`,
 * server/providers/llm). Needs the core's database, clock and config (the API key is sealed with the
 * channels' secret key) and the flows plugin's service (read through FlowContextSource only).
 * Gives: the knowledge and assistant services (tests, the demo seed).
 * On the channels (issue #24): chats' inbound pipeline handler at order 150 (./channels.ts), leaving the bots'
 * runtime (when loaded) what a bot step takes; the copilot's routes (./copilot.ts); the plan's `assistant_answers`
 * counter (./metering.ts). A bot step's ai_answer action asks the same assistant (./channels.ts `answerForBot`),
 * supplied on the bots' extension point when the bots plugin is loaded.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { currentUser } from '../../core/auth/requireUser';
import { botAssistantExtensionPoint, botRuntimeRef } from '../bots';
import { chatServiceRef, inboundPipelineExtensionPoint, type ChatActor } from '../chats';
import { AssistantChannels } from './channels';
import { Copilot } from './copilot';
import { AssistantMetering } from './metering';
import { coreExtensionPoints, coreServices, createServiceRef, defineServerPlugin } from '../../core/plugins';
import { SecretBox } from '../../core/crypto/secretBox';
import { flowServiceRef } from '../flows';
import { AssistantService } from './assistantService';
import { seedDemoKnowledge } from './demo';
import { KnowledgeService, type FlowContextSource } from './knowledgeService';
import { assistantRoutes } from './routes';

export const knowledgeServiceRef = createServiceRef<KnowledgeService>({ id: 'assistant.knowledge' });
export const assistantServiceRef = createServiceRef<AssistantService>({ id: 'assistant.service' });
/** The assistant on the channels (tests drive its pipeline step). */
export const assistantChannelsRef = createServiceRef<AssistantChannels>({ id: 'assistant.channels' });
export type { KnowledgeService } from './knowledgeService';
export type { AssistantService } from './assistantService';

/** The app's services (tests). */
export function assistantServices(app: FastifyInstance): { knowledge: KnowledgeService; assistant: AssistantService } {
  return { knowledge: app.services.get(knowledgeServiceRef), assistant: app.services.get(assistantServiceRef) };
}

/** The member acting in a copilot route (the chats' actor: who may open which room). */
function actorOf(request: FastifyRequest): ChatActor {
  const user = currentUser(request);
  return { userId: user.id, email: user.email, name: user.firstName || user.email, companyId: request.company!.id, role: request.membership!.role };
}

export const assistantPlugin = defineServerPlugin({
  id: 'assistant',
  deps: {
    http: coreServices.http,
    db: coreServices.database,
    clock: coreServices.clock,
    config: coreServices.config,
    demoData: coreExtensionPoints.demoData,
    flows: flowServiceRef,
    chats: chatServiceRef,
    pipeline: inboundPipelineExtensionPoint,
    planLimits: coreServices.planLimits,
    planLimitsRegistry: coreExtensionPoints.planLimits,
    logger: coreServices.logger,
  },
  optionalDeps: { bots: botRuntimeRef, botAssistant: botAssistantExtensionPoint },
  provides: { knowledge: knowledgeServiceRef, assistant: assistantServiceRef, channels: assistantChannelsRef },
  init({ http, db, clock, config, demoData, flows, chats, pipeline, planLimits, planLimitsRegistry, logger, bots, botAssistant }) {
    const flowContext: FlowContextSource = {
      async list(companyId) {
        return (await flows.list(companyId)).map(({ id, flow_name, version, extra_context }) => ({ id, flow_name, version, extra_context }));
      },
    };
    const knowledge = new KnowledgeService(db, clock, flowContext);
    const assistant = new AssistantService({ db, clock, box: new SecretBox(config.channelSecretKey), knowledge });
    const metering = new AssistantMetering(db, planLimits);
    metering.register(planLimitsRegistry);
    const copilot = new Copilot({ db, clock, chats, assistant, metering, randomKey: randomUUID });
    assistantRoutes(http, knowledge, assistant, copilot, actorOf);
    // After the flows (100), before the bots (200), which keep every message a bot step takes.
    const channels = new AssistantChannels({ db, clock, chats, assistant, metering, bots: bots ?? null, log: logger });
    pipeline.add({ id: 'assistant', order: 150, handle: (room, message) => channels.handle(room, message) });
    // A bot step's ai_answer hands the customer's question to the same assistant.
    botAssistant?.set((room, inbound, question) => channels.answerForBot(room, inbound, question));
    demoData.add({ id: 'knowledge', order: 250, phase: 'beforeListen', seed: ({ db, demo }) => seedDemoKnowledge(db, knowledge, assistant, demo.companies.demo.name, clock.now()) });
    return { knowledge, assistant, channels };
  },
});
