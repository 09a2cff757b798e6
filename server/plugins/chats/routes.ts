/** REST helpers of the inbox: the tag list (spec §7 GET /api/tags/) and a room's older messages for non-socket clients. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Paged } from '../../../contract/api';
import type { Message, Tag } from '../../../contract/chats';
import { currentUser, requireUser } from '../../core/auth/requireUser';
import { forbidden, notFound, validationError } from '../../core/errors';
import { requireCompany, requirePermission } from '../../core/tenancy/requireCompany';
import { ChatError, type ChatActor, type ChatService } from './service';

export function requestActor(request: FastifyRequest): ChatActor {
  const user = currentUser(request);
  return {
    userId: user.id,
    email: user.email,
    name: user.firstName || user.email,
    companyId: request.company!.id,
    role: request.membership!.role,
  };
}

const MessagesQuery = z.object({
  before_id: z.coerce.number().int().positive().optional(),
  before: z.string().max(40).optional(),
});

export function chatRoutes(app: FastifyInstance, chats: ChatService): void {
  const guard = [requireUser, requireCompany, requirePermission('chats', 'view')];

  app.get('/api/tags/', { onRequest: guard }, async (request): Promise<Paged<Tag>> => {
    const results = await chats.listTags(requestActor(request));
    return { count: results.length, next: null, previous: null, results };
  });

  app.get<{ Params: { id: string }; Querystring: z.infer<typeof MessagesQuery> }>(
    '/api/chats/rooms/:id/messages/',
    { onRequest: guard, schema: { querystring: MessagesQuery } },
    async (request): Promise<{ messages: Message[]; has_more: boolean }> => {
      if (!/^\d{1,9}$/.test(request.params.id)) throw notFound();
      try {
        const room = await chats.accessibleRoom(requestActor(request), Number(request.params.id));
        return await chats.olderMessages(room.id, { id: request.query.before_id, timestamp: request.query.before });
      } catch (err) {
        if (err instanceof ChatError) {
          if (err.reason === 'forbidden') throw forbidden();
          if (err.errors) throw validationError(err.errors);
          throw notFound();
        }
        throw err;
      }
    },
  );
}
