/**
 * Stats plugin (issue #14): the dashboard's figures of today and /stats over a date range,
 * computed by SQL (./service.ts); vocabulary in contract/stats.ts. No tables of its own: it reads
 * rooms, messages, tags, channels and broadcasts (indexes of migration 0014).
 *
 * Needs: the broadcasts plugin's messaging-limit usage (a channel's health). Gives: its routes only.
 */
import { coreExtensionPoints, coreServices, defineServerPlugin } from '../../core/plugins';
import { messagingLimitsRef } from '../broadcasts';
import { statsRoutes } from './routes';
import { StatsService } from './service';
import { seedDemoStats } from './demo';

export const statsPlugin = defineServerPlugin({
  id: 'stats',
  deps: { demoData: coreExtensionPoints.demoData, http: coreServices.http, db: coreServices.database, clock: coreServices.clock, messagingLimits: messagingLimitsRef },
  init({ demoData, http, db, clock, messagingLimits }) {
    // The demo inbox's agent replies count as the demo agent's (per-agent figures on /stats).
    demoData.add({ id: 'stats', order: 300, phase: 'beforeListen', seed: ({ db, demo }) => seedDemoStats(db, demo.companies.demo.name, demo.agent.email) });
    statsRoutes(http, new StatsService({ db, clock, messagingLimits }));
  },
});
