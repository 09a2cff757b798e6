/**
 * This plugin's part of the generated tenant-isolation test (server/testing/isolation/areas.ts).
 * The world's sandbox channels are its data: the simulator's own routes are checked as signed URLs.
 */
import type { IsolationArea } from '../../testing/isolation/areas';

export const sandboxIsolation: IsolationArea = {
  name: 'sandbox',
  routes: {
    'GET /api/sandbox/': { allowed: [200] },
  },
};
