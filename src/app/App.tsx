/**
 * The console's root (react-admin CRM-example style): a configurable component assembling the
 * plugins inside react-admin's AdminContext, with the routes of ConsoleRoutes. Tests pass
 * `overrides` (fake HTTP, session…) and wrap it in a MemoryRouter.
 */
import { Suspense, useMemo, useState, type ReactNode } from 'react';
import { AdminContext, localStorageStore, type Store } from 'react-admin';
import { BrowserRouter, Navigate, Outlet, Route, useInRouterContext } from 'react-router-dom';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { QueryClient } from '@tanstack/react-query';
import {
  authApiRef,
  createConsole,
  ConsoleLayout,
  ConsoleNotification,
  ConsoleProvider,
  darkTheme,
  dataProviderApiRef,
  i18nApiRef,
  lightTheme,
  NavigationEffects,
  NavigationMemoryProvider,
  NotFound,
  noLayoutRouteElements,
  RequireLogin,
  withMotionPreference,
  shellRouteElements,
  EmptyView,
  type ApiOverride,
  type Console,
  type ConsoleConfig,
  type ConsolePlugin,
} from '../core';
import { CompanySelectPage } from './pages';
// The signed-out pages (publicRoutes) and the company creation page, each its own chunk fetched when it opens: the
// shell starts signed in and seldom shows them (bench/bundle).
import { CompanyCreatePage } from './lazyPages';
import { publicRouteElements } from './publicRoutes';
import { pageTranslations } from './pages/translations';
import { realtimeApiFactory } from '../core/realtime/realtimeFactory';
import { withShownLocale } from './shownLocaleStore';
import { ConsoleRoutes } from './ConsoleRoutes';

export interface ConsoleAppProps {
  plugins: ConsolePlugin[];
  features: readonly string[];
  config?: Partial<ConsoleConfig>;
  /** Replacement APIs (tests). */
  overrides?: ApiOverride[];
  /** react-admin store (tests pass memoryStore()). */
  store?: Store;
  /** The console made before the first render (ConsoleShell: the page it opens on is warmed first); else made here. */
  prepared?: Console;
}

/** The shell's console: the plugins' with the eager realtime client (phoenix) and the signed-in pages' strings. */
export function createShellConsole({ plugins, features, config, overrides }: Pick<ConsoleAppProps, 'plugins' | 'features' | 'config' | 'overrides'>): Console {
  // The eager realtime client first: tests' overrides come after it and win.
  return createConsole({ plugins, features, config, overrides: [realtimeApiFactory, ...(overrides ?? [])], translations: [pageTranslations as Record<string, Record<string, unknown>>] });
}

/** Where a signed-out page's chunk loads (lazyPages.ts). */
function Lazy({ children }: { children: ReactNode }) {
  return <Suspense fallback={<div role="progressbar" aria-label="Loading" aria-busy="true" style={{ minHeight: '100vh' }} />}>{children}</Suspense>;
}

/** react-admin's access-denied page (create/edit/delete without manage access). */
function AccessDenied() {
  const { t } = useTranslation();
  return <EmptyView title={t('core.errors.noPermission')} message="" />;
}

export function ConsoleApp({ plugins, features, config, overrides, store, prepared }: ConsoleAppProps) {
  // Built once per mount: feature flags are set once and API ids must stay unique.
  const [console] = useState(() => prepared ?? createShellConsole({ plugins, features, config, overrides }));
  const [queryClient] = useState(() => new QueryClient());
  const i18n = console.get(i18nApiRef);
  const [adminStore] = useState(() => withShownLocale(store ?? localStorageStore(undefined, 'console'), () => i18n.provider.getLocale()));
  const inRouter = useInRouterContext();

  const admin = useMemo(
    () => (
      <AdminContext
        authProvider={console.get(authApiRef)}
        dataProvider={console.get(dataProviderApiRef)}
        i18nProvider={i18n.provider}
        theme={withMotionPreference(lightTheme)}
        darkTheme={withMotionPreference(darkTheme)}
        defaultTheme="light"
        queryClient={queryClient}
        store={adminStore}
      >
        <ConsoleRoutes
          title={i18n.i18n.t('core.appName')}
          layout={ConsoleLayout}
          notification={ConsoleNotification}
          accessDenied={AccessDenied}
          catchAll={NotFound}
          resources={console.resources.map(({ area: _area, feature: _feature, apiPath: _apiPath, lifecycle: _lifecycle, ...resource }) => resource)}
          insideLayout={shellRouteElements(console.routes)}
          outsideLayout={
            <>
              <Route path="/" element={<Navigate to="/dashboard" replace />} />
              {publicRouteElements((page) => <Lazy>{page}</Lazy>)}
              <Route
                path="/company"
                element={
                  <RequireLogin>
                    <Outlet />
                  </RequireLogin>
                }
              >
                <Route index element={<Navigate to="/company/select" replace />} />
                <Route path="select" element={<CompanySelectPage />} />
                <Route
                  path="create"
                  element={
                    <Lazy>
                      <CompanyCreatePage />
                    </Lazy>
                  }
                />
              </Route>
              {noLayoutRouteElements(console.routes)}
            </>
          }
        />
      </AdminContext>
    ),
    [console, i18n, queryClient, adminStore],
  );

  const app = (
    <NavigationMemoryProvider>
      <NavigationEffects queryClient={queryClient} />
      {admin}
    </NavigationMemoryProvider>
  );

  return (
    <ConsoleProvider console={console}>
      <I18nextProvider i18n={i18n.i18n}>{inRouter ? app : <BrowserRouter>{app}</BrowserRouter>}</I18nextProvider>
    </ConsoleProvider>
  );
}
