/**
 * This plugin's part of the generated tenant-isolation test (server/testing/isolation/areas.ts).
 * The world's memberships and invites are its data: A's calls name B's agent membership and invite.
 */
import type { IsolationArea } from '../../testing/isolation/areas';

/** A 1×1 PNG as a data URL (avatars). */
const PIXEL = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

export const teamIsolation: IsolationArea = {
  name: 'team',
  routes: {
    'GET /api/members/': { allowed: [200] },
    'PATCH /api/members/:id/': { params: (w) => ({ id: w.B.agentMembership }), body: () => ({ role_id: 'manager' }) },
    'DELETE /api/members/:id/': { params: (w) => ({ id: w.B.agentMembership }) },
    'GET /api/invites/': { allowed: [200] },
    'POST /api/invites/bulk/': { body: () => ({ invites: [{ email: 'new-person@alpha.test', role_id: 'agent' }] }), allowed: [201] },
    'DELETE /api/invites/:id/': { params: (w) => ({ id: w.B.inviteId }) },
    'GET /api/permissions/': { allowed: [200] },
    // Role ids are not a company's: A's header scopes the change to A (B's rows are checked unchanged).
    'PATCH /api/permissions/:role_id/': { params: () => ({ role_id: 'agent' }), body: () => ({ permissions: { can_view_stats: false } }), allowed: [200] },
    'POST /api/profiles/': { body: () => ({ avatar: PIXEL }), allowed: [200] },
  },
};
