import { createContext, useContext, type ReactNode } from 'react';
import { ApiProvider } from '../di/ApiProvider';
import type { Console } from './createConsole';

const ConsoleContext = createContext<Console | null>(null);

/** Provides the assembled console (routes, resources, menu) and its APIs. */
export function ConsoleProvider({ console, children }: { console: Console; children: ReactNode }) {
  return (
    <ConsoleContext.Provider value={console}>
      <ApiProvider registry={console.registry}>{children}</ApiProvider>
    </ConsoleContext.Provider>
  );
}

export function useConsole(): Console {
  const value = useContext(ConsoleContext);
  if (!value) throw new Error('useConsole must be used inside <ConsoleProvider>');
  return value;
}
