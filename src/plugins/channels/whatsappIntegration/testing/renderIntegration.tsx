import { render } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import type { User } from '../../../../../contract/api';
import {
  accountApiRef,
  alertApiRef,
  ConsoleProvider,
  createConsole,
  httpApiRef,
  i18nApiRef,
  overrideApi,
  socialApiRef,
  type HttpProvider,
  type SocialApi,
} from '../../../../core';
import { membership, testUser } from '../../../../core/account/testUsers';
import { whatsappIntegrationTranslations } from '../translations';
import WhatsAppIntegrationPage from '../WhatsAppIntegrationPage';
import { addLazyPluginStrings } from '../../../../core/testing/renderWithConsole';

/** A user whose selected company (id 1, "Demo Company") grants `permissions`. */
export function integrationUser(permissions: Record<string, boolean> = { can_view_channels: true, can_manage_channels: true }): User {
  return testUser([membership(1, permissions, { name: 'Demo Company' }), membership(2, {}, { name: 'Other Co' })]);
}

/** Where the router is (outside the onboarding pages: /channels, /chats…). */
function Elsewhere() {
  const location = useLocation();
  return <div data-testid="elsewhere">{location.pathname}</div>;
}

/** Renders the onboarding at `path` with a fake HTTP layer and a fake SocialApi, signed in with company 1. */
export function renderIntegration(options: { path: string; http: HttpProvider; social: SocialApi; user?: User; pollMs?: number }) {
  const console = createConsole({
    plugins: [],
    features: ['channels'],
    translations: [whatsappIntegrationTranslations],
    overrides: [overrideApi(httpApiRef, options.http), overrideApi(socialApiRef, options.social)],
  });
  addLazyPluginStrings(console); // the plugins' page strings, as their routes load them
  const account = console.get(accountApiRef);
  account.setUser(options.user ?? integrationUser());
  account.selectCompany(1);
  const result = render(
    <ConsoleProvider console={console}>
      <I18nextProvider i18n={console.get(i18nApiRef).i18n}>
        <MemoryRouter initialEntries={[options.path]}>
          <Routes>
            <Route path="/whatsapp-integration/*" element={<WhatsAppIntegrationPage pollMs={options.pollMs ?? 20} />} />
            <Route path="*" element={<Elsewhere />} />
          </Routes>
        </MemoryRouter>
      </I18nextProvider>
    </ConsoleProvider>,
  );
  return { ...result, console, alert: () => console.get(alertApiRef).getState() };
}
