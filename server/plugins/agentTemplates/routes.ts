/**
 * Routes of the agent templates plugin (spec §7: GET, POST /api/agent-templates/; PUT, DELETE
 * /api/agent-templates/{id}, with or without a trailing slash). Bearer token plus the `Company`
 * header (requireUser → requireCompany → the access rule of ./access.ts); ids are looked up inside
 * the header's company only, so another company's ids answer 404.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { AgentTemplateBody, AgentTemplateListQuery } from '../../../contract/agentTemplates';
import { currentUser } from '../../core/auth/requireUser';
import { access } from '../../core/access';
import { forbidden, notFound } from '../../core/errors';
import { canEditAgentTemplates, canUseAgentTemplates, type TemplateActor } from './access';
import type { AgentTemplateService } from './service';

type IdParams = { Params: { id: string } };

function pathId(request: FastifyRequest<IdParams>): number {
  const { id } = request.params;
  if (!/^\d{1,9}$/.test(id)) throw notFound();
  return Number(id);
}

function companyId(request: FastifyRequest): number {
  return request.company!.id;
}

function requireAccess(rule: (actor: TemplateActor) => boolean) {
  return async function checkTemplateAccess(request: FastifyRequest): Promise<void> {
    const membership = request.membership;
    if (!membership || !rule(membership)) throw forbidden();
  };
}

export function agentTemplateRoutes(app: FastifyInstance, templates: AgentTemplateService): void {
  // The declared rule (company + chats view, server/core/access) runs first; ./access.ts's rules narrow it.
  const rule = { access: access.company('chats', 'view') };
  const use = [requireAccess(canUseAgentTemplates)];
  const edit = [requireAccess(canEditAgentTemplates)];

  app.get<{ Querystring: z.infer<typeof AgentTemplateListQuery> }>(
    '/api/agent-templates/',
    { schema: { querystring: AgentTemplateListQuery }, config: rule, onRequest: use },
    async (request) => {
      const { page, page_size, search } = request.query;
      return templates.list(request.url, companyId(request), { page, pageSize: page_size, search });
    },
  );

  app.post<{ Body: z.infer<typeof AgentTemplateBody> }>(
    '/api/agent-templates/',
    { schema: { body: AgentTemplateBody }, config: rule, onRequest: edit },
    async (request, reply) => reply.code(201).send(await templates.create(companyId(request), currentUser(request).id, request.body)),
  );

  for (const path of ['/api/agent-templates/:id', '/api/agent-templates/:id/']) {
    app.put<IdParams & { Body: z.infer<typeof AgentTemplateBody> }>(
      path,
      { schema: { body: AgentTemplateBody }, config: rule, onRequest: edit },
      async (request) => templates.update(companyId(request), pathId(request), request.body),
    );
    app.delete<IdParams>(path, { config: rule, onRequest: edit }, async (request, reply) => {
      await templates.remove(companyId(request), pathId(request));
      return reply.code(204).send();
    });
  }
}
