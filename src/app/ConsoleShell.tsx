/**
 * The signed-in console: react-admin's shell with every plugin (plugins.config.ts). main.tsx loads
 * this chunk lazily, only when a route outside /auth and /sandbox opens (after sign-in), so the
 * sign-in and sign-up pages never download the shell.
 */
import { startTransition, useEffect, useState } from 'react';
import { ConsoleApp } from './App';
import { definedFeatures, enabledFeatures, plugins } from '../../plugins.config';
import { loadStartupFeatures } from '../core/features/startupFeatures';

export default function ConsoleShell() {
  // The start-up keys: plugins.config.ts's, plus the server's CONSOLE_FEATURES override (GET /api/client-config/, H2 #13).
  const [features, setFeatures] = useState<string[] | null>(null);
  useEffect(() => {
    // As a transition: mounting the console is the largest render of a load (about 300 ms at 4× CPU), and a
    // transition's render is done in slices between which the browser stays responsive, where this update's
    // default priority rendered it in one task (the page's longest, bench/bundle README). The loading view
    // stays until it is ready, as before.
    void loadStartupFeatures({ defaults: enabledFeatures, defined: definedFeatures, apiBase: String(import.meta.env.VITE_API_BASE ?? '') }).then((loaded) =>
      startTransition(() => setFeatures(loaded)),
    );
  }, []);
  if (!features) return <div role="progressbar" aria-label="Loading" aria-busy="true" style={{ minHeight: '100vh' }} />;
  return <ConsoleApp plugins={plugins} features={features} />;
}
