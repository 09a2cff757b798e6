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
    // As a transition: mounting the console is the largest render of a load (about 300 ms at 4× CPU), which React
    // then renders in slices, the browser responsive between them (blocking time at 4× CPU down a quarter to a third,
    // bench/bundle README). The loading view stays until it is ready.
    void loadStartupFeatures({ defaults: enabledFeatures, defined: definedFeatures, apiBase: String(import.meta.env.VITE_API_BASE ?? '') }).then((f) => startTransition(() => setFeatures(f)));
  }, []);
  if (!features) return <div role="progressbar" aria-label="Loading" aria-busy="true" style={{ minHeight: '100vh' }} />;
  return <ConsoleApp plugins={plugins} features={features} />;
}
