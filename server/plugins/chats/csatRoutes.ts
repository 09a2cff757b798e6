/**
 * CSAT's switch per channel (issue #22, contract/csat.ts): on the channel's card on the channels page,
 * like auto-assignment: read with chats view, changed by whoever may manage channels.
 */
import type { FastifyInstance } from 'fastify';
import { CsatSettingBody, type CsatSetting, type CsatSettingList } from '../../../contract/csat';
import { access } from '../../core/access';
import { notFound } from '../../core/errors';
import { requestActor } from './routes';
import type { ChatService } from './service';

export function csatRoutes(app: FastifyInstance, chats: ChatService): void {
  app.get('/api/csat/', { config: { access: access.company('chats', 'view') } }, async (request): Promise<CsatSettingList> => {
    const results = await chats.csat.settings(requestActor(request).companyId);
    return { count: results.length, results };
  });

  app.put<{ Params: { channel_id: string }; Body: CsatSettingBody }>(
    '/api/csat/:channel_id/',
    { config: { access: access.company('channels', 'manage') }, schema: { body: CsatSettingBody } },
    async (request): Promise<CsatSetting> => {
      const id = request.params.channel_id;
      if (!/^\d{1,9}$/.test(id) || Number(id) < 1) throw notFound();
      return chats.csat.setEnabled(requestActor(request).companyId, Number(id), request.body.enabled);
    },
  );
}
