import 'reflect-metadata'; // tsyringe needs it before anything registers
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ConsoleApp } from './App';
import { definedFeatures, enabledFeatures, plugins } from '../../plugins.config';
import { loadStartupFeatures } from '../core/features/startupFeatures';

// The start-up keys: plugins.config.ts's, plus the server's CONSOLE_FEATURES override (GET /api/client-config/).
void loadStartupFeatures({ defaults: enabledFeatures, defined: definedFeatures, apiBase: String(import.meta.env.VITE_API_BASE ?? '') }).then((features) => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <ConsoleApp plugins={plugins} features={features} />
    </StrictMode>,
  );
});
