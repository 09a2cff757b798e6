import 'reflect-metadata'; // tsyringe needs it before anything registers
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ConsoleApp } from './App';
import { enabledFeatures, plugins } from '../../plugins.config';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ConsoleApp plugins={plugins} features={enabledFeatures} />
  </StrictMode>,
);
