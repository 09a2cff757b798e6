/**
 * Agent templates plugin: a company's canned replies agents insert in the chat composer
 * (spec §3 Agent template, §7 /api/agent-templates/). init(services) → service → routes.
 */
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../core/services';
import { agentTemplateRoutes } from './routes';
import { AgentTemplateService } from './service';

export function init(services: Services): AgentTemplateService {
  return new AgentTemplateService(services.get('Database'), services.get('Clock'));
}

export default async function agentTemplatesPlugin(app: FastifyInstance): Promise<void> {
  agentTemplateRoutes(app, init(app.services));
}
