/**
 * The signed-in console: react-admin's shell with every plugin (plugins.config.ts). main.tsx loads
 * this chunk lazily, only when a route outside /auth and /sandbox opens (after sign-in), so the
 * sign-in and sign-up pages never download the shell.
 */
import { useEffect, useState } from 'react';
import { ConsoleApp } from './App';
import { definedFeatures, enabledFeatures, plugins } from '../../plugins.config';
import { loadStartupFeatures } from '../core/features/startupFeatures';

export default function ConsoleShell() {
  // The start-up keys: plugins.config.ts's, plus the server's CONSOLE_FEATURES override (GET /api/client-config/, H2 #13).
  const [features, setFeatures] = useState<string[] | null>(null);
  useEffect(() => {
    // Not inside startTransition, though React would then render the console in slices (a load's blocking time at 4×
    // CPU fell by a quarter, bench/bundle README): the page then opened twice as many sockets (4 a load of /chats
    // instead of 2; CI's sign-ins hit the per-user connect limit and lost live updates). Cause not found yet.
    void loadStartupFeatures({ defaults: enabledFeatures, defined: definedFeatures, apiBase: String(import.meta.env.VITE_API_BASE ?? '') }).then(setFeatures);
  }, []);
  if (!features) return <div role="progressbar" aria-label="Loading" aria-busy="true" style={{ minHeight: '100vh' }} />;
  return <ConsoleApp plugins={plugins} features={features} />;
}
