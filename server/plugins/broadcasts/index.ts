/**
 * Broadcasts plugin (issue #11): one approved WhatsApp template sent to many customers.
 * This folder: the API (./routes.ts, ./service.ts), audiences (./audience: contacts filter, CSV
 * rules, exclusions, messaging limit), the report, the demo (./demo.ts) and the tables
 * (./schema.ts). The sending engine (job queue, pacing, Meta calls, delivery webhooks, opt-outs)
 * lives in ./engine and is reached through ./engineApi.ts. Status and counter changes reach open
 * consoles as `broadcast_update` on the channel's `page:{id}` topic (company-scoped).
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import type { Services } from '../../core/services';
import { broadcastEngine } from './engineApi';
import { createBroadcastEngine } from './engine';
import { broadcastRoutes } from './routes';
import { BroadcastService } from './service';
import { broadcasts } from './schema';
import { chatKeyOf, mediaReferences } from '../../providers/storage/sweeper';

const services = new WeakMap<Services, BroadcastService>();

/** The app's broadcast service (tests and the demo reach it). */
export function broadcastService(app: FastifyInstance): BroadcastService {
  const existing = services.get(app.services);
  if (existing) return existing;
  const service = new BroadcastService({
    db: app.services.get('Database'),
    clock: app.services.get('Clock'),
    engine: () => broadcastEngine(app),
    push: (channelId, event, payload) => app.realtime.broadcast(`page:${channelId}`, event, payload),
    storage: () => app.services.get('MediaStorage'),
  });
  services.set(app.services, service);
  return service;
}

export default async function broadcastsPlugin(app: FastifyInstance): Promise<void> {
  broadcastRoutes(app, broadcastService(app));
  createBroadcastEngine(app);
  // The form uploads a media header through the chat presigned URL; a broadcast may be scheduled days ahead
  // and its report shows the header afterwards: kept while a broadcast names it.
  mediaReferences(app).add('broadcasts.header_media_url', sql`SELECT ${chatKeyOf(broadcasts.headerMediaUrl)} AS key FROM ${broadcasts}`);
}
