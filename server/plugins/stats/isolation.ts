/**
 * This plugin's part of the generated tenant-isolation test (server/testing/isolation/areas.ts).
 * The stats routes only read: the world's rooms, messages, channels and broadcasts (B's marked)
 * are their data, so the area seeds nothing. A's calls name B's channel in the query (404), and
 * A's own figures never carry B's names.
 */
import type { IsolationArea } from '../../testing/isolation/areas';

export const statsIsolation: IsolationArea = {
  name: 'stats',
  seed: async () => ({}),
  snapshot: async () => [],
  routes: {
    'GET /api/stats/dashboard/': { query: () => ({ tz: 'Europe/Paris' }), allowed: [200] },
    'GET /api/stats/': { query: (w) => ({ from: '2020-01-01', to: '2020-12-31', tz: 'UTC', channel: String(w.B.whatsappChannelId) }) },
  },
};
