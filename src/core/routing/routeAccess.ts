import { matchRoutes } from 'react-router-dom';
import type { MenuEntry, PluginResource, PluginRoute } from '../plugins/types';

export const DASHBOARD_PATH = '/dashboard';
export const LAST_RESORT_PATH = '/account';

/**
 * The permission area of a shell path: plugin routes by `area ?? name` (the contract's aliases
 * turn 'team'/'pricing' into 'members'/'billing'), resources by their declared area.
 * null when no route matches (nothing to check).
 */
export function routeAreaFor(pathname: string, routes: PluginRoute[], resources: PluginResource[]): string | null {
  const table = [
    ...routes.map((r) => ({ path: r.path, handle: r.area ?? r.name })),
    ...resources.map((r) => ({ path: `/${r.name}/*`, handle: r.area })),
  ];
  const matches = matchRoutes(table, pathname);
  return (matches?.at(-1)?.route.handle as string | undefined) ?? null;
}

/**
 * Where a denied navigation goes (spec §2 global guard): the previous path, else the dashboard,
 * else the first menu entry the user can view, else /account — never the denied path itself,
 * so there is no redirect loop. null when nothing is allowed (the guard then shows the message).
 */
export function fallbackPath(options: {
  current: string;
  previous: string | null;
  menu: MenuEntry[];
  isAllowed: (pathname: string) => boolean;
  /** After a company switch the user goes to '/' (the dashboard) first. */
  companyChanged?: boolean;
}): string | null {
  const { current, previous, menu, isAllowed, companyChanged } = options;
  const candidates = [
    ...(companyChanged ? [DASHBOARD_PATH] : []),
    previous,
    DASHBOARD_PATH,
    ...menu.map((m) => m.to),
    LAST_RESORT_PATH,
  ];
  for (const candidate of candidates) {
    if (!candidate) continue;
    const pathname = candidate.split(/[?#]/)[0];
    if (pathname !== current && isAllowed(pathname)) return candidate;
  }
  return null;
}
