import { PERMISSION_AREAS, type PermissionArea, type PermissionMap, type RoleId } from '../../../contract/permissions';

export type PermissionAction = 'view' | 'manage';

/** The flag key of an area, e.g. `can_view_dashboard`. */
export function flagKey(action: PermissionAction, area: string): string {
  return `can_${action}_${area}`;
}

/**
 * One cell of the matrix, read as spec §6 reads it (keys compared case-insensitively): view is true
 * when absent, manage only when exactly true. The area is taken literally (no route alias), since
 * the matrix shows every stored flag, pricing and billing included.
 */
export function readFlag(map: PermissionMap | undefined, action: PermissionAction, area: string): boolean {
  const wanted = flagKey(action, area).toLowerCase();
  const entry = Object.entries(map ?? {}).find(([k]) => k.toLowerCase() === wanted);
  if (!entry) return action === 'view';
  return entry[1] === true;
}

/**
 * Sets one cell and keeps the pair consistent: managing an area implies viewing it, and no longer
 * viewing an area drops managing it.
 */
export function setFlag(map: PermissionMap, action: PermissionAction, area: string, value: boolean): PermissionMap {
  const next = { ...fullMap(map) };
  next[flagKey(action, area)] = value;
  if (action === 'manage' && value) next[flagKey('view', area)] = true;
  if (action === 'view' && !value) next[flagKey('manage', area)] = false;
  return next;
}

/** Every area's two flags, as the matrix shows them (what a save sends). */
export function fullMap(map: PermissionMap | undefined, areas: readonly string[] = PERMISSION_AREAS): PermissionMap {
  const out: PermissionMap = {};
  for (const area of areas) {
    out[flagKey('view', area)] = readFlag(map, 'view', area);
    out[flagKey('manage', area)] = readFlag(map, 'manage', area);
  }
  return out;
}

/** True when the two maps differ in any cell of the matrix. */
export function differs(a: PermissionMap | undefined, b: PermissionMap | undefined): boolean {
  const fa = fullMap(a);
  const fb = fullMap(b);
  return Object.keys(fa).some((k) => fa[k] !== fb[k]);
}

export type { PermissionArea, RoleId };
