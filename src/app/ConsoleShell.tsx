/**
 * The signed-in console: react-admin's shell with every plugin (plugins.config.ts). main.tsx loads
 * this chunk lazily, only when a route outside /auth and /sandbox opens (after sign-in), so the
 * sign-in and sign-up pages never download the shell.
 */
import { startTransition, useEffect, useState } from 'react';
import { ConsoleApp } from './App';
import { definedFeatures, enabledFeatures, plugins } from '../../plugins.config';
import { loadStartupFeatures } from '../core/features/startupFeatures';
import { savedLocale } from '../core/i18n/i18n';
import { warmRoute } from '../core/routing/warmRoute';

/**
 * How long the shell's first render waits for the page it opens on (warmRoute): its chunks are preloaded from the
 * HTML, so they are there by then; without that (a server that does not preload them), the shell shows itself
 * after this and the page's own loading view as before.
 */
export const WARM_ROUTE_MAX_MS = 1000;

function warmCurrentRoute(): Promise<void> {
  return Promise.race([warmRoute(plugins, window.location.pathname, savedLocale()), new Promise<void>((resolve) => setTimeout(resolve, WARM_ROUTE_MAX_MS))]);
}

export default function ConsoleShell() {
  // The start-up keys: plugins.config.ts's, plus the server's CONSOLE_FEATURES override (GET /api/client-config/, H2 #13).
  const [features, setFeatures] = useState<string[] | null>(null);
  useEffect(() => {
    // As a transition: mounting the console is the largest render of a load (about 300 ms at 4× CPU), which React
    // then renders in slices, the browser responsive between them (blocking time at 4× CPU down a quarter to a third,
    // bench/bundle README). The loading view stays until it is ready.
    // The page it opens on is fetched meanwhile, so that it renders with the shell (warmRoute).
    const warm = warmCurrentRoute();
    void loadStartupFeatures({ defaults: enabledFeatures, defined: definedFeatures, apiBase: String(import.meta.env.VITE_API_BASE ?? '') })
      .then((f) => warm.then(() => f))
      .then((f) => startTransition(() => setFeatures(f)));
  }, []);
  if (!features) return <div role="progressbar" aria-label="Loading" aria-busy="true" style={{ minHeight: '100vh' }} />;
  return <ConsoleApp plugins={plugins} features={features} />;
}
