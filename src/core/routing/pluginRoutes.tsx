import { Suspense, type ReactNode } from 'react';
import { Route } from 'react-router-dom';
import { PageLoading } from '../components/PageLoading';
import type { PluginRoute } from '../plugins/types';
import { AccessGuard, FeatureGate, RequireLogin, RequireSession } from './guards';
import { isLazyPage } from './lazyPage';
import { PluginStrings } from './PluginStrings';

/**
 * A plugin route's page: its lazy chunk and its plugin's lazy strings (plus `translationsOf`'s)
 * load together, and the page renders only when both are there (no flash of keys).
 */
function RouteBody({ route }: { route: PluginRoute }) {
  const Component = route.component;
  const plugins = [...(route.plugin ? [route.plugin] : []), ...(route.translationsOf ?? [])];
  return (
    <FeatureGate feature={route.feature}>
      <Suspense fallback={<PageLoading />}>
        <PluginStrings plugins={plugins} preload={isLazyPage(Component) ? Component.preload : undefined}>
          <Component />
        </PluginStrings>
      </Suspense>
    </FeatureGate>
  );
}

/** Routes rendered outside the shell keep the shell's requirements unless declared public/companyOptional. */
function OutsideShell({ route, children }: { route: PluginRoute; children: ReactNode }) {
  if (route.public) return <>{children}</>;
  if (route.companyOptional) return <RequireLogin>{children}</RequireLogin>;
  return (
    <RequireSession>
      <AccessGuard>{children}</AccessGuard>
    </RequireSession>
  );
}

/** `<Route>` elements for plugin routes inside the shell (the layout applies the guards). */
export function shellRouteElements(routes: PluginRoute[]) {
  return routes.filter((r) => !r.noLayout).map((r) => <Route key={r.path} path={r.path} element={<RouteBody route={r} />} />);
}

/** `<Route>` elements for plugin routes outside the shell. */
export function noLayoutRouteElements(routes: PluginRoute[]) {
  return routes
    .filter((r) => r.noLayout)
    .map((r) => (
      <Route
        key={r.path}
        path={r.path}
        element={
          <OutsideShell route={r}>
            <RouteBody route={r} />
          </OutsideShell>
        }
      />
    ));
}
