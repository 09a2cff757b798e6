/**
 * Team plugin: members (list, role change, removal), invites (bulk, list, revoke), the
 * per-company role permissions, and the caller's profile avatar.
 * init(services) → services of the plugin → routes. Accepting invites lives in the accounts plugin.
 */
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../core/services';
import { InviteService } from './invites';
import { MemberService } from './members';
import { ProfileService } from './profiles';
import { RolePermissionService } from './rolePermissions';
import { teamRoutes, type TeamServices } from './routes';

export function init(services: Services): TeamServices {
  const db = services.get('Database');
  const members = new MemberService(db, services.get('RealtimeHub'));
  return {
    members,
    invites: new InviteService({ db, config: services.get('Config'), clock: services.get('Clock'), email: services.get('EmailSender'), members }),
    permissions: new RolePermissionService(db),
    profiles: new ProfileService(db, services.get('MediaStorage')),
  };
}

export default async function teamPlugin(app: FastifyInstance): Promise<void> {
  teamRoutes(app, init(app.services));
}
