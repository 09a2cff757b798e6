/**
 * Permission semantics shared by the console and the server (spec §6).
 * View access is `can_view_{area}` and is true when the flag is absent;
 * manage access is true only when `can_manage_{area}` is true, the key compared case-insensitively.
 */

export const PERMISSION_AREAS = [
  'dashboard',
  'channels',
  'flows',
  'chats',
  'stats',
  'members',
  'billing',
  'your_account',
  'resources',
  'pricing',
  'whatsapp_templates',
  'permissions',
  'assistant',
] as const;

export type PermissionArea = (typeof PERMISSION_AREAS)[number];

/** `can_view_*` / `can_manage_*` flags of one membership. Unknown keys are kept (forward compatible). */
export type PermissionMap = Record<string, boolean>;

export const ROLE_IDS = ['admin', 'manager', 'agent'] as const;
export type RoleId = (typeof ROLE_IDS)[number];
export const DEFAULT_ROLE: RoleId = 'agent';

export const ROLE_NAMES: Record<RoleId, string> = { admin: 'Admin', manager: 'Manager', agent: 'Agent' };

/** Route names whose access is checked under another area (spec §2: pricing → billing, team → members). */
export const ROUTE_AREA_ALIASES: Record<string, string> = { pricing: 'billing', team: 'members' };

export function normalizeRole(role: string | null | undefined): RoleId {
  const r = (role ?? '').toLowerCase();
  return (ROLE_IDS as readonly string[]).includes(r) ? (r as RoleId) : DEFAULT_ROLE;
}

function lookup(permissions: PermissionMap | null | undefined, key: string): boolean | undefined {
  if (!permissions) return undefined;
  // Every key is spelled in lower case in practice: answered without a scan (checked on every request).
  const exact = permissions[key];
  if (exact !== undefined) return exact;
  const wanted = key.toLowerCase();
  for (const [k, v] of Object.entries(permissions)) {
    if (k.toLowerCase() === wanted) return v;
  }
  return undefined;
}

/** View access: the value of `can_view_{area}`, true when absent. */
export function canView(permissions: PermissionMap | null | undefined, area: string): boolean {
  const resolved = ROUTE_AREA_ALIASES[area] ?? area;
  const value = lookup(permissions, `can_view_${resolved}`);
  return value === undefined ? true : value === true;
}

/** Manage access: true only if `can_manage_{area}` is exactly true (key compared case-insensitively). */
export function canManage(permissions: PermissionMap | null | undefined, area: string): boolean {
  const resolved = ROUTE_AREA_ALIASES[area] ?? area;
  return lookup(permissions, `can_manage_${resolved}`) === true;
}

function allFlags(view: (a: PermissionArea) => boolean, manage: (a: PermissionArea) => boolean): PermissionMap {
  const map: PermissionMap = {};
  for (const area of PERMISSION_AREAS) {
    map[`can_view_${area}`] = view(area);
    map[`can_manage_${area}`] = manage(area);
  }
  return map;
}

const MANAGER_CANNOT_MANAGE: PermissionArea[] = ['billing', 'pricing', 'permissions', 'your_account'];
const AGENT_CAN_VIEW: PermissionArea[] = ['dashboard', 'chats', 'flows', 'resources', 'your_account', 'stats', 'channels', 'whatsapp_templates', 'assistant'];
const AGENT_CAN_MANAGE: PermissionArea[] = ['chats'];

/** Defaults per role; a company may override them per role (Permissions page). */
export function defaultPermissions(role: RoleId): PermissionMap {
  switch (role) {
    case 'admin':
      return allFlags(() => true, () => true);
    case 'manager':
      return allFlags(
        (a) => a !== 'permissions',
        (a) => !MANAGER_CANNOT_MANAGE.includes(a),
      );
    case 'agent':
    default:
      return allFlags(
        (a) => AGENT_CAN_VIEW.includes(a),
        (a) => AGENT_CAN_MANAGE.includes(a),
      );
  }
}
