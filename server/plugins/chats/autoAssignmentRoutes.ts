/**
 * Auto-assignment's settings (issue #22, contract/conversations.ts): a channel's switch (on its card
 * on the channels page: whoever may manage channels) and the members' capacities (on the team page:
 * whoever may manage members). The assignment itself: ./autoAssignment.ts.
 */
import type { FastifyInstance } from 'fastify';
import {
  AssignmentCapacityBody,
  AutoAssignmentBody,
  type AssignmentCapacity,
  type AssignmentCapacityList,
  type AutoAssignmentList,
  type AutoAssignmentSetting,
} from '../../../contract/conversations';
import { access } from '../../core/access';
import { notFound } from '../../core/errors';
import { requestActor } from './routes';
import type { ChatService } from './service';

function pathId(value: string): number {
  if (!/^\d{1,9}$/.test(value) || Number(value) < 1) throw notFound();
  return Number(value);
}

export function autoAssignmentRoutes(app: FastifyInstance, chats: ChatService): void {
  const auto = chats.autoAssignment;

  app.get('/api/auto-assignment/', { config: { access: access.company('chats', 'view') } }, async (request): Promise<AutoAssignmentList> => {
    const results = await auto.settings(requestActor(request).companyId);
    return { count: results.length, results };
  });

  app.put<{ Params: { channel_id: string }; Body: AutoAssignmentBody }>(
    '/api/auto-assignment/:channel_id/',
    { config: { access: access.company('channels', 'manage') }, schema: { body: AutoAssignmentBody } },
    async (request): Promise<AutoAssignmentSetting> => auto.setEnabled(requestActor(request).companyId, pathId(request.params.channel_id), request.body.enabled),
  );

  app.get('/api/assignment-capacities/', { config: { access: access.company('members', 'view') } }, async (request): Promise<AssignmentCapacityList> => {
    const results = await auto.capacities(requestActor(request).companyId);
    return { count: results.length, results };
  });

  app.put<{ Params: { user_id: string }; Body: AssignmentCapacityBody }>(
    '/api/assignment-capacities/:user_id/',
    { config: { access: access.company('members', 'manage') }, schema: { body: AssignmentCapacityBody } },
    async (request): Promise<AssignmentCapacity> => auto.setCapacity(requestActor(request).companyId, pathId(request.params.user_id), request.body.capacity),
  );
}
