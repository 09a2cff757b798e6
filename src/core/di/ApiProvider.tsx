import { createContext, useContext, type ReactNode } from 'react';
import type { ApiRef, ApiRegistry } from './apiRef';

const ApiRegistryContext = createContext<ApiRegistry | null>(null);

/** Makes a registry's APIs available to `useApi` below it. */
export function ApiProvider({ registry, children }: { registry: ApiRegistry; children: ReactNode }) {
  return <ApiRegistryContext.Provider value={registry}>{children}</ApiRegistryContext.Provider>;
}

export function useApiRegistry(): ApiRegistry {
  const registry = useContext(ApiRegistryContext);
  if (!registry) throw new Error('useApi must be used inside <ApiProvider>');
  return registry;
}

/** The implementation registered for `ref` (a singleton per registry). */
export function useApi<T>(ref: ApiRef<T>): T {
  return useApiRegistry().get(ref);
}
