import { useState, type ComponentType, type ReactNode } from 'react';
import { Route, Routes } from 'react-router-dom';
import { ErrorPageBoundary } from '../core';
import { CssBaseline } from '@mui/material';
import {
  AuthenticationError,
  DefaultTitleContextProvider,
  Resource,
  ResourceDefinitionContextProvider,
  useScrollToTop,
  type ResourceDefinition,
  type ResourceProps,
} from 'react-admin';

export interface ConsoleRoutesProps {
  title: string;
  /** The plugins' react-admin resources, each served under `/<name>/*` inside the layout. */
  resources: ResourceProps[];
  /** `<Route>`s outside the layout (sign-in, company picker, the plugins' `noLayout` routes). */
  outsideLayout: ReactNode;
  /** `<Route>`s inside the layout (the plugins' pages). */
  insideLayout: ReactNode;
  layout: ComponentType<{ children?: ReactNode }>;
  notification: ComponentType;
  accessDenied: ComponentType;
  catchAll: ComponentType;
}

/** Every resource's definition, as `<Resource>` registers it, known before the first render. */
export function resourceDefinitions(resources: ResourceProps[]): Record<string, ResourceDefinition> {
  return Object.fromEntries(resources.map((resource) => [resource.name, Resource.registerResource!(resource)]));
}

/**
 * A resource with a page of its own (a list, create, edit or show). The others (broadcasts, bots, channels, templates:
 * their pages are a plugin's routes, `/broadcast` and the like) are definitions only: a `/<name>/*` route for them
 * rendered react-admin's `Resource` with nothing to show, so `/broadcasts` was a blank page instead of "Page not found".
 */
function hasPages(resource: ResourceProps): boolean {
  return Boolean(resource.list || resource.create || resource.edit || resource.show);
}

/** react-admin's CoreAdminRoutes keeps the scroll-to-top of a navigation that asks for it; so do we. */
function ScrollToTop() {
  useScrollToTop();
  return null;
}

/**
 * What react-admin's `AdminUI` renders inside `AdminContext` (its CSS baseline, the default title, a root error
 * boundary, the routes outside and inside the layout, the notification), with the resources' definitions given
 * up front instead of registered from effects.
 *
 * Why not react-admin's: its `CoreAdminRoutes` reads the routes and resources from its children in an effect after
 * the first render, then registers each resource from another effect, and each of these passes (registered, then
 * unregistered and registered again when the new list arrives) re-rendered the whole layout and the page at the
 * default priority, which React does not split: 177 + 39 + 21 ms of a /dashboard load at 4× CPU (bench/bundle
 * README). Here the routes are elements built once and the definitions a provider's initial value, so nothing
 * renders twice. The routes are the same as react-admin's: `/<resource>/*`, `/access-denied`,
 * `/authentication-error` and the catch-all inside the layout.
 */
export function ConsoleRoutes(props: ConsoleRoutesProps) {
  const { title, resources, outsideLayout, insideLayout, layout: Layout, notification: Notification, accessDenied: AccessDenied, catchAll: CatchAll } = props;
  const [definitions] = useState(() => resourceDefinitions(resources));
  return (
    <CssBaseline enableColorScheme>
      <DefaultTitleContextProvider value={title}>
        <ResourceDefinitionContextProvider definitions={definitions}>
          <ErrorPageBoundary minHeight="100vh">
            <ScrollToTop />
            <Routes>
              {outsideLayout}
              <Route
                path="/*"
                element={
                  <Layout>
                    <Routes>
                      {insideLayout}
                      {resources.filter(hasPages).map((resource) => (
                        <Route key={resource.name} path={`${resource.name}/*`} element={<Resource {...resource} />} />
                      ))}
                      <Route path="/authentication-error" element={<AuthenticationError />} />
                      <Route path="/access-denied" element={<AccessDenied />} />
                      <Route path="*" element={<CatchAll />} />
                    </Routes>
                  </Layout>
                }
              />
            </Routes>
          </ErrorPageBoundary>
        </ResourceDefinitionContextProvider>
      </DefaultTitleContextProvider>
      <Notification />
    </CssBaseline>
  );
}
