/**
 * Routes of the channels plugin (spec §7): bearer token plus the `Company` header, then
 * can_view_channels / can_manage_channels (spec §6). Ids in paths are looked up inside the header's
 * company only, so another company's ids answer 404. The webhook endpoint lives in webhooks.ts.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ConnectChannelBody, EmbeddedSignupBody, FacebookPagesBody, SignupRetryBody, SignupStatusQuery } from '../../../contract/channels';
import { pageQuery } from '../../../contract/team';
import { notFound } from '../../core/errors';
import { requireMeta } from '../../providers/meta/notConfigured';
import { access } from '../../core/access';
import type { ChannelService } from './service';
import type { SignupService } from './signup';

type IdParams = { Params: { id: string } };

/** page and page_size like GET /api/members/ (pages from 1, sizes capped at MAX_PAGE_SIZE). */
export const ChannelListQuery = z.object({ page: pageQuery.page, page_size: pageQuery.page_size });

function pathId(request: FastifyRequest<IdParams>): number {
  const { id } = request.params;
  if (!/^\d{1,9}$/.test(id)) throw notFound();
  return Number(id);
}

function companyId(request: FastifyRequest): number {
  return request.company!.id;
}

export function channelRoutes(app: FastifyInstance, service: ChannelService, signup: SignupService): void {
  // The access rules (server/core/access): bearer token, Company header membership, then the permission.
  const view = { access: access.company('channels', 'view') };
  const manage = { access: access.company('channels', 'manage') };
  // Connecting needs Meta (live, or the fake in demo mode): otherwise a clear 503, after the access rule.
  const connect = [requireMeta(app.services.get('Config').meta)];

  // ---------- channels ----------
  app.get<{ Querystring: z.infer<typeof ChannelListQuery> }>('/api/channels/', { schema: { querystring: ChannelListQuery }, config: view }, async (request) => {
    const { page, page_size } = request.query;
    return service.list(request.url, companyId(request), request.membership!.role === 'admin', { page, pageSize: page_size });
  });

  app.post<{ Body: z.infer<typeof FacebookPagesBody> }>(
    '/api/channels/facebook_pages/',
    { schema: { body: FacebookPagesBody }, config: manage, onRequest: connect },
    async (request) => ({ results: await service.facebookPages(request.body.access_token) }),
  );

  app.post<{ Body: z.infer<typeof ConnectChannelBody> }>('/api/channels/', { schema: { body: ConnectChannelBody }, config: manage, onRequest: connect }, async (request, reply) => {
    const { channel, created } = await service.connect(companyId(request), request.body);
    return reply.code(created ? 201 : 200).send(channel);
  });

  app.delete<IdParams>('/api/channels/:id/', { config: manage }, async (request, reply) => {
    await service.disconnect(companyId(request), pathId(request));
    return reply.code(204).send();
  });

  // GET /api/channels/{id}/templates/ is served by the templates plugin (our synced copy).

  // ---------- WhatsApp embedded signup ----------
  app.post<{ Body: z.infer<typeof EmbeddedSignupBody> }>(
    '/api/wa-onboard/embedded_signup/',
    { schema: { body: EmbeddedSignupBody }, config: manage, onRequest: connect },
    async (request, reply) => {
      const answer = await signup.start(companyId(request), request.body);
      return reply.code(answer.code).send(answer.body);
    },
  );

  app.post<{ Body: z.infer<typeof SignupRetryBody> }>('/api/wa-onboard/retry/', { schema: { body: SignupRetryBody }, config: manage, onRequest: connect }, async (request, reply) => {
    const answer = await signup.retry(companyId(request), request.body.external_id);
    return reply.code(answer.code).send(answer.body);
  });

  app.get<{ Querystring: z.infer<typeof SignupStatusQuery> }>(
    '/api/wa-onboard/signup_status/',
    { schema: { querystring: SignupStatusQuery }, config: view },
    async (request) => signup.status(companyId(request), request.query.external_id),
  );
}
