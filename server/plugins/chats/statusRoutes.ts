/**
 * The public contract of conversations (issue #22, contract/conversations.ts): the room list with its
 * status and assignee filters, its counts, and PATCH of a room's status, snooze and assignee. The list
 * is the inbox's own fetch_rooms query (./roomQueries.ts) over every channel of the company.
 */
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { Room } from '../../../contract/chats';
import { ChatMemberListQuery, RoomCountsQuery, RoomListQuery, RoomUpdateBody, type ChatMember, type RoomCounts, type RoomListResponse } from '../../../contract/conversations';
import type { Paged } from '../../../contract/api';
import { access } from '../../core/access';
import { forbidden, notFound, validationError } from '../../core/errors';
import { paged } from '../../core/paging';
import { requestActor } from './routes';
import { ChatError, type ChatService } from './service';

/** A ChatError as the REST answer: forbidden 403, a field problem 400, anything else (another company's room) 404. */
export function restError(err: unknown): unknown {
  if (!(err instanceof ChatError)) return err;
  if (err.reason === 'forbidden') return forbidden();
  if (err.errors) return validationError(err.errors);
  return notFound();
}

export function roomStatusRoutes(app: FastifyInstance, chats: ChatService): void {
  app.get<{ Querystring: z.output<typeof RoomListQuery> }>(
    '/api/rooms/',
    { config: { access: access.company('chats', 'view') }, schema: { querystring: RoomListQuery } },
    async (request): Promise<RoomListResponse> => {
      const { status, assignee, search, page, page_size, pages } = request.query;
      const actor = requestActor(request);
      const query = { status, assignee, search, pages, pageSize: page_size };
      const [count, results] = await Promise.all([chats.countRooms(actor, null, query), chats.fetchRooms(actor, null, { ...query, page })]);
      return paged(request.url, { page, pageSize: page_size }, count, results);
    },
  );

  app.get<{ Querystring: z.output<typeof RoomCountsQuery> }>(
    '/api/rooms/counts/',
    { config: { access: access.company('chats', 'view') }, schema: { querystring: RoomCountsQuery } },
    async (request): Promise<RoomCounts> => chats.roomCounts(requestActor(request), request.query.pages),
  );

  // The members an agent assigns and mentions (./chatMembers.ts): chats view, not members view.
  app.get<{ Querystring: z.output<typeof ChatMemberListQuery> }>(
    '/api/chats/members/',
    { config: { access: access.company('chats', 'view') }, schema: { querystring: ChatMemberListQuery } },
    async (request): Promise<Paged<ChatMember>> => {
      const { page, page_size, search } = request.query;
      const { count, results } = await chats.members.list(requestActor(request).companyId, search, { page, pageSize: page_size });
      return paged(request.url, { page, pageSize: page_size }, count, results);
    },
  );

  app.patch<{ Params: { id: string }; Body: RoomUpdateBody }>(
    '/api/rooms/:id/',
    { config: { access: access.company('chats', 'manage') }, schema: { body: RoomUpdateBody } },
    async (request): Promise<Room> => {
      if (!/^\d{1,9}$/.test(request.params.id)) throw notFound();
      const actor = requestActor(request);
      try {
        const room = await chats.accessibleRoom(actor, Number(request.params.id));
        await chats.statuses.update(room, request.body, actor.userId);
        return await chats.roomDetail((await chats.roomRecord(room.id))!, actor.userId);
      } catch (err) {
        throw restError(err);
      }
    },
  );
}
