// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { membership, testUser } from '../../core/account/testUsers';
import { createFakeHttp } from '../../core/testing/fakeHttp';
import { renderPluginPage } from '../../core/testing/renderPluginPage';
import { pageTranslations } from '../../app/pages/translations';
import DashboardPage from './DashboardPage';
import { dashboardPlugin } from './index';
import { createPlugin } from '../../core';

/** Plugins that serve the pages the steps link to (their pages do not matter here). */
const pagePlugin = (id: string, path: string) => createPlugin({ id, routes: [{ path, name: id, component: () => null }] });
const servedPages = [pagePlugin('channels', '/channels'), pagePlugin('chats', '/chats/:roomId?'), pagePlugin('team', '/team')];

describe('DashboardPage', () => {
  beforeEach(() => localStorage.clear());

  it('greets the user, shows the company card with the member count and only enabled, viewable next steps', async () => {
    const company = membership(1, { can_view_members: false }, { name: 'Demo Company', role: { id: 'agent', name: 'Agent' } });
    let resolveAccount: (value: unknown) => void = () => undefined;
    const http = createFakeHttp(() => new Promise((resolve) => (resolveAccount = resolve)));
    renderPluginPage(<DashboardPage />, { translations: [pageTranslations],
      path: '/dashboard',
      http,
      user: testUser([company]),
      companyId: 1,
      plugins: [dashboardPlugin, ...servedPages],
      features: ['dashboard', 'channels', 'chats', 'members', 'whatsapp_templates'],
    });

    expect(screen.getByRole('heading', { name: 'Welcome back, Ada' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Demo Company' })).toBeInTheDocument();
    expect(screen.getByText('Agent')).toBeInTheDocument();
    expect(screen.getByText('Free plan')).toBeInTheDocument();
    expect(screen.getByLabelText('Loading members')).toBeInTheDocument();

    resolveAccount({ ...company, members_count: 4 });
    expect(await screen.findByText('4')).toBeInTheDocument();
    expect(http.calls[0].path).toBe('/api/companies/1/account/');

    expect(screen.getByRole('link', { name: /Connect a channel/ })).toHaveAttribute('href', '/channels');
    expect(screen.getByRole('link', { name: /Answer conversations/ })).toHaveAttribute('href', '/chats');
    expect(screen.queryByRole('link', { name: /Invite your team/ })).not.toBeInTheDocument(); // members not viewable
    expect(screen.queryByRole('link', { name: /Build a bot/ })).not.toBeInTheDocument(); // flows not enabled
    // templates is enabled, but no loaded plugin serves /templates: no card leads to "Not Found"
    expect(screen.queryByRole('link', { name: /Create a message template/ })).not.toBeInTheDocument();
  });
});
