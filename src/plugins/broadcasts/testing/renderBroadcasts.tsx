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
  realtimeApiRef,
  sessionApiRef,
  type HttpProvider,
} from '../../../core';
import { FakeSocket, type ReplyFn } from '../../../core/testing/fakeSocket';
import { broadcastsPlugin } from '../index';
import { addLazyPluginStrings } from '../../../core/testing/renderWithConsole';

function testToken(): string {
  const payload = btoa(JSON.stringify({ sub: '7', typ: 'access', exp: Math.floor(Date.now() / 1000) + 3600 }));
  return `e30.${payload.replace(/=+$/, '')}.sig`;
}

export const ADMIN: User = {
  id: 7,
  first_name: 'Ada',
  last_name: 'Admin',
  email: 'ada@example.test',
  companies: [
    { id: 1, name: 'Demo Company', role: { id: 'admin', name: 'Admin' }, permissions: {} },
    { id: 2, name: 'Other Company', role: { id: 'admin', name: 'Admin' }, permissions: {} },
  ],
} as unknown as User;

/** Answers every join ok; the test emits events on the returned socket. */
export const joinOk: ReplyFn = (_topic, event) => (event === 'phx_join' ? { status: 'ok', response: {} } : { status: 'ok', response: {} });

/**
 * Renders `ui` at `path` inside a console with the broadcasts plugin, a fake HTTP provider, a fake
 * socket (its `emit` plays the server) and a signed-in admin of company 1.
 */
export function renderBroadcasts(
  ui: ReactElement,
  options: { path: string; route?: string; http: HttpProvider; features?: string[]; user?: User; companyId?: number; locale?: string },
) {
  const socket = new FakeSocket(joinOk);
  const console = createConsole({
    plugins: [broadcastsPlugin],
    features: options.features ?? ['triggers', 'broadcast_engagement'],
    overrides: [overrideApi(httpApiRef, options.http), overrideApi(realtimeApiRef, { createSocket: () => socket.asSocket() })],
  });
  addLazyPluginStrings(console); // the plugins' page strings, as their routes load them
  const account = console.get(accountApiRef);
  account.setUser(options.user ?? ADMIN);
  account.selectCompany(options.companyId ?? 1);
  console.get(sessionApiRef).setTokens({ access: testToken(), refresh: testToken() });
  const i18n = console.get(i18nApiRef);
  if (options.locale) void i18n.i18n.changeLanguage(options.locale);

  const tree = (element: ReactElement) => (
    <ConsoleProvider console={console}>
      <I18nextProvider i18n={i18n.i18n}>
        <MemoryRouter initialEntries={[options.path]}>
          <AdminContext i18nProvider={i18n.provider} authProvider={console.get(authApiRef)} dataProvider={console.get(dataProviderApiRef)} store={memoryStore()}>
            <Routes>
              <Route path={options.route ?? options.path.split('?')[0]} element={element} />
              <Route path="*" element={<div data-testid="elsewhere" />} />
            </Routes>
          </AdminContext>
        </MemoryRouter>
      </I18nextProvider>
    </ConsoleProvider>
  );
  const result = render(tree(ui));
  return { ...result, console, account, socket, i18n: i18n.i18n, alertText: () => console.get(alertApiRef).getState().text, tree };
}
