/**
 * This plugin's part of the generated tenant-isolation test (server/testing/isolation/areas.ts).
 * The world's companies are its data: A's calls name B's company id.
 */
import type { IsolationArea } from '../../testing/isolation/areas';

export const companiesIsolation: IsolationArea = {
  name: 'companies',
  routes: {
    'POST /api/companies/': { body: () => ({ name: 'Created by A' }), allowed: [201] },
    'GET /api/companies/:id/account/': { params: (w) => ({ id: w.B.id }) },
    'PATCH /api/companies/:id/': { params: (w) => ({ id: w.B.id }), body: () => ({ name: 'Renamed by A' }) },
    'GET /api/roles/': { allowed: [200] },
  },
};
