/**
 * This plugin's part of the generated tenant-isolation test (server/testing/isolation/areas.ts).
 * The world's people and invitations (server/testing/isolation/world.ts) are its data: A's calls
 * carry B's refresh token and B's invitation ids.
 */
import type { IsolationArea } from '../../testing/isolation/areas';

export const accountsIsolation: IsolationArea = {
  name: 'accounts',
  routes: {
    // B's refresh token in A's logout: must not end B's session.
    'POST /account/logout/': { body: (w) => ({ refresh: w.B.admin.refresh }), allowed: [200, 400] },
    'GET /account/user/': { allowed: [200] },
    // A wrong old password: nothing changes, and nothing of B's is involved.
    'POST /account/password/change/': { body: () => ({ old_password: 'not-the-password-1', new_password1: 'Another-Strong-Pass-42', new_password2: 'Another-Strong-Pass-42' }), allowed: [400] },
    'GET /api/invitations/': { allowed: [200] },
    'POST /api/invitations/:id/accept/': { params: (w) => ({ id: w.B.inviteForInviteeId }) },
    'POST /api/invitations/:id/decline/': { params: (w) => ({ id: w.B.inviteForInviteeId }) },
  },
};
