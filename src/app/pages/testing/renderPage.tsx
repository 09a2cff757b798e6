import { Suspense, type ReactElement } from 'react';
import { render } from '@testing-library/react';
import { AdminContext, memoryStore } from 'react-admin';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import type { User } from '../../../../contract/api';
import {
  accountApiRef,
  alertApiRef,
  authApiRef,
  ConsoleProvider,
  createConsole,
  httpApiRef,
  i18nApiRef,
  overrideApi,
  type ApiOverride,
  type ConsolePlugin,
  type HttpProvider,
} from '../../../core';
import { addLazyPluginStrings } from '../../../core/testing/renderWithConsole';
import { pageTranslations } from '../translations';

export interface RenderPageOptions {
  /** Initial URL, e.g. '/auth/login?email=a@b.co'. */
  path?: string;
  /** Route pattern the page is mounted at, e.g. '/auth/reset-password/:token'. */
  route?: string;
  /** Fake HTTP provider (see core/testing/fakeHttp). */
  http?: HttpProvider;
  /** Signed-in user and selected company. */
  user?: User;
  companyId?: number | null;
  plugins?: ConsolePlugin[];
  features?: string[];
  overrides?: ApiOverride[];
}

/** Shows where the page navigated to: `screen.getByTestId('location')`. */
function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname + location.search}</output>;
}

/**
 * Renders a page as the console does: core APIs (with fakes), i18n with the pages' strings,
 * a memory router and react-admin's context (forms, useLogin, useLogout).
 */
export function renderPage(ui: ReactElement, options: RenderPageOptions = {}) {
  const path = options.path ?? '/';
  const overrides = [...(options.overrides ?? [])];
  if (options.http) overrides.push(overrideApi(httpApiRef, options.http));
  const console = createConsole({
    plugins: options.plugins ?? [],
    features: options.features ?? [],
    overrides,
    translations: [pageTranslations as Record<string, Record<string, unknown>>],
  });
  addLazyPluginStrings(console);
  const account = console.get(accountApiRef);
  if (options.user) account.setUser(options.user);
  if (options.companyId !== undefined) account.selectCompany(options.companyId);
  const i18n = console.get(i18nApiRef);

  const result = render(
    <ConsoleProvider console={console}>
      <I18nextProvider i18n={i18n.i18n}>
        <MemoryRouter initialEntries={[path]}>
          <AdminContext i18nProvider={i18n.provider} authProvider={console.get(authApiRef)} store={memoryStore()}>
            <Routes>
              {/* As the route wrapper does: a page's lazy parts (e.g. another plugin's account section) suspend here. */}
              <Route path={options.route ?? path.split('?')[0]} element={<Suspense fallback={null}>{ui}</Suspense>} />
              <Route path="*" element={null} />
            </Routes>
            <LocationProbe />
          </AdminContext>
        </MemoryRouter>
      </I18nextProvider>
    </ConsoleProvider>,
  );
  return {
    ...result,
    console,
    account,
    alertText: () => console.get(alertApiRef).getState().text,
  };
}
