/**
 * Stats plugin (issue #14): the dashboard's figures of today and /stats over a date range,
 * computed by SQL (./service.ts); vocabulary in contract/stats.ts. No tables of its own: it reads
 * rooms, messages, tags, channels and broadcasts (indexes of migration 0014).
 *
 * Needs: the broadcasts plugin's messaging-limit usage (a channel's health). Gives: its routes only.
 */
import { coreServices, defineServerPlugin } from '../../core/plugins';
import { messagingLimitsRef } from '../broadcasts';
import { statsRoutes } from './routes';
import { StatsService } from './service';

export const statsPlugin = defineServerPlugin({
  id: 'stats',
  deps: { http: coreServices.http, db: coreServices.database, clock: coreServices.clock, messagingLimits: messagingLimitsRef },
  init({ http, db, clock, messagingLimits }) {
    statsRoutes(http, new StatsService({ db, clock, messagingLimits }));
  },
});
