/**
 * Flows plugin (issue #13): guided conversations of a company, served by the bot service under
 * config.botService.base (default /bot-service) next to the bots plugin's calls, authorised by the
 * same company key (the bots plugin's resolver). Every call is listed in contract/flows.ts.
 *
 * Needs: the chat service and chats' inbound pipeline (the flow runtime answers there, order 100,
 * before the bots); the bots plugin's key resolver and its start_flow extension point (a bot's step
 * hands the conversation to a flow). Gives: the flow service and the flow runtime (tests, the demo).
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { coreExtensionPoints, coreServices, createServiceRef, defineServerPlugin } from '../../core/plugins';
import { botFlowStarterExtensionPoint, botKeysRef } from '../bots';
import { chatServiceRef, inboundPipelineExtensionPoint } from '../chats';
import { flowDefaultRoutes, FlowDefaultsService } from './defaults';
import { flowServiceRoutes } from './routes';
import { FlowRuntime, registerFlowTestChat } from './runtime';
import { FlowService } from './service';
import { flows as flowsTable, flowVersions } from './schema';
import { chatKeyOf } from '../../providers/storage/sweeper';
import { seedDemoFlow } from './demo';

// ---- What the flows plugin gives other plugins (issue #20: its contract; the only way in) ----

export const flowServiceRef = createServiceRef<FlowService>({ id: 'flows.service' });
export const flowRuntimeRef = createServiceRef<FlowRuntime>({ id: 'flows.runtime' });
export type { FlowService } from './service';
export type { FlowRuntime } from './runtime';

/** The app's flow service (tests, the demo seed). */
export function flowsService(app: FastifyInstance): FlowService {
  return app.services.get(flowServiceRef);
}

/** The app's flow runtime (tests). */
export function flowRuntime(app: FastifyInstance): FlowRuntime {
  return app.services.get(flowRuntimeRef);
}

export const flowsPlugin = defineServerPlugin({
  id: 'flows',
  deps: {
    demoData: coreExtensionPoints.demoData,
    http: coreServices.http,
    config: coreServices.config,
    db: coreServices.database,
    clock: coreServices.clock,
    storage: coreServices.mediaStorage,
    logger: coreServices.logger,
    mediaReferences: coreExtensionPoints.mediaReferences,
    chats: chatServiceRef,
    pipeline: inboundPipelineExtensionPoint,
    keys: botKeysRef,
    flowStarter: botFlowStarterExtensionPoint,
  },
  provides: { flows: flowServiceRef, runtime: flowRuntimeRef },
  async init({ demoData, http, config, db, clock, storage, logger, mediaReferences, chats, pipeline, keys, flowStarter }) {
    demoData.add({ id: 'flow', order: 200, phase: 'beforeListen', seed: ({ db, demo }) => seedDemoFlow(db, clock, demo.companies.demo.name) });
    const flows = new FlowService(db, clock, () => storage);
    const runtime = new FlowRuntime({ db, clock, chats, flows, log: logger });
    // In front of the bot runtime: a flow's keyword, a running flow or the channel's default flow answers first.
    pipeline.add({ id: 'flows', order: 100, handle: (room, message) => runtime.handle(room, message) });
    // A bot's start_flow action hands the conversation to a flow (by id or name).
    flowStarter.set((room, flow, inbound) => runtime.startByRef(room, flow, inbound), (companyId, flow, db) => runtime.hasFlow(companyId, flow, db));
    registerFlowTestChat(http, flows, storage);

    const base = config.botService.base;
    await http.register(async (scope) => flowServiceRoutes(scope, { flows, keys, runtime }), { prefix: base === '/' ? '' : base });
    flowDefaultRoutes(http, new FlowDefaultsService(db, clock));
    // The editor uploads the intro and find-out-more media through the chat presigned URL: the sweeper keeps
    // them while a flow, or one of its versions (a restore brings the snapshot's URLs back), names them.
    mediaReferences.add('flows.intro_media_url', sql`SELECT ${chatKeyOf(flowsTable.introMediaUrl)} AS key FROM ${flowsTable}`);
    mediaReferences.add('flows.find_out_more_media_url', sql`SELECT ${chatKeyOf(flowsTable.findOutMoreMediaUrl)} AS key FROM ${flowsTable}`);
    mediaReferences.add('flow_versions.snapshot', sql`SELECT ${chatKeyOf(sql`${flowVersions.snapshot}->>'intro_media_url'`)} AS key FROM ${flowVersions}
    UNION ALL SELECT ${chatKeyOf(sql`${flowVersions.snapshot}->>'find_out_more_media_url'`)} FROM ${flowVersions}`);
    return { flows, runtime };
  },
});
