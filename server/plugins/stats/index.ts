/**
 * Stats plugin (issue #14): the dashboard's figures of today and /stats over a date range,
 * computed by SQL (./service.ts); vocabulary in contract/stats.ts. No tables of its own: it reads
 * rooms, messages, tags, channels and broadcasts (indexes of migration 0014).
 */
import type { FastifyInstance } from 'fastify';
import { statsRoutes } from './routes';
import { StatsService } from './service';

export function statsService(app: FastifyInstance): StatsService {
  return new StatsService({ db: app.services.get('Database'), clock: app.services.get('Clock') });
}

export default async function statsPlugin(app: FastifyInstance): Promise<void> {
  statsRoutes(app, statsService(app));
}
