import type { ReactElement } from 'react';
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
  dataProviderApiRef,
  httpApiRef,
  i18nApiRef,
  overrideApi,
  sessionApiRef,
  type HttpProvider,
} from '../../../core';
import { botsPlugin } from '../../bots';
import { templatesPlugin } from '../../templates';
import { flowsPlugin } from '../index';
import { addLazyPluginStrings } from '../../../core/testing/renderWithConsole';

function testToken(): string {
  const payload = btoa(JSON.stringify({ sub: '7', typ: 'access', exp: Math.floor(Date.now() / 1000) + 3600 }));
  return `e30.${payload.replace(/=+$/, '')}.sig`;
}

function CurrentPath() {
  const location = useLocation();
  return <div data-testid="current-path">{location.pathname}</div>;
}

/** Renders a flows page at `path` with a fake HTTP provider (main API and bot service alike), a user and a company. */
export function renderFlowsPage(
  ui: ReactElement,
  options: { path: string; route?: string; http: HttpProvider; user: User; companyId?: number; extra?: ReactElement; features?: string[] },
) {
  const console = createConsole({ plugins: [botsPlugin, templatesPlugin, flowsPlugin], features: ['flows', 'whatsapp_templates', ...(options.features ?? [])], overrides: [overrideApi(httpApiRef, options.http)] });
  addLazyPluginStrings(console); // the plugins' page strings, as their routes load them
  const account = console.get(accountApiRef);
  account.setUser(options.user);
  account.selectCompany(options.companyId ?? 1);
  console.get(sessionApiRef).setTokens({ access: testToken(), refresh: testToken() });
  const i18n = console.get(i18nApiRef);
  const result = render(
    <ConsoleProvider console={console}>
      <I18nextProvider i18n={i18n.i18n}>
        <MemoryRouter initialEntries={[options.path]}>
          <AdminContext i18nProvider={i18n.provider} authProvider={console.get(authApiRef)} dataProvider={console.get(dataProviderApiRef)} store={memoryStore()}>
            <Routes>
              <Route path={options.route ?? options.path.split('?')[0]} element={ui} />
              <Route path="*" element={null} />
            </Routes>
            {options.extra}
            <CurrentPath />
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
    alertState: () => console.get(alertApiRef).getState(),
    currentPath: () => result.getByTestId('current-path').textContent,
  };
}
