import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { AdminContext, memoryStore } from 'react-admin';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import type { User } from '../../../../contract/api';
import {
  accountApiRef,
  alertApiRef,
  authApiRef,
  ConsoleProvider,
  createConsole,
  dataProviderApiRef,
  httpApiRef,
  i18nApiRef,
  overrideApi,
  sessionApiRef,
  type ConsolePlugin,
  type HttpProvider,
} from '../../../core';
import { teamPlugin } from '../index';
import { addLazyPluginStrings } from '../../../core/testing/renderWithConsole';

/** A token the session accepts (decodable, expiring in an hour); the fake HTTP provider never checks it. */
function testToken(): string {
  const payload = btoa(JSON.stringify({ sub: '7', typ: 'access', exp: Math.floor(Date.now() / 1000) + 3600 }));
  return `e30.${payload.replace(/=+$/, '')}.sig`;
}

/**
 * Like app/pages/testing/renderPage, plus the console's data provider (react-admin lists) and the
 * team plugin: renders `ui` at `path` with a fake HTTP provider, a user and a selected company.
 */
export function renderTeamPage(
  ui: ReactElement,
  options: { path: string; http: HttpProvider; user: User; companyId: number; /** more loaded plugins */ plugins?: ConsolePlugin[] },
) {
  const console = createConsole({
    plugins: [teamPlugin, ...(options.plugins ?? [])],
    features: ['members'],
    overrides: [overrideApi(httpApiRef, options.http)],
  });
  addLazyPluginStrings(console); // the plugins' page strings, as their routes load them
  const account = console.get(accountApiRef);
  account.setUser(options.user);
  account.selectCompany(options.companyId);
  console.get(sessionApiRef).setTokens({ access: testToken(), refresh: testToken() });
  const i18n = console.get(i18nApiRef);

  const result = render(
    <ConsoleProvider console={console}>
      <I18nextProvider i18n={i18n.i18n}>
        <MemoryRouter initialEntries={[options.path]}>
          <AdminContext
            i18nProvider={i18n.provider}
            authProvider={console.get(authApiRef)}
            dataProvider={console.get(dataProviderApiRef)}
            store={memoryStore()}
          >
            <Routes>
              <Route path={options.path.split('?')[0]} element={ui} />
              <Route path="*" element={null} />
            </Routes>
          </AdminContext>
        </MemoryRouter>
      </I18nextProvider>
    </ConsoleProvider>,
  );
  return { ...result, console, account, alertText: () => console.get(alertApiRef).getState().text };
}
