/**
 * Routes of the templates plugin (issue #10; spec §7): WhatsApp message templates of a company's
 * channels. Access: bearer token, the `Company` header's membership, then whatsapp_templates view
 * (reads) or manage (writes). Channel and template ids are looked up inside the header's company
 * only, so another company's ids answer 404. Bodies are validated with the contract's schemas
 * (contract/templates.ts) before anything reaches Meta: errors name the dotted field.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { CarouselSubmission, TEMPLATE_MESSAGES, TemplateDefinition, TemplateEdit, TemplateListQuery } from '../../../contract/templates';
import { access } from '../../core/access';
import { notFound } from '../../core/errors';
import type { TemplateService } from './service';

type ChannelParams = { Params: { id: string } };
type TemplateParams = { Params: { id: string; templateId: string } };
type StatsParams = { Params: { pageId: string; templateId: string } };

function idOf(value: string): number {
  if (!/^\d{1,9}$/.test(value)) throw notFound();
  return Number(value);
}

function companyId(request: FastifyRequest): number {
  return request.company!.id;
}

export function templateRoutes(app: FastifyInstance, service: TemplateService): void {
  const view = { access: access.company('whatsapp_templates', 'view') };
  const manage = { access: access.company('whatsapp_templates', 'manage') };

  // Our synced copy (fast even when Meta is slow), filtered and paged; `refresh=true` waits for Meta's list.
  app.get<ChannelParams & { Querystring: z.input<typeof TemplateListQuery> }>(
    '/api/channels/:id/templates/',
    { schema: { querystring: TemplateListQuery }, config: view },
    async (request) => service.list(companyId(request), idOf(request.params.id), request.query as z.output<typeof TemplateListQuery>),
  );

  app.post<ChannelParams & { Body: TemplateDefinition }>(
    '/api/channels/:id/create_template/',
    { schema: { body: TemplateDefinition }, config: manage },
    async (request, reply) => {
      const template = await service.create(companyId(request), idOf(request.params.id), request.body);
      return reply.code(201).send({ detail: TEMPLATE_MESSAGES.created, template });
    },
  );

  // Spec §7: the carousel names its channel by the WhatsApp number (phone_number).
  app.post<{ Body: CarouselSubmission }>(
    '/api/whatsapp-template/submit_carousel_template/',
    { schema: { body: CarouselSubmission }, config: manage },
    async (request, reply) => {
      const { phone_number: phone, ...definition } = request.body;
      const channelId = await service.channelByPhone(companyId(request), phone);
      const template = await service.create(companyId(request), channelId, definition);
      return reply.code(201).send({ detail: TEMPLATE_MESSAGES.created, template });
    },
  );

  app.patch<TemplateParams & { Body: TemplateEdit }>(
    '/api/channels/:id/templates/:templateId/',
    { schema: { body: TemplateEdit }, config: manage },
    async (request) => ({
      detail: TEMPLATE_MESSAGES.updated,
      template: await service.edit(companyId(request), idOf(request.params.id), idOf(request.params.templateId), request.body),
    }),
  );

  app.delete<TemplateParams>('/api/channels/:id/templates/:templateId/', { config: manage }, async (request) => {
    await service.remove(companyId(request), idOf(request.params.id), idOf(request.params.templateId));
    return { detail: TEMPLATE_MESSAGES.deleted };
  });

  app.get<TemplateParams>('/api/channels/:id/templates/:templateId/history/', { config: view }, async (request) => ({
    results: await service.history(companyId(request), idOf(request.params.id), idOf(request.params.templateId)),
  }));

  // Spec §7 (no trailing slash): counts from our own message records.
  app.get<StatsParams>('/api/pages/:pageId/templates/:templateId/stats', { config: view }, async (request) =>
    service.stats(companyId(request), idOf(request.params.pageId), idOf(request.params.templateId)),
  );
}
