import { createContext, useContext, useRef, type ReactNode } from 'react';

/** What the shell guard remembers between navigations: the last allowed path and its company. */
export interface NavigationMemory {
  lastAllowed: string | null;
  /** The company selected when a path was last allowed; undefined before the first shell page. */
  companyId: number | null | undefined;
}

const Ctx = createContext<NavigationMemory | null>(null);

export function NavigationMemoryProvider({ children }: { children: ReactNode }) {
  const memory = useRef<NavigationMemory>({ lastAllowed: null, companyId: undefined });
  return <Ctx.Provider value={memory.current}>{children}</Ctx.Provider>;
}

/** The memory when inside the provider (the console always is; isolated page tests are not). */
export function useOptionalNavigationMemory(): NavigationMemory | null {
  return useContext(Ctx);
}

export function useNavigationMemory(): NavigationMemory {
  const memory = useContext(Ctx);
  if (!memory) throw new Error('useNavigationMemory must be used inside <NavigationMemoryProvider>');
  return memory;
}
