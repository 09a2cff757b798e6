import { matchRoutes } from 'react-router-dom';
import { ROUTE_AREA_ALIASES } from '../../../contract/permissions';
import type { MenuEntry, PluginResource, PluginRoute } from '../plugins/types';

export const DASHBOARD_PATH = '/dashboard';
export const LAST_RESORT_PATH = '/account';

interface RouteMatch {
  /** The permission area of the matched route (plugin routes by `area ?? name`, resources by their declared area). */
  area: string | null;
  /** The matched route's path pattern. */
  pattern: string;
}

type Matcher = (pathname: string) => RouteMatch | null;

/** Paths remembered per matcher: the menu's few, and the pages visited (room ids make many; the oldest go first). */
const REMEMBERED_PATHS = 500;
const matchers = new WeakMap<PluginRoute[], WeakMap<PluginResource[], Matcher>>();

/**
 * The shell's paths matched against the loaded plugins' routes and resources, once per path. react-router's
 * matchRoutes flattens and ranks the whole table on every call, and the side menu asked twice per entry
 * (isServedPath, routeAreaFor) on each render: about 40 ms of the shell's first render at 4× CPU (bench/bundle).
 */
function matcherFor(routes: PluginRoute[], resources: PluginResource[]): Matcher {
  let byResources = matchers.get(routes);
  if (!byResources) matchers.set(routes, (byResources = new WeakMap()));
  let matcher = byResources.get(resources);
  if (matcher) return matcher;
  const table = [
    ...routes.map((r) => ({ path: r.path, handle: (r.area ?? r.name) as string | null })),
    ...resources.map((r) => ({ path: `/${r.name}/*`, handle: r.area as string | null })),
  ];
  const known = new Map<string, RouteMatch | null>();
  matcher = (pathname) => {
    if (known.has(pathname)) return known.get(pathname)!;
    const last = matchRoutes(table, pathname)?.at(-1);
    const found = last ? { area: last.route.handle ?? null, pattern: last.route.path } : null;
    if (known.size >= REMEMBERED_PATHS) known.delete(known.keys().next().value!);
    known.set(pathname, found);
    return found;
  };
  byResources.set(resources, matcher);
  return matcher;
}

/**
 * The permission area of a shell path: plugin routes by `area ?? name` (the contract's aliases
 * turn 'team'/'pricing' into 'members'/'billing'), resources by their declared area.
 * null when no route matches (nothing to check).
 */
export function routeAreaFor(pathname: string, routes: PluginRoute[], resources: PluginResource[]): string | null {
  return matcherFor(routes, resources)(pathname)?.area ?? null;
}

/** The global guard's view check of a shell path (AccessGuard): allowed when no area applies or its area may be viewed. */
export function canViewPath(pathname: string, routes: PluginRoute[], resources: PluginResource[], canView: (area: string) => boolean): boolean {
  const area = routeAreaFor(pathname, routes, resources);
  return area === null || canView(area);
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

/**
 * Where a company switch lands (spec §2: only a user without view access to the current route goes
 * to '/'): the page the user was on, without what belonged to the old company — the path is cut
 * before its first route parameter (a room id, a member id) and the query is dropped, so
 * `/chats/42` becomes `/chats`. Unknown or missing paths go to the dashboard. The shell's access
 * guard then sends a user who may not view that page in the new company to '/'.
 */
export function pathAfterCompanySwitch(previous: string | null, routes: PluginRoute[], resources: PluginResource[]): string {
  if (!previous) return DASHBOARD_PATH;
  const pathname = previous.split(/[?#]/)[0];
  const match = matcherFor(routes, resources)(pathname);
  if (!match) return DASHBOARD_PATH;
  const pattern = match.pattern.split('/').filter(Boolean);
  const segments = pathname.split('/').filter(Boolean);
  const kept: string[] = [];
  for (const [index, part] of pattern.entries()) {
    if (part.startsWith(':') || part === '*' || index >= segments.length) break;
    kept.push(segments[index]);
  }
  return kept.length ? `/${kept.join('/')}` : DASHBOARD_PATH;
}

/**
 * The permission areas of the pages the loaded plugins serve (routes by `area ?? name`, with the
 * contract's aliases, and resources): menu entries, dashboard steps and permission rows of other
 * areas would lead nowhere.
 */
export function loadedAreas(routes: PluginRoute[], resources: PluginResource[]): Set<string> {
  const areas = [...routes.map((r) => r.area ?? r.name), ...resources.map((r) => r.area)];
  // both names: a 'pricing' page is checked as billing, yet the pricing flags belong to it too
  return new Set(areas.flatMap((area) => [area, ROUTE_AREA_ALIASES[area] ?? area]));
}

/** True when a loaded plugin serves `path` (a route or a resource): a link to it cannot end on "Not Found". */
export function isServedPath(path: string, routes: PluginRoute[], resources: PluginResource[]): boolean {
  return matcherFor(routes, resources)(path.split(/[?#]/)[0]) !== null;
}
