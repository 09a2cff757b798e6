import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { AdminContext, memoryStore } from 'react-admin';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import type { Socket } from 'phoenix';
import type { Channel } from '../../../../contract/channels';
import type { WhatsAppTemplate } from '../../../../contract/templates';
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
import { membership, testUser } from '../../../core/account/testUsers';
import { FakeSocket } from '../../../core/testing/fakeSocket';
import { templatesPlugin } from '../index';
import { addLazyPluginStrings } from '../../../core/testing/renderWithConsole';

function testToken(): string {
  const payload = btoa(JSON.stringify({ sub: '7', typ: 'access', exp: Math.floor(Date.now() / 1000) + 3600 }));
  return `e30.${payload.replace(/=+$/, '')}.sig`;
}

export function channel(id: number, platform: Channel['platform'], name: string, extra: Partial<Channel> = {}): Channel {
  return {
    id,
    external_id: `ext-${id}`,
    platform,
    name,
    status: 'active',
    display_phone_number: platform === 'whatsapp' ? '+1 555 0100' : null,
    waba_id: platform === 'whatsapp' ? 'waba-1' : null,
    signup_status: platform === 'whatsapp' ? 'completed' : null,
    signup_error: null,
    steps: [],
    connected: true,
    simulator_url: null,
    created_at: '2026-01-01T00:00:00Z',
    ...extra,
  } as Channel;
}

export function template(id: number, name: string, extra: Partial<WhatsAppTemplate> = {}): WhatsAppTemplate {
  return {
    id,
    channel_id: 3,
    meta_template_id: `m${id}`,
    name,
    language: 'en_US',
    category: 'MARKETING',
    components: [{ type: 'BODY', text: `Body of ${name}` }],
    status: 'APPROVED',
    rejected_reason: null,
    quality_score: 'UNKNOWN',
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-02T00:00:00Z',
    ...extra,
  };
}

/**
 * Renders a templates page at `path` (route `route`) in a console with the templates plugin, a
 * fake HTTP provider, a fake socket (its `emit` plays the server's template_status events), an
 * admin of company 1 who may manage templates (unless `canManage` is false).
 */
export function renderTemplatesPage(
  ui: ReactElement,
  options: { path: string; route: string; http: HttpProvider; canManage?: boolean; features?: string[] },
) {
  const socket = new FakeSocket(() => ({ status: 'ok', response: {} }));
  const console = createConsole({
    plugins: [templatesPlugin],
    features: options.features ?? ['whatsapp_templates', 'whatsapp_carousel'],
    overrides: [overrideApi(httpApiRef, options.http), overrideApi(realtimeApiRef, { createSocket: () => socket as unknown as Socket })],
  });
  addLazyPluginStrings(console); // the plugins' page strings, as their routes load them
  const account = console.get(accountApiRef);
  const manage = options.canManage ?? true;
  account.setUser(testUser([membership(1, { can_view_whatsapp_templates: true, can_manage_whatsapp_templates: manage })]));
  account.selectCompany(1);
  console.get(sessionApiRef).setTokens({ access: testToken(), refresh: testToken() });
  const i18n = console.get(i18nApiRef);
  const result = render(
    <ConsoleProvider console={console}>
      <I18nextProvider i18n={i18n.i18n}>
        <MemoryRouter initialEntries={[options.path]}>
          <AdminContext i18nProvider={i18n.provider} authProvider={console.get(authApiRef)} dataProvider={console.get(dataProviderApiRef)} store={memoryStore()}>
            <Routes>
              <Route path={options.route} element={ui} />
              <Route path="*" element={<LocationProbe />} />
            </Routes>
          </AdminContext>
        </MemoryRouter>
      </I18nextProvider>
    </ConsoleProvider>,
  );
  return { ...result, console, socket, alertText: () => console.get(alertApiRef).getState().text };
}

/** Shows where a navigation went (for links out of the page under test). */
function LocationProbe() {
  const location = useLocation();
  return <div data-testid="location">{`${location.pathname}${location.search}`}</div>;
}
