/**
 * Issue #22's REST routes of private notes, notifications and message search (contract/notes.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { Message } from '../../../contract/chats';
import { MESSAGE_SEARCH_PAGE_SIZE, MessageSearchQuery, NOTIFICATION_PAGE_SIZE, NoteBody, NotificationListQuery, type MessageSearchResult, type Notification } from '../../../contract/notes';
import type { Paged } from '../../../contract/api';
import { access } from '../../core/access';
import { notFound } from '../../core/errors';
import { paged } from '../../core/paging';
import { requestActor } from './routes';
import { restError } from './statusRoutes';
import type { ChatService } from './service';

const ID = /^\d{1,9}$/;

export function noteRoutes(app: FastifyInstance, chats: ChatService): void {
  app.post<{ Params: { id: string }; Body: NoteBody }>(
    '/api/rooms/:id/notes/',
    { config: { access: access.company('chats', 'manage') }, schema: { body: NoteBody } },
    async (request, reply): Promise<Message> => {
      if (!ID.test(request.params.id)) throw notFound();
      const actor = requestActor(request);
      try {
        const room = await chats.accessibleRoom(actor, Number(request.params.id));
        const note = await chats.notes.add(actor, room, request.body.text);
        reply.code(201);
        return note;
      } catch (err) {
        throw restError(err);
      }
    },
  );

  app.get<{ Querystring: z.output<typeof NotificationListQuery> }>(
    '/api/notifications/',
    { config: { access: access.company('chats', 'view') }, schema: { querystring: NotificationListQuery } },
    async (request): Promise<Paged<Notification>> => {
      const { page, unread } = request.query;
      const { count, results } = await chats.notifications.list(request.company!.id, requestActor(request).userId, { page, unread: unread === 'true' });
      return paged(request.url, { page, pageSize: NOTIFICATION_PAGE_SIZE }, count, results);
    },
  );

  app.post<{ Params: { id: string } }>(
    '/api/notifications/:id/read/',
    { config: { access: access.company('chats', 'view') } },
    async (request): Promise<Notification> => {
      if (!ID.test(request.params.id)) throw notFound();
      try {
        return await chats.notifications.markRead(request.company!.id, requestActor(request).userId, Number(request.params.id));
      } catch (err) {
        throw restError(err);
      }
    },
  );

  app.get<{ Querystring: z.output<typeof MessageSearchQuery> }>(
    '/api/messages/search/',
    { config: { access: access.company('chats', 'view') }, schema: { querystring: MessageSearchQuery } },
    async (request): Promise<Paged<MessageSearchResult>> => {
      const { q, page } = request.query;
      const actor = requestActor(request);
      const { count, results } = await chats.messageSearch.search(actor.companyId, await chats.restrictedEmail(actor), q, page);
      return paged(request.url, { page, pageSize: MESSAGE_SEARCH_PAGE_SIZE }, count, results);
    },
  );
}
