/**
 * Flows plugin (issue #13): guided conversations of a company, served by the bot service under
 * config.botService.base (default /bot-service) next to the bots plugin's calls, authorised by the
 * same company key (the bots plugin's resolver). Every call is listed in contract/flows.ts.
 */
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../core/services';
import { botsServices } from '../bots';
import { flowDefaultRoutes, FlowDefaultsService } from './defaults';
import { flowServiceRoutes } from './routes';
import { registerFlowRuntime } from './runtime';
import { FlowService } from './service';

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
}
