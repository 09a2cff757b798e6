/**
 * Routes of the contacts plugin (issue #23), bearer token plus the `Company` header, in the `chats`
 * permission area (view reads, manage writes):
 *   GET, POST /api/contacts/            the list (spec §3's contact search, paged) and a new contact (409 with the existing id)
 *   GET /api/contacts/export/           the filtered list as text/csv
 *   GET, PATCH, DELETE /api/contacts/{id}/
 *   GET /api/rooms/{id}/contact/        the contact of a room (the inbox's contact panel)
 *   GET, POST /api/contact-attributes/, PATCH, DELETE /api/contact-attributes/{id}/
 * The list and the export also take `segment={id}` and `attr.<key>=value` (./segmentRoutes.ts has the segments).
 * Ids are looked up inside the header's company (and a limited member's own rooms): others answer 404.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  ContactAttributeCreate,
  ContactAttributePatch,
  ContactCreate,
  ContactExportQuery,
  ContactListQuery,
  ContactPatch,
  type ContactCreateBody,
  type ContactPatchBody,
} from '../../../contract/contacts';
import type { SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { access } from '../../core/access';
import { currentUser } from '../../core/auth/requireUser';
import { notFound } from '../../core/errors';
import { ContactExistsError, type ContactService } from './service';
import type { ContactActor } from './visibility';

type IdParams = { Params: { id: string } };

function pathId(request: FastifyRequest<IdParams>): number {
  const { id } = request.params;
  if (!/^\d{1,9}$/.test(id)) throw notFound();
  return Number(id);
}

export function actorOf(request: FastifyRequest): ContactActor {
  const user = currentUser(request);
  return { companyId: request.company!.id, userId: user.id, email: user.email, role: request.membership!.role };
}

/** 409 `{detail, code: 'contact_exists', id}`: the caller can open the contact that has the phone or external id. */
async function orConflict<T>(reply: FastifyReply, run: () => Promise<T>): Promise<T | FastifyReply> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof ContactExistsError) return reply.code(409).send({ detail: err.detail, code: 'contact_exists', id: err.id });
    throw err;
  }
}

/** The list's and the export's filters beside the search: `segment` and `attr.<key>=value` (./segments.ts). */
export type ContactListFilters = (companyId: number, segmentId: number | undefined, url: string) => Promise<SQL[]>;

export function contactRoutes(app: FastifyInstance, contacts: ContactService, filters: ContactListFilters = async () => []): void {
  const view = { access: access.company('chats', 'view') };
  const manage = { access: access.company('chats', 'manage') };

  app.get<{ Querystring: z.input<typeof ContactListQuery> }>('/api/contacts/', { schema: { querystring: ContactListQuery }, config: view }, async (request) =>
    contacts.list(actorOf(request), request.query as unknown as ContactListQuery, request.url, await filters(request.company!.id, (request.query as unknown as ContactListQuery).segment, request.url)),
  );

  app.post<{ Body: z.input<typeof ContactCreate> }>('/api/contacts/', { schema: { body: ContactCreate }, config: manage }, async (request, reply) =>
    orConflict(reply, async () => reply.code(201).send(await contacts.create(actorOf(request), request.body as ContactCreateBody))),
  );

  app.get<{ Querystring: z.input<typeof ContactExportQuery> }>('/api/contacts/export/', { schema: { querystring: ContactExportQuery }, config: view }, async (request, reply) => {
    const query = request.query as unknown as ContactExportQuery;
    const csv = await contacts.exportCsv(actorOf(request), query, await filters(request.company!.id, query.segment, request.url));
    return reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="contacts.csv"').send(csv);
  });

  app.get<IdParams>('/api/contacts/:id/', { config: view }, async (request) => contacts.get(actorOf(request), pathId(request)));

  app.patch<IdParams & { Body: z.input<typeof ContactPatch> }>('/api/contacts/:id/', { schema: { body: ContactPatch }, config: manage }, async (request, reply) =>
    orConflict(reply, () => contacts.update(actorOf(request), pathId(request), request.body as ContactPatchBody)),
  );

  app.delete<IdParams>('/api/contacts/:id/', { config: manage }, async (request, reply) => {
    await contacts.remove(actorOf(request), pathId(request));
    return reply.code(204).send();
  });

  app.get<IdParams>('/api/rooms/:id/contact/', { config: view }, async (request) => contacts.forRoom(actorOf(request), pathId(request)));

  app.get('/api/contact-attributes/', { config: view }, async (request) => {
    const results = await contacts.attributes.list(request.company!.id);
    return { count: results.length, next: null, previous: null, results };
  });

  app.post<{ Body: z.input<typeof ContactAttributeCreate> }>('/api/contact-attributes/', { schema: { body: ContactAttributeCreate }, config: manage }, async (request, reply) =>
    reply.code(201).send(await contacts.attributes.create(request.company!.id, request.body as z.output<typeof ContactAttributeCreate>)),
  );

  app.patch<IdParams & { Body: z.input<typeof ContactAttributePatch> }>('/api/contact-attributes/:id/', { schema: { body: ContactAttributePatch }, config: manage }, async (request) =>
    contacts.attributes.update(request.company!.id, pathId(request), request.body as z.output<typeof ContactAttributePatch>),
  );

  app.delete<IdParams>('/api/contact-attributes/:id/', { config: manage }, async (request, reply) => {
    await contacts.attributes.remove(request.company!.id, pathId(request));
    return reply.code(204).send();
  });
}
