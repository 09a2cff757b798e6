import { matchRoutes } from 'react-router-dom';
import { accountApiRef, featureFlagsApiRef, i18nApiRef, permissionApiRef, sessionApiRef } from '../apis';
import { featureSatisfied } from '../features/featureFlags';
import type { Console } from '../plugins/createConsole';
import type { PluginRoute } from '../plugins/types';
import { hasUsableToken } from './guards';
import { isLazyPage } from './lazyPage';
import { canViewPath } from './routeAccess';

/**
 * How long the shell's first render waits for the page it opens on. Its chunks are preloaded from the HTML and the
 * socket opened by the entry, so they are mostly there; past this (a server that preloads nothing, a slow answer) the
 * shell shows itself and the page its own loading view, as before.
 */
export const WARM_ROUTE_MAX_MS = 1000;

/** The shell's guards (RequireSession, FeatureGate, AccessGuard) would let this route's page render. */
function guardsLetThrough(console: Pick<Console, 'get' | 'routes' | 'resources'>, route: PluginRoute, pathname: string): boolean {
  if (!hasUsableToken(console.get(sessionApiRef)) || !console.get(accountApiRef).getCompany()) return false;
  if (!featureSatisfied(console.get(featureFlagsApiRef), route.feature)) return false;
  const permissions = console.get(permissionApiRef);
  return canViewPath(pathname, console.routes, console.resources, (area) => permissions.canView(area));
}

/**
 * Asks for what the page a console opens on waits for before it renders, for the shell to wait for it before its
 * first render (src/app/ConsoleShell.tsx): the page's lazy chunk and its `pageReady` (the inbox's room view), the
 * strings of its plugin and its `translationsOf` plugins (pluginRoutes.tsx's PluginStrings), and its route's
 * `prefetch` (the room's join) when the guards would let it through; and the app bar's lazy items (the bell), which
 * every page shows. The page then renders with the shell, its data there. Otherwise it suspends: a fallback is shown,
 * and React holds the page back until 300 ms after it, chunks or no chunks; then it renders, and only then asks for
 * its data (bench/bundle README, the open room). Resolves when all settled, failures included (the page's own load
 * reports them), or after `maxMs`.
 */
export function warmRoute(console: Pick<Console, 'get' | 'routes' | 'resources' | 'appBarItems'>, pathname: string, maxMs = WARM_ROUTE_MAX_MS): Promise<void> {
  const loads: Promise<unknown>[] = [];
  const stopped = new AbortController();
  // The app bar's lazy items the user may view (the bell): every page shows them.
  if (hasUsableToken(console.get(sessionApiRef))) {
    const permissions = console.get(permissionApiRef);
    for (const item of console.appBarItems) if (isLazyPage(item.component) && (!item.area || permissions.canView(item.area))) loads.push(item.component.preload());
  }
  const match = matchRoutes(
    console.routes.map((route) => ({ path: route.path, route })),
    pathname,
  )?.at(-1);
  if (match) loads.push(...warmPage(console, match.route.route, match.params, pathname, stopped.signal));
  if (!loads.length) return Promise.resolve();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const cap = new Promise<void>((resolve) => (timer = setTimeout(resolve, maxMs)));
  return Promise.race([Promise.allSettled(loads), cap]).then(() => {
    clearTimeout(timer);
    stopped.abort();
  });
}

/** What one route's page waits for (see warmRoute). */
function warmPage(console: Pick<Console, 'get' | 'routes' | 'resources'>, route: PluginRoute, params: Record<string, string | undefined>, pathname: string, signal: AbortSignal): Promise<unknown>[] {
  const loads: Promise<unknown>[] = [console.get(i18nApiRef).loadBundles([...(route.plugin ? [route.plugin] : []), ...(route.translationsOf ?? [])])];
  // A page module's `pageReady`: what its first render needs beyond its own code (the inbox's open room view).
  if (isLazyPage(route.component)) loads.push(route.component.preload().then((page) => (page as { pageReady?: unknown }).pageReady));
  const { prefetch } = route;
  if (prefetch && guardsLetThrough(console, route, pathname)) loads.push(Promise.resolve().then(() => prefetch({ get: console.get, params, signal })));
  return loads;
}
