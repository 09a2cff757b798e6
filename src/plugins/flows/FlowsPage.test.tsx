// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpError } from '../../core';
import { membership, testUser } from '../../core/account/testUsers';
import FlowsPage from './FlowsPage';
import { fakeFlowServer, flowFixture } from './testing/fixtures';
import { renderPluginPage } from '../../core/testing/renderPluginPage';
import { phoneScreen } from '../../core/testing/phoneScreen';
import { botsPlugin } from '../bots';
import { templatesPlugin } from '../templates';
import { flowsPlugin } from './index';

const admin = testUser([membership(1, { can_manage_flows: true, can_view_flows: true }), membership(2, { can_manage_flows: true, can_view_flows: true })]);
const flowsGets = (http: ReturnType<typeof fakeFlowServer>) => http.calls.filter((c) => c.method === 'GET' && c.path === '/api/flows/').length;

afterEach(() => vi.restoreAllMocks());

describe('/flows', { timeout: 120_000 }, () => {
  it('shows the loading indicator, then the flows with their keywords and step counts', async () => {
    const http = fakeFlowServer([flowFixture(1, 'Shop tour'), flowFixture(2, 'Support', { keywords: ['help'], steps: [] })]);
    renderPluginPage(<FlowsPage />, { plugins: [botsPlugin, templatesPlugin, flowsPlugin], features: ['flows', 'whatsapp_templates'], companyId: 1, signedIn: true, path: '/flows', http, user: admin });
    expect(screen.getByRole('status').textContent).toContain('Loading flows…');
    const row = (await screen.findByRole('link', { name: 'Shop tour' })).closest('tr')!;
    expect(within(row).getByText('tour')).toBeTruthy();
    expect(within(row).getByText('3')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Shop tour' }).getAttribute('href')).toBe('/flows/edit/Shop%20tour');
  });

  it("shows the spec's empty view without flows", async () => {
    renderPluginPage(<FlowsPage />, { plugins: [botsPlugin, templatesPlugin, flowsPlugin], features: ['flows', 'whatsapp_templates'], companyId: 1, signedIn: true, path: '/flows', http: fakeFlowServer([]), user: admin });
    expect(await screen.findByText('Nothing Found.', { exact: false })).toBeTruthy();
    expect(screen.getByText("There's no data at the moment, please check back in later.")).toBeTruthy();
  });

  it('searches by name, description and keyword', async () => {
    renderPluginPage(<FlowsPage />, { plugins: [botsPlugin, templatesPlugin, flowsPlugin], features: ['flows', 'whatsapp_templates'], companyId: 1, signedIn: true, path: '/flows', http: fakeFlowServer([flowFixture(1, 'Shop tour'), flowFixture(2, 'Support', { keywords: ['help'] })]), user: admin });
    await screen.findByRole('link', { name: 'Shop tour' });
    await userEvent.type(screen.getByLabelText('Search flows'), 'HELP');
    expect(screen.queryByRole('link', { name: 'Shop tour' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Support' })).toBeTruthy();
    await userEvent.clear(screen.getByLabelText('Search flows'));
    await userEvent.type(screen.getByLabelText('Search flows'), 'zzz');
    expect(screen.getByText('No flow matches "zzz".')).toBeTruthy();
  });

  it('deletes a flow after confirmation and reloads the list', async () => {
    const http = fakeFlowServer([flowFixture(1, 'Shop tour'), flowFixture(2, 'Support')]);
    const view = renderPluginPage(<FlowsPage />, { plugins: [botsPlugin, templatesPlugin, flowsPlugin], features: ['flows', 'whatsapp_templates'], companyId: 1, signedIn: true, path: '/flows', http, user: admin });
    await userEvent.click(await screen.findByRole('button', { name: 'Delete flow Shop tour' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete this flow?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Shop tour' })).toBeNull());
    expect(http.calls.some((c) => c.method === 'DELETE' && c.path === '/api/flows/1')).toBe(true);
    expect(view.alertText()).toBe('Flow deleted');
  });

  it("a refused delete shows 'Error ' + error + '(' + message + ')'", async () => {
    const http = fakeFlowServer([flowFixture(1, 'Shop tour')], { failDelete: new HttpError(409, { errors: [], error: 'Conflict', message: 'The flow is in use.' }) });
    const view = renderPluginPage(<FlowsPage />, { plugins: [botsPlugin, templatesPlugin, flowsPlugin], features: ['flows', 'whatsapp_templates'], companyId: 1, signedIn: true, path: '/flows', http, user: admin });
    await userEvent.click(await screen.findByRole('button', { name: 'Delete flow Shop tour' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(view.alertText()).toBe('Error Conflict(The flow is in use.)'));
    expect(view.alert().type).toBe('error');
  });

  it('a list load failure is only logged (no alert)', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const view = renderPluginPage(<FlowsPage />, { plugins: [botsPlugin, templatesPlugin, flowsPlugin], features: ['flows', 'whatsapp_templates'], companyId: 1, signedIn: true, path: '/flows', http: fakeFlowServer([], { failList: true }), user: admin });
    await waitFor(() => expect(log).toHaveBeenCalledWith('Flows: loading the list failed', expect.any(HttpError)));
    expect(view.alertText()).toBe('');
  });

  it('is reset and reloaded when the selected company changes', async () => {
    const http = fakeFlowServer([flowFixture(1, 'Shop tour')]);
    const view = renderPluginPage(<FlowsPage />, { plugins: [botsPlugin, templatesPlugin, flowsPlugin], features: ['flows', 'whatsapp_templates'], companyId: 1, signedIn: true, path: '/flows', http, user: admin });
    await screen.findByRole('link', { name: 'Shop tour' });
    await userEvent.type(screen.getByLabelText('Search flows'), 'shop');
    const before = flowsGets(http);
    act(() => view.account.selectCompany(2));
    await waitFor(() => expect(flowsGets(http)).toBeGreaterThan(before));
    await screen.findByRole('link', { name: 'Shop tour' });
    expect((screen.getByLabelText('Search flows') as HTMLInputElement).value).toBe('');
  });
});

describe('/flows on a phone', () => {
  it('shows each flow in one cell: name, description, keywords, steps and last edit', async () => {
    const restore = phoneScreen();
    try {
      const http = fakeFlowServer([flowFixture(1, 'Shop tour')]);
      renderPluginPage(<FlowsPage />, { plugins: [botsPlugin, templatesPlugin, flowsPlugin], features: ['flows', 'whatsapp_templates'], companyId: 1, signedIn: true, path: '/flows', http, user: admin });
      const cell = (await screen.findByRole('link', { name: 'Shop tour' })).closest('td')!;
      expect(within(cell).getByText('tour')).toBeTruthy();
      expect(cell.textContent).toContain('Steps 3 · ');
      expect(screen.getAllByRole('columnheader')).toHaveLength(2);
      expect(within(cell.closest('tr')!).getByRole('button', { name: 'Edit Shop tour' })).toBeTruthy();
    } finally {
      restore();
    }
  });
});
