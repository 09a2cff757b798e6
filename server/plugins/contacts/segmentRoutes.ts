/**
 * Routes of the segments (issue #23), bearer token plus the `Company` header, in the contacts' `chats`
 * permission area (view reads and counts, manage writes):
 *   GET, POST /api/segments/              the company's segments {count, results}; a new one (201)
 *   POST /api/segments/count/             the count of unsaved conditions (the builder, as it is edited)
 *   GET, PATCH, DELETE /api/segments/{id}/
 *   GET /api/segments/{id}/count/         its members now, as far as the caller sees contacts
 * Ids are looked up inside the header's company: another company's answer 404.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { SegmentCountRequest, SegmentCreate, SegmentPatch } from '../../../contract/segments';
import { access } from '../../core/access';
import { notFound } from '../../core/errors';
import { actorOf } from './routes';
import type { SegmentService } from './segments';

type IdParams = { Params: { id: string } };

function pathId(request: FastifyRequest<IdParams>): number {
  const { id } = request.params;
  if (!/^\d{1,9}$/.test(id)) throw notFound();
  return Number(id);
}

export function segmentRoutes(app: FastifyInstance, segments: SegmentService): void {
  const view = { access: access.company('chats', 'view') };
  const manage = { access: access.company('chats', 'manage') };

  app.get('/api/segments/', { config: view }, async (request) => segments.list(request.company!.id));

  app.post<{ Body: z.input<typeof SegmentCreate> }>('/api/segments/', { schema: { body: SegmentCreate }, config: manage }, async (request, reply) =>
    reply.code(201).send(await segments.create(request.company!.id, request.user?.id ?? null, request.body as z.output<typeof SegmentCreate>)),
  );

  // A count is a read: whoever sees contacts may preview one.
  app.post<{ Body: z.input<typeof SegmentCountRequest> }>('/api/segments/count/', { schema: { body: SegmentCountRequest }, config: view }, async (request) =>
    segments.countOf(actorOf(request), (request.body as z.output<typeof SegmentCountRequest>).conditions),
  );

  app.get<IdParams>('/api/segments/:id/', { config: view }, async (request) => segments.get(request.company!.id, pathId(request)));

  app.patch<IdParams & { Body: z.input<typeof SegmentPatch> }>('/api/segments/:id/', { schema: { body: SegmentPatch }, config: manage }, async (request) =>
    segments.update(request.company!.id, pathId(request), request.body as z.output<typeof SegmentPatch>),
  );

  app.delete<IdParams>('/api/segments/:id/', { config: manage }, async (request, reply) => {
    await segments.remove(request.company!.id, pathId(request));
    return reply.code(204).send();
  });

  app.get<IdParams>('/api/segments/:id/count/', { config: view }, async (request) => segments.count(actorOf(request), pathId(request)));
}
