import { canManage, canView, type PermissionMap } from '../../../contract/permissions';

/** react-admin actions that only read data; everything else (create, edit, delete, …) needs manage access. */
const VIEW_ACTIONS = new Set(['list', 'show', 'export', 'read', 'access']);

/**
 * react-admin `canAccess` semantics: list/show/export → view, create/edit/delete → manage, of the
 * resource's area. RA may ask about a field as `resource.field`: only the resource part matters.
 */
export function resourceAccess(
  permissions: PermissionMap | null | undefined,
  resourceAreas: Record<string, string>,
  params: { resource: string; action: string },
): boolean {
  const resource = params.resource.split('.')[0];
  const area = resourceAreas[resource] ?? resource;
  return VIEW_ACTIONS.has(params.action) ? canView(permissions, area) : canManage(permissions, area);
}
