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
  createPlugin,
  dataProviderApiRef,
  httpApiRef,
  i18nApiRef,
  overrideApi,
  sessionApiRef,
  socialApiRef,
  type HttpProvider,
  type SocialApi,
} from '../../../core';
import { translations } from '../translations';
import { addLazyPluginStrings } from '../../../core/testing/renderWithConsole';

/** A token the session accepts (decodable, expiring in an hour); the fake HTTP provider never checks it. */
function testToken(): string {
  const payload = btoa(JSON.stringify({ sub: '7', typ: 'access', exp: Math.floor(Date.now() / 1000) + 3600 }));
  return `e30.${payload.replace(/=+$/, '')}.sig`;
}

/** The channels page's own slice of the plugin (its strings and resource), without the WhatsApp onboarding. */
const channelsPagePlugin = createPlugin({
  id: 'channels',
  featureFlag: 'channels',
  resources: [{ name: 'channels', area: 'channels' }],
  translations,
});

function CurrentPath() {
  const location = useLocation();
  return <div data-testid="current-path">{location.pathname}</div>;
}

/**
 * Like the team plugin's renderTeamPage: renders `ui` at `path` with a fake HTTP provider, a fake
 * social SDK, a user and a selected company, inside react-admin's context. `currentPath()` reads
 * where the page navigated to.
 */
export function renderChannelsPage(
  ui: ReactElement,
  options: { path?: string; http: HttpProvider; social?: SocialApi; user: User; companyId?: number },
) {
  const path = options.path ?? '/channels';
  const console = createConsole({
    plugins: [channelsPagePlugin],
    features: ['channels'],
    overrides: [overrideApi(httpApiRef, options.http), ...(options.social ? [overrideApi(socialApiRef, options.social)] : [])],
  });
  addLazyPluginStrings(console); // the plugins' page strings, as their routes load them
  const account = console.get(accountApiRef);
  account.setUser(options.user);
  account.selectCompany(options.companyId ?? 1);
  console.get(sessionApiRef).setTokens({ access: testToken(), refresh: testToken() });
  const i18n = console.get(i18nApiRef);

  const result = render(
    <ConsoleProvider console={console}>
      <I18nextProvider i18n={i18n.i18n}>
        <MemoryRouter initialEntries={[path]}>
          <AdminContext
            i18nProvider={i18n.provider}
            authProvider={console.get(authApiRef)}
            dataProvider={console.get(dataProviderApiRef)}
            store={memoryStore()}
          >
            <Routes>
              <Route path={path.split('?')[0]} element={ui} />
              <Route path="*" element={null} />
            </Routes>
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
    alert: () => console.get(alertApiRef).getState(),
    alertText: () => console.get(alertApiRef).getState().text,
    currentPath: () => result.getByTestId('current-path').textContent,
  };
}
