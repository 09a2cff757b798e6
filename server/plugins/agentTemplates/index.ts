/**
 * Agent templates plugin: a company's canned replies agents insert in the chat composer
 * (spec §3 Agent template, §7 /api/agent-templates/). Needs the core's database and clock; gives
 * its routes only.
 */
import { coreServices, defineServerPlugin } from '../../core/plugins';
import { agentTemplateRoutes } from './routes';
import { AgentTemplateService } from './service';

export const agentTemplatesPlugin = defineServerPlugin({
  id: 'agentTemplates',
  deps: { http: coreServices.http, db: coreServices.database, clock: coreServices.clock },
  init({ http, db, clock }) {
    agentTemplateRoutes(http, new AgentTemplateService(db, clock));
  },
});
