/**
 * Flows plugin (issue #13): guided conversations of a company, served by the bot service under
 * config.botService.base (default /bot-service) next to the bots plugin's calls, authorised by the
 * same company key (the bots plugin's resolver). Every call is listed in contract/flows.ts.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import type { Services } from '../../core/services';
import { botsServices } from '../bots';
import { flowDefaultRoutes, FlowDefaultsService } from './defaults';
import { flowServiceRoutes } from './routes';
import { registerFlowRuntime } from './runtime';
import { FlowService } from './service';
import { flows as flowsTable, flowVersions } from './schema';
import { chatKeyOf, mediaReferences } from '../../providers/storage/sweeper';

const instances = new WeakMap<Services, FlowService>();

/** The app's flow service (tests, the runtime, the demo seed). */
export function flowsService(app: FastifyInstance): FlowService {
  const existing = instances.get(app.services);
  if (existing) return existing;
  // The storage is looked up when used, as the chats and broadcasts services do.
  const created = new FlowService(app.services.get('Database'), app.services.get('Clock'), () => app.services.get('MediaStorage'));
  instances.set(app.services, created);
  return created;
}

export default async function flowsPlugin(app: FastifyInstance): Promise<void> {
  const flows = flowsService(app);
  const { keys } = botsServices(app);
  const base = app.services.get('Config').botService.base;
  const runtime = registerFlowRuntime(app, flows);
  await app.register(async (scope) => flowServiceRoutes(scope, { flows, keys, runtime }), { prefix: base === '/' ? '' : base });
  flowDefaultRoutes(app, new FlowDefaultsService(app.services.get('Database'), app.services.get('Clock')));
  // The editor uploads the intro and find-out-more media through the chat presigned URL: the sweeper keeps
  // them while a flow, or one of its versions (a restore brings the snapshot's URLs back), names them.
  const references = mediaReferences(app);
  references.add('flows.intro_media_url', sql`SELECT ${chatKeyOf(flowsTable.introMediaUrl)} AS key FROM ${flowsTable}`);
  references.add('flows.find_out_more_media_url', sql`SELECT ${chatKeyOf(flowsTable.findOutMoreMediaUrl)} AS key FROM ${flowsTable}`);
  references.add('flow_versions.snapshot', sql`SELECT ${chatKeyOf(sql`${flowVersions.snapshot}->>'intro_media_url'`)} AS key FROM ${flowVersions}
    UNION ALL SELECT ${chatKeyOf(sql`${flowVersions.snapshot}->>'find_out_more_media_url'`)} FROM ${flowVersions}`);
}
