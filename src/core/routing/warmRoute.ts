import { matchRoutes } from 'react-router-dom';
import { warmStrings } from '../i18n/warmStrings';
import type { ConsolePlugin } from '../plugins/types';
import { isLazyPage } from './lazyPage';

/**
 * Fetches what the page a console opens on waits for before it renders: its lazy chunk and the strings of its plugin
 * and its `translationsOf` plugins in this locale (pluginRoutes.tsx's PluginStrings). The shell waits for it before its
 * first render (src/app/ConsoleShell.tsx), so the page renders with the shell instead of suspending: a page that
 * suspends shows its fallback, and React then holds it back until 300 ms after that fallback, chunks or no chunks
 * (bench/bundle README, the open room). The server preloads these chunks from the HTML (route-preloads.json), so this
 * is mostly the modules' evaluation. Resolves when all settled, failures included: the page's own load reports them.
 */
export function warmRoute(plugins: readonly ConsolePlugin[], pathname: string, locale: string): Promise<void> {
  const routes = plugins.flatMap((plugin) => (plugin.routes ?? []).map((route) => ({ path: route.path, plugin, route })));
  const match = matchRoutes(routes, pathname)?.at(-1)?.route;
  if (!match) return Promise.resolve();
  const stringsOf = [match.plugin, ...(match.route.translationsOf ?? []).map((id) => plugins.find((p) => p.id === id))];
  const loads: Promise<unknown>[] = [];
  for (const plugin of stringsOf) {
    const loader = plugin?.lazyTranslations?.[locale] ?? plugin?.lazyTranslations?.en;
    if (loader) loads.push(warmStrings(loader));
  }
  // A page module's `pageReady`: what its first render needs beyond its own code (the inbox's open room view).
  if (isLazyPage(match.route.component)) loads.push(match.route.component.preload().then((page) => (page as { pageReady?: unknown }).pageReady));
  return Promise.allSettled(loads).then(() => undefined);
}
