import { createElement, lazy, type ComponentProps, type ComponentType } from 'react';

/** A lazy page that can start loading before it renders (PluginStrings loads it with its strings). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- React.lazy's own bound: a page of any props
export type LazyPage<T extends ComponentType<any> = ComponentType<any>> = ComponentType<ComponentProps<T>> & { preload: () => Promise<unknown> };

/** The lazy pages whose last import failed, each with what puts a new lazy in its place. */
const failedPages = new Set<() => void>();

/**
 * After an error boundary's reset (ErrorPageBoundary: another page or room chosen, "try again"): every lazy page whose
 * import failed imports again at its next render.
 */
export function retryFailedLazyPages(): void {
  const retries = [...failedPages];
  failedPages.clear();
  for (const retry of retries) retry();
}

/**
 * `React.lazy` plus `preload`: a plugin route's page (`component: lazyPage(() => import('./Page'))`), or a lazy part
 * of a page (the inbox's open room). The route wrapper fetches the page's chunk and its plugin's strings together,
 * not one after the other.
 *
 * Once preloaded, the first render does not suspend: React.lazy suspends on any promise, even one already settled
 * (an `import()` of a module already there settles a microtask later), and React holds back a suspended part's
 * content until 300 ms after the last fallback it showed. A page preloaded with its strings, or a room view fetched
 * while the room's data was on its way, then waited those 300 ms for nothing (bench/bundle README, the open room).
 * So the lazy's loader hands React a thenable that calls back at once when the module is already there.
 *
 * A `React.lazy` whose import failed keeps the failure for good: every later render throws it again, so an error
 * boundary's reset could never fetch the code. A failed page waits in `failedPages` for the next reset
 * (retryFailedLazyPages), which puts a new lazy in its place. Not at once on the failure: React renders a part again
 * after its lazy settles, and a new lazy then would import again and again without the boundary seeing the error.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- React.lazy's own bound: a page of any props
export function lazyPage<T extends ComponentType<any>>(load: () => Promise<{ default: T }>): LazyPage<T> {
  let loaded: { default: T } | undefined;
  let loading: Promise<{ default: T }> | undefined;
  const preload = () =>
    (loading ??= load().then(
      (module) => (loaded = module),
      (error: unknown) => {
        loading = undefined; // the next render or preload fetches again
        throw error;
      },
    ));
  const settled = (module: { default: T }) => ({ then: (resolve: (value: { default: T }) => void) => resolve(module) });
  const retry = () => {
    current = newLazy();
  };
  const newLazy = () =>
    lazy(() =>
      loaded
        ? (settled(loaded) as unknown as Promise<{ default: T }>)
        : preload().catch((error: unknown) => {
            failedPages.add(retry);
            throw error;
          }),
    );
  let current = newLazy();
  const LazyPageComponent = (props: ComponentProps<T>) => createElement(current, props);
  return Object.assign(LazyPageComponent, { preload });
}

export function isLazyPage(component: unknown): component is LazyPage {
  return typeof (component as { preload?: unknown } | null)?.preload === 'function';
}
