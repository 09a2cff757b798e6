/**
 * Bots plugin (issue #12): the bot service (bots, steps, options, the branch graph, operations, the
 * opt-out CSV) under config.botService.base (default /bot-service), authorised by the company's key;
 * the main API's bot calls (integration key, bulk steps, PATCH/DELETE /api/bots/{id}/); and the
 * runtime (./runtime) that answers customers. Every call is listed in contract/bots.ts.
 *
 * Needs: the chat service (the runtime reads rooms and sends as the bot) and chats' inbound pipeline
 * (the runtime answers there, order 200, after the flows); the plan limits (bots); the broadcasts
 * plugin's keyword opt-outs for the CSV, when it is loaded.
 * Gives: the bot services (botsServicesRef), the company-key resolver (botKeysRef, for the flow calls
 * under the same base), the runtime (botRuntimeRef), an extension point where the flows plugin
 * supplies the start_flow action's starter, one where the assistant plugin supplies the ai_answer
 * action's answerer, and the bot engine's vocabulary the flow runtime shares.
 */
import type { FastifyInstance } from 'fastify';
import { count, eq, sql } from 'drizzle-orm';
import { SecretBox } from '../../core/crypto/secretBox';
import { prepared } from '../../core/db/prepared';
import { coreExtensionPoints, coreServices, createExtensionPoint, createServiceRef, defineServerPlugin, offerExtensionPoint } from '../../core/plugins';
import { chatServiceRef, inboundPipelineExtensionPoint } from '../chats';
import { broadcastOptOutsRef } from '../broadcasts';
import { BotKeyService } from './keys';
import { OperationService, runOperation, type OperationRunOptions } from './operations';
import { botMainApiRoutes, botServiceRoutes } from './routes';
import { botTestChatRoutes, BotRuntime, type FlowStarter } from './runtime';
import { BotService } from './service';
import { BotDraftService } from './drafts';
import { botDrafts, bots, botSteps, botVersions } from './schema';
import { chatKeyOf } from '../../providers/storage/sweeper';
import { FlowStarterSlot, type FlowLookup } from './runtime/flowStarter';
import { AssistantAnswererSlot, type AssistantAnswerer } from './runtime/assistantAnswerer';
import { seedDemoBot } from './demo';

export { runOperation, type OperationRunOptions, type OperationResult } from './operations';

// ---- What the bots plugin gives other plugins (issue #20: its contract; the only way in) ----

export interface BotsServices {
  bots: BotService;
  /** The canvas's drafts, their publication and the versions (issue #25). */
  drafts: BotDraftService;
  operations: OperationService;
  keys: BotKeyService;
  /** The configured limits of operation calls (timeout, size cap, allowed private addresses). */
  runOptions: OperationRunOptions;
  /** Loads the company's operation and runs it; the variables its response_mapping set ({} on failure or when it does not exist). */
  runCompanyOperation(input: { companyId: number; operationId: number; variables: Record<string, string> }): Promise<Record<string, string>>;
}
export const botsServicesRef = createServiceRef<BotsServices>({ id: 'bots.services' });

/** The bot-service key's company (null: unknown or rotated away): the flow calls share the bots' key. */
export type BotKeyResolver = Pick<BotKeyService, 'resolve'>;
export const botKeysRef = createServiceRef<BotKeyResolver>({ id: 'bots.keys' });

/** The live bot runtime (tests wait for or drive its answers). */
export const botRuntimeRef = createServiceRef<BotRuntime>({ id: 'bots.runtime' });

/** Where the flows plugin supplies the start_flow action's flow starter (without it the action names no flow). */
export interface BotFlowStarter {
  /** `lookup` lets a bot's save refuse a start_flow naming a flow the company does not have (issue #25). */
  set(starter: FlowStarter, lookup?: FlowLookup): void;
}
export const botFlowStarterExtensionPoint = createExtensionPoint<BotFlowStarter>({ id: 'bots.flowStarter' });

/**
 * Where the assistant plugin supplies the ai_answer action's answerer (issue #24): a step hands the customer's
 * question to the company's assistant. Without it the action hands the conversation over to a person.
 */
export interface BotAssistant {
  set(answerer: AssistantAnswerer): void;
}
export const botAssistantExtensionPoint = createExtensionPoint<BotAssistant>({ id: 'bots.assistant' });
export type { AssistantAnswerer, AiAnswerOutcome } from './runtime/assistantAnswerer';

export type { FlowStarter, OperationRunner } from './runtime';
export type { FlowLookup };
export type { BotRuntime } from './runtime';
export { HAND_OVER_TEXT, type OutgoingBotMessage } from './runtime/engine';
export { replyOf, HAND_OVER_PAUSE_DAYS, DAY_MS } from './runtime/runtime';
/** The bot service's error shape (spec §8), which the flow calls under the same base answer in too. */
export { titleOf, toBotServiceBody } from './botServiceErrors';

/** The app's bot services (tests, the demo seed). */
export function botsServices(app: FastifyInstance): BotsServices {
  return app.services.get(botsServicesRef);
}

/** The app's bot runtime (tests reach it to swap the operation runner). */
export function botRuntime(app: FastifyInstance): BotRuntime {
  return app.services.get(botRuntimeRef);
}

export const botsPlugin = defineServerPlugin({
  id: 'bots',
  deps: {
    demoData: coreExtensionPoints.demoData,
    http: coreServices.http,
    config: coreServices.config,
    db: coreServices.database,
    clock: coreServices.clock,
    storage: coreServices.mediaStorage,
    logger: coreServices.logger,
    planLimits: coreServices.planLimits,
    planLimitsRegistry: coreExtensionPoints.planLimits,
    mediaReferences: coreExtensionPoints.mediaReferences,
    chats: chatServiceRef,
    pipeline: inboundPipelineExtensionPoint,
    flowStarter: botFlowStarterExtensionPoint,
    assistant: botAssistantExtensionPoint,
  },
  optionalDeps: { keywordOptOuts: broadcastOptOutsRef },
  provides: { services: botsServicesRef, keys: botKeysRef, runtime: botRuntimeRef },
  extensionPoints: [
    offerExtensionPoint(botFlowStarterExtensionPoint, () => new FlowStarterSlot()),
    offerExtensionPoint(botAssistantExtensionPoint, () => new AssistantAnswererSlot()),
  ],
  async init({ demoData, http, config, db, clock, storage, logger, planLimits, planLimitsRegistry, mediaReferences, chats, pipeline, flowStarter, assistant, keywordOptOuts }) {
    // The demo bot on the Demo Company's sandbox channel.
    demoData.add({ id: 'bot', order: 100, phase: 'beforeListen', seed: ({ db, demo }) => seedDemoBot(db, demo.companies.demo.name) });
    const box = new SecretBox(config.channelSecretKey);
    const operations = new OperationService(db, clock, box);
    const runOptions: OperationRunOptions = {
      timeoutMs: config.botService.operationTimeoutMs,
      maxBytes: config.botService.operationMaxBytes,
      allowIps: config.botService.operationAllowIps,
    };
    const slot = flowStarter as FlowStarterSlot;
    const botService = new BotService(db, clock, planLimits, () => storage, (companyId, flow, db) => slot.exists(companyId, flow, db));
    const services: BotsServices = {
      bots: botService,
      drafts: new BotDraftService(db, clock, botService),
      operations,
      keys: new BotKeyService({ db, clock, box, base: config.botService.base }),
      runOptions,
      async runCompanyOperation({ companyId, operationId, variables }) {
        // A missing or failed operation throws: the test chat reports it (issue #25), the runtime logs it and goes on.
        const op = await operations.find(companyId, operationId);
        if (!op) {
          logger.warn({ companyId, operationId }, 'bot operation not found');
          throw new Error(`Operation ${operationId} does not exist in this company.`);
        }
        const result = await runOperation(op, variables, runOptions);
        if (!result.ok) {
          logger.warn({ companyId, operationId, status: result.status, error: result.error }, 'bot operation failed');
          throw new Error(`The operation "${op.name}" failed: ${result.error ?? `HTTP ${result.status}`}.`);
        }
        return result.variables;
      },
    };

    const base = config.botService.base;
    const routeDeps = { ...services, db, keywordOptOuts: keywordOptOuts ?? null, base, publicUrl: config.publicUrl };
    // The bot service in its own context: its error handler answers in the bot service's error shape.
    await http.register(async (scope) => botServiceRoutes(scope, routeDeps), { prefix: base === '/' ? '' : base });
    botMainApiRoutes(http, routeDeps);

    const runtime = new BotRuntime({
      db,
      clock,
      chats,
      runOperation: (input) => services.runCompanyOperation(input),
      startFlow: (room, flow, inbound) => slot.start(room, flow, inbound),
      // Read when a step runs: the assistant plugin sets it in its own init, after this one.
      answerWithAssistant: () => (assistant as AssistantAnswererSlot).get(),
      log: logger,
    });
    pipeline.add({ id: 'bots', order: 200, handle: (room, message) => runtime.handle(room, message) });
    botTestChatRoutes(http, { db, runtime, storage });

    // The canvas uploads a step message's media through the chat presigned URL: kept while a step's messages name it.
    // (The CASE: jsonb_array_elements fails on anything but an array; the column is always one, but a bad row must not stop every sweep.)
    mediaReferences.add(
      'bot_steps.messages',
      sql`SELECT ${chatKeyOf(sql`m.value->>'media_url'`)} AS key
        FROM ${botSteps}, jsonb_array_elements(CASE WHEN jsonb_typeof(${botSteps.messages}) = 'array' THEN ${botSteps.messages} ELSE '[]'::jsonb END) AS m(value)`,
    );
    // A draft's and a version's step messages keep their uploads too (an image uploaded to the draft, a version one may restore).
    for (const [name, table, column] of [
      ['bot_drafts.content', botDrafts, botDrafts.content],
      ['bot_versions.snapshot', botVersions, botVersions.snapshot],
    ] as const) {
      mediaReferences.add(
        name,
        sql`SELECT ${chatKeyOf(sql`m.value->>'media_url'`)} AS key
          FROM ${table},
            jsonb_array_elements(CASE WHEN jsonb_typeof(${column}->'steps') = 'array' THEN ${column}->'steps' ELSE '[]'::jsonb END) AS s(value),
            jsonb_array_elements(CASE WHEN jsonb_typeof(s.value->'messages') = 'array' THEN s.value->'messages' ELSE '[]'::jsonb END) AS m(value)`,
      );
    }
    // What the plan's bot limit counts: the company's bots.
    planLimitsRegistry.addUsageCounter('bots', async (companyId) => {
      const statement = prepared(db, 'bots_usage', (db, name) =>
        db.select({ n: count() }).from(bots).where(eq(bots.companyId, sql.placeholder('companyId'))).prepare(name),
      );
      const [row] = await statement.execute({ companyId });
      return Number(row.n);
    });
    return { services, keys: services.keys, runtime };
  },
});
