/**
 * Team plugin: members (list, role change, removal), invites (bulk, list, revoke), the
 * per-company role permissions, and the caller's profile avatar. Accepting invites lives in the
 * accounts plugin.
 *
 * Needs: the database, config, clock, e-mail sender (invitation mails), realtime hub (a removed
 * member's sockets), media storage (avatars), the plan limits (members and open invites).
 * Gives: routes only.
 */
import { coreServices, defineServerPlugin } from '../../core/plugins';
import { InviteService } from './invites';
import { MemberService } from './members';
import { ProfileService } from './profiles';
import { RolePermissionService } from './rolePermissions';
import { teamRoutes } from './routes';

export const teamPlugin = defineServerPlugin({
  id: 'team',
  deps: {
    http: coreServices.http,
    db: coreServices.database,
    config: coreServices.config,
    clock: coreServices.clock,
    email: coreServices.emailSender,
    realtime: coreServices.realtime,
    mediaStorage: coreServices.mediaStorage,
    planLimits: coreServices.planLimits,
  },
  init({ http, db, config, clock, email, realtime, mediaStorage, planLimits }) {
    const members = new MemberService(db, realtime);
    teamRoutes(http, {
      members,
      invites: new InviteService({ db, config, clock, email, members, planLimits }),
      permissions: new RolePermissionService(db, realtime),
      profiles: new ProfileService(db, mediaStorage),
    });
  },
});
