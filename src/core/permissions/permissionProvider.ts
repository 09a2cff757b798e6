import { canManage, canView } from '../../../contract/permissions';
import type { AccountStore, PermissionProvider } from '../apis';
import { resourceAccess } from './resourceAccess';

/** Access checks against the selected company's permissions (spec §6). */
export function createPermissionProvider(account: AccountStore): PermissionProvider {
  let resourceAreas: Record<string, string> = {};
  const permissions = () => account.getCompany()?.permissions;
  return {
    canView: (area) => canView(permissions(), area),
    canManage: (area) => canManage(permissions(), area),
    canAccess: (params) => resourceAccess(permissions(), resourceAreas, params),
    setResourceAreas(map) {
      resourceAreas = { ...map };
    },
  };
}
