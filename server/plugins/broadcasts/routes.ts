/**
 * Routes of the broadcasts plugin (issue #11; spec §7). Access: a member of the `Company` header's
 * company (access.company()) reads; sending, pausing, cancelling, retrying and deleting also need
 * the role admin or manager (there is no `broadcasts` permission area; see docs/architecture.md).
 * Broadcast ids are looked up inside the header's company only: another company's ids answer 404.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import {
  AudiencePreviewRequest,
  BROADCAST_MESSAGES,
  BroadcastCreate,
  BroadcastDeleteBody,
  BroadcastListQuery,
  BroadcastRetryBody,
  RecipientListQuery,
} from '../../../contract/broadcasts';
import { normalizeRole } from '../../../contract/permissions';
import { access } from '../../core/access';
import { forbidden, notFound } from '../../core/errors';
import type { BroadcastService } from './service';

type IdParams = { Params: { id: string } };

/** Large enough for a CSV list of CSV_LIMITS.textChars characters sent as JSON. */
const CSV_BODY_LIMIT = 12 * 1024 * 1024;

function idOf(value: string): number {
  if (!/^\d{1,9}$/.test(value)) throw notFound();
  return Number(value);
}

const companyId = (request: FastifyRequest) => request.company!.id;

/** Admins and managers send broadcasts; agents only look at them. */
async function requireManager(request: FastifyRequest): Promise<void> {
  const role = normalizeRole(request.membership?.role);
  if (role !== 'admin' && role !== 'manager') throw forbidden(BROADCAST_MESSAGES.manageForbidden);
}

export function broadcastRoutes(app: FastifyInstance, service: BroadcastService): void {
  const view = { access: access.company() };
  const manage = { access: access.company() };
  const managerOnly = { onRequest: requireManager };

  app.get<{ Querystring: z.input<typeof BroadcastListQuery> }>(
    '/api/broadcasts/',
    { schema: { querystring: BroadcastListQuery }, config: view },
    async (request) => service.list(companyId(request), request.query as BroadcastListQuery, request.url),
  );

  // Spec §7 writes POST /api/broadcasts without the slash; both are accepted.
  for (const url of ['/api/broadcasts', '/api/broadcasts/']) {
    app.post<{ Body: BroadcastCreate }>(
      url,
      { schema: { body: BroadcastCreate }, config: manage, bodyLimit: CSV_BODY_LIMIT, ...managerOnly },
      async (request, reply) => {
        const broadcast = await service.create(companyId(request), request.user?.id ?? null, request.body);
        const detail = broadcast.status === 'scheduled' ? BROADCAST_MESSAGES.scheduled : BROADCAST_MESSAGES.created;
        return reply.code(201).send({ ...broadcast, detail });
      },
    );
  }

  app.post<{ Body: AudiencePreviewRequest }>(
    '/api/broadcasts/audience/preview/',
    { schema: { body: AudiencePreviewRequest }, config: manage, bodyLimit: CSV_BODY_LIMIT, ...managerOnly },
    async (request) => service.preview(companyId(request), request.body),
  );

  app.get<IdParams>('/api/broadcasts/:id/', { config: view }, async (request) => service.detail(companyId(request), idOf(request.params.id)));

  app.get<IdParams & { Querystring: z.input<typeof RecipientListQuery> }>(
    '/api/broadcasts/:id/recipients/',
    { schema: { querystring: RecipientListQuery }, config: view },
    async (request) => service.recipients(companyId(request), idOf(request.params.id), request.query as RecipientListQuery, request.url),
  );

  app.get<IdParams>('/api/broadcasts/:id/report/', { config: view }, async (request) => service.report(companyId(request), idOf(request.params.id)));

  app.post<IdParams>('/api/broadcasts/:id/pause/', { config: manage, ...managerOnly }, async (request) => ({
    detail: BROADCAST_MESSAGES.paused,
    broadcast: await service.pause(companyId(request), idOf(request.params.id)),
  }));

  app.post<IdParams>('/api/broadcasts/:id/resume/', { config: manage, ...managerOnly }, async (request) => ({
    detail: BROADCAST_MESSAGES.resumed,
    broadcast: await service.resume(companyId(request), idOf(request.params.id)),
  }));

  app.post<IdParams>('/api/broadcasts/:id/cancel/', { config: manage, ...managerOnly }, async (request) => ({
    detail: BROADCAST_MESSAGES.cancelled,
    broadcast: await service.cancel(companyId(request), idOf(request.params.id)),
  }));

  app.post<IdParams & { Body: z.input<typeof BroadcastRetryBody> }>(
    '/api/broadcasts/:id/retry/',
    { schema: { body: BroadcastRetryBody }, config: manage, ...managerOnly },
    async (request) => ({
      detail: BROADCAST_MESSAGES.retried,
      broadcast: await service.retry(companyId(request), idOf(request.params.id), (request.body as z.output<typeof BroadcastRetryBody>)?.recipient_ids),
    }),
  );

  app.delete<IdParams & { Body: z.input<typeof BroadcastDeleteBody> }>(
    '/api/broadcasts/:id/',
    { schema: { body: BroadcastDeleteBody }, config: manage, ...managerOnly },
    async (request) => {
      await service.remove(companyId(request), idOf(request.params.id), (request.body as z.output<typeof BroadcastDeleteBody>)?.broadcast_id);
      return { detail: BROADCAST_MESSAGES.deleted };
    },
  );
}
