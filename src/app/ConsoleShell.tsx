/**
 * The signed-in console: react-admin's shell with every plugin (plugins.config.ts). main.tsx loads
 * this chunk lazily, only when a route outside /auth and /sandbox opens (after sign-in), so the
 * sign-in and sign-up pages never download the shell.
 */
import { startTransition, useEffect, useState } from 'react';
import { ConsoleApp, createShellConsole } from './App';
import { definedFeatures, enabledFeatures, plugins } from '../../plugins.config';
import type { Console } from '../core';
import { loadStartupFeatures } from '../core/features/startupFeatures';
import { warmRoute } from '../core/routing/warmRoute';

export default function ConsoleShell() {
  const [ready, setReady] = useState<{ console: Console; features: string[] } | null>(null);
  useEffect(() => {
    let cancelled = false;
    // The start-up keys: plugins.config.ts's, plus the server's CONSOLE_FEATURES override (GET /api/client-config/, H2 #13).
    void loadStartupFeatures({ defaults: enabledFeatures, defined: definedFeatures, apiBase: String(import.meta.env.VITE_API_BASE ?? '') }).then((features) => {
      if (cancelled) return; // React's development double effect: one console only
      const console = createShellConsole({ plugins, features });
      // The page it opens on (its code, its strings, what it shows first: a room's thread) before the first render,
      // so that it renders with the shell (core's warmRoute).
      return warmRoute(console, window.location.pathname).then(() => {
        // As a transition: mounting the console is the largest render of a load (about 300 ms at 4× CPU), which React
        // then renders in slices, the browser responsive between them (blocking time at 4× CPU down a quarter to a
        // third, bench/bundle README). The loading view stays until it is ready.
        if (!cancelled) startTransition(() => setReady({ console, features }));
      });
    });
    return () => {
      cancelled = true;
    };
  }, []);
  if (!ready) return <div role="progressbar" aria-label="Loading" aria-busy="true" style={{ minHeight: '100vh' }} />;
  return <ConsoleApp plugins={plugins} features={ready.features} prepared={ready.console} />;
}
