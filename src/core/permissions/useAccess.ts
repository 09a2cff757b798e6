import { permissionApiRef } from '../apis';
import { useAccount } from '../account/useAccount';
import { useApi } from '../di/ApiProvider';

/** View/manage access of the selected company for an area (e.g. 'members'); updates on company change. */
export function useAccess(area: string): { canView: boolean; canManage: boolean } {
  const permissions = useApi(permissionApiRef);
  useAccount(); // re-render when the company (and so the permissions) change
  return { canView: permissions.canView(area), canManage: permissions.canManage(area) };
}
