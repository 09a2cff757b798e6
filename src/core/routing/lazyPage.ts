import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/** A lazy page that can start loading before it renders (PluginStrings loads it with its strings). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- React.lazy's own bound: a page of any props
export type LazyPage<T extends ComponentType<any> = ComponentType<any>> = LazyExoticComponent<T> & { preload: () => Promise<unknown> };

/**
 * `React.lazy` plus `preload`: a plugin route's page (`component: lazyPage(() => import('./Page'))`).
 * The route wrapper fetches the page's chunk and its plugin's strings together, not one after the other.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- React.lazy's own bound: a page of any props
export function lazyPage<T extends ComponentType<any>>(load: () => Promise<{ default: T }>): LazyPage<T> {
  return Object.assign(lazy(load), { preload: load });
}

export function isLazyPage(component: unknown): component is LazyPage {
  return typeof (component as { preload?: unknown } | null)?.preload === 'function';
}
