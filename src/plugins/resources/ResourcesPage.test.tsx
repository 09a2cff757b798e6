// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BotIntegration } from '../../../contract/bots';
import { alertApiRef } from '../../core';
import { createFakeHttp } from '../../core/testing/fakeHttp';
import { resourcesPlugin } from './index';
import ResourcesPage from './ResourcesPage';
import { renderPluginPage } from '../../core/testing/renderPluginPage';

const API_DOC = {
  openapi: '3.1.0',
  info: { title: 'Business Messaging Console API', version: '1.11.0' },
  servers: [{ url: '/' }],
  paths: {
    '/api/members/': { get: { tags: ['members'], description: 'A signed-in member of the company.', 'x-access': 'company(members, view)', security: [{ bearerAuth: [], companyHeader: [] }] } },
    '/account/login/': { post: { tags: ['account'], security: [], requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { email: { type: 'string' } }, required: ['email'] } } } } } },
  },
};
const BOT_DOC = { openapi: '3.1.0', info: { title: 'Bot service', version: '1.11.0' }, servers: [{ url: '/bot-service' }], paths: { '/api/opt-out-csv/': { get: { tags: ['opt-out-csv'], security: [{ botAccessKey: [] }] } } } };

function setup(integration: BotIntegration, options: { path?: string; locale?: string } = {}) {
  const http = createFakeHttp((method, path, opts) => {
    if (path === '/api/bots/integration/') return integration;
    if (path === '/api/openapi.json') return API_DOC;
    if (path === '/bot-service/openapi.json') return BOT_DOC;
    if (path === '/api/opt-out-csv/') {
      expect(opts.query?.access_key).toBe(integration.access_key);
      return { headers: ['name', 'external_id'], data: [['Ann', '+33600000001'], ['Bob, Jr', '+33600000002']] };
    }
    throw new Error(`unexpected ${method} ${path}`);
  });
  const { console } = renderPluginPage(<ResourcesPage />, {
    plugins: [resourcesPlugin],
    features: ['resources'],
    path: options.path ?? '/resources',
    route: '/resources',
    http,
    companyId: 7,
    locale: options.locale,
  });
  return { http, console };
}

const admin: BotIntegration = { endpoint: 'http://localhost:3000/bot-service', access_key: 'bk_secret_key_123456' };
const agent: BotIntegration = { endpoint: 'http://localhost:3000/bot-service', access_key: null };

afterEach(() => vi.restoreAllMocks());

describe('/resources', () => {
  it('lists the help of every area and searches it; a search that finds nothing shows the empty view', async () => {
    setup(agent);
    expect(await screen.findByRole('heading', { name: 'Inbox', level: 2 })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Team & permissions', level: 2 })).toBeInTheDocument();
    expect(screen.getByTestId('help-count')).toHaveTextContent('20 articles');

    fireEvent.change(screen.getByRole('searchbox', { name: 'Search the help' }), { target: { value: 'invite' } });
    expect(screen.getByTestId('help-count')).toHaveTextContent(/^\d+ articles?$/);
    const first = within(screen.getByTestId('help-results')).getAllByTestId('help-article-title')[0]!;
    expect(first).toHaveTextContent(/^Invite your team$/);
    fireEvent.click(screen.getByRole('button', { name: /^Invite your team/ }));
    expect(await screen.findByText(/Enter one or more e-mail addresses/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to Team & permissions' })).toHaveAttribute('href', '/team');

    fireEvent.change(screen.getByRole('searchbox', { name: 'Search the help' }), { target: { value: 'zebra quantum' } });
    expect(screen.getByTestId('empty-view')).toHaveTextContent("Nothing Found.There's no data at the moment, please check back in later.");
    expect(screen.getByTestId('help-count')).toHaveTextContent('0 articles');
    fireEvent.click(screen.getByRole('button', { name: 'Clear the search' }));
    expect(screen.getByTestId('help-count')).toHaveTextContent('20 articles');
  });

  it('searches the French help in French', async () => {
    setup(agent, { locale: 'fr' });
    fireEvent.change(await screen.findByRole('searchbox', { name: 'Rechercher dans l’aide' }), { target: { value: 'facture' } });
    expect(within(screen.getByTestId('help-results')).getAllByTestId('help-article-title')[0]).toHaveTextContent(/^Factures et moyen de paiement$/);
  });

  it('shows an admin the integration with the access key, hidden until asked', async () => {
    setup(admin, { path: '/resources?tab=integration' });
    const key = await screen.findByTestId('integration-access-key');
    expect(key).not.toHaveTextContent('bk_secret_key_123456');
    fireEvent.click(screen.getByRole('button', { name: 'Show the access key' }));
    expect(key).toHaveTextContent('bk_secret_key_123456');
    expect(screen.getByTestId('integration-bot-endpoint')).toHaveTextContent('http://localhost:3000/bot-service');
    expect(screen.getByTestId('integration-webhook')).toHaveTextContent(`${window.location.origin}/api/webhooks/meta/`);
    expect(screen.getByTestId('integration-company')).toHaveTextContent('Company: 7');
    expect(screen.getByRole('link', { name: /Open the API’s OpenAPI document/ })).toHaveAttribute('href', `${window.location.origin}/api/openapi.json`);
    expect(screen.getByRole('link', { name: /Open the bot service’s OpenAPI document/ })).toHaveAttribute('href', 'http://localhost:3000/bot-service/openapi.json');
    expect(screen.queryByTestId('integration-key-admins-only')).toBeNull();
  });

  it('never shows an agent the access key', async () => {
    setup(agent, { path: '/resources?tab=integration' });
    expect(await screen.findByTestId('integration-key-admins-only')).toHaveTextContent('Only admins see the bot-service access key.');
    expect(screen.queryByTestId('integration-access-key')).toBeNull();
    expect(screen.getByTestId('integration-bot-endpoint')).toHaveTextContent('http://localhost:3000/bot-service');
  });

  it('reads the served OpenAPI documents into a filterable reference', async () => {
    const { http } = setup(agent, { path: '/resources?tab=reference' });
    expect(await screen.findByTestId('reference-count')).toHaveTextContent('2 operations');
    expect(screen.getByTestId('operation-GET-/api/members/')).toHaveTextContent('Bearer token + Company header');
    fireEvent.click(within(screen.getByTestId('operation-POST-/account/login/')).getByRole('button'));
    expect(await screen.findByRole('table', { name: 'POST /account/login/' })).toHaveTextContent('email');
    fireEvent.change(screen.getByRole('searchbox', { name: 'Filter operations' }), { target: { value: 'nothing matches this' } });
    expect(screen.getByTestId('empty-view')).toBeInTheDocument();
    // No credentials are sent for the public documents.
    expect(http.calls.find((c) => c.path === '/api/openapi.json')?.options.auth).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'Bot service' }));
    fireEvent.change(screen.getByRole('searchbox', { name: 'Filter operations' }), { target: { value: '' } });
    expect(await screen.findByTestId('operation-GET-/api/opt-out-csv/')).toHaveTextContent('access_key');
    expect(http.calls.find((c) => c.path === '/bot-service/openapi.json')?.options.baseUrl).toBe('http://localhost:3000');
  });

  it('downloads the opt-out list as CSV with the access key; an agent is told only admins can', async () => {
    const created: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      created.push(blob as Blob);
      return 'blob:opt-outs';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const { console } = setup(admin, { path: '/resources?tab=downloads' });
    fireEvent.click(await screen.findByRole('button', { name: 'Download the opt-out CSV' }));
    await waitFor(() => expect(console.get(alertApiRef).getState().text).toBe('Opt-out list downloaded (2 customers)'));
    expect(click).toHaveBeenCalled();
    const text = await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.readAsText(created[0]!);
    });
    expect(text.replace('\uFEFF', '')).toBe('name,external_id\r\nAnn,+33600000001\r\n"Bob, Jr",+33600000002');
  });

  it('tells an agent that only admins can download the opt-out list', async () => {
    setup(agent, { path: '/resources?tab=downloads' });
    expect(await screen.findByTestId('downloads-admins-only')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Download the opt-out CSV' })).toBeNull();
  });

  it('switches sections with the tabs', async () => {
    setup(agent);
    await act(async () => {
      fireEvent.click(await screen.findByRole('tab', { name: 'Integration' }));
    });
    expect(await screen.findByRole('heading', { name: 'Integration reference' })).toBeInTheDocument();
  });
});
