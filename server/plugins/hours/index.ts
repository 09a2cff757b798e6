/**
 * Hours plugin (issue #22): a company's business hours and away message (contract/businessHours.ts),
 * GET/PUT /api/business-hours/, and the away message as the inbound pipeline's last handler (order
 * 300: after flows 100, the assistant 150 and bots 200, so a message one of them answers gets none).
 *
 * Needs: the chat service (the away message is the room's bot message) and chats' inbound pipeline.
 */
import type { FastifyInstance } from 'fastify';
import { coreExtensionPoints, coreServices, createServiceRef, defineServerPlugin } from '../../core/plugins';
import { chatServiceRef, inboundPipelineExtensionPoint } from '../chats';
import { seedDemoHours } from './demo';
import { hoursRoutes } from './routes';
import { HoursService } from './service';

export const hoursServiceRef = createServiceRef<HoursService>({ id: 'hours.service' });
export type { HoursService };

/** The app's hours service (tests). */
export function hoursService(app: FastifyInstance): HoursService {
  return app.services.get(hoursServiceRef);
}

export const hoursPlugin = defineServerPlugin({
  id: 'hours',
  deps: {
    http: coreServices.http,
    db: coreServices.database,
    clock: coreServices.clock,
    demoData: coreExtensionPoints.demoData,
    chats: chatServiceRef,
    pipeline: inboundPipelineExtensionPoint,
  },
  provides: { hours: hoursServiceRef },
  init({ http, db, clock, demoData, chats, pipeline }) {
    const hours = new HoursService({ db, clock, chats });
    hoursRoutes(http, hours);
    pipeline.add({ id: 'away-message', order: 300, handle: (room, message) => hours.answer(room, message) });
    demoData.add({ id: 'business-hours', order: 130, phase: 'withCompanies', seed: ({ tx, companyIds }) => seedDemoHours(tx, companyIds.demo) });
    return { hours };
  },
});
