// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { membership, testUser } from '../../../core/account/testUsers';
import { HttpError } from '../../../core';
import { createFakeHttp } from '../../../core/testing/fakeHttp';
import { renderPluginPage } from '../../../core/testing/renderPluginPage';
import { pageTranslations } from '../translations';
import { CompanySelectPage } from './CompanySelectPage';

const demo = membership(1, {}, { name: 'Demo Company', role: { id: 'admin', name: 'Admin' }, subscription_plan_name: 'Pro' });
const northwind = membership(2, {}, { name: 'Northwind Shop', role: { id: 'agent', name: 'Agent' }, subscription_plan_name: null });
/** No invitation waiting. */
const noInvitations = () => createFakeHttp(() => ({ count: 0, results: [] }));

describe('CompanySelectPage', () => {
  beforeEach(() => localStorage.clear());

  it('counts the results, shows role and plan ("Free plan" by default) and filters case-insensitively', async () => {
    renderPluginPage(<CompanySelectPage />, { translations: [pageTranslations], path: '/company/select', user: testUser([demo, northwind]), companyId: null, http: noInvitations() });

    expect(screen.getByText('2 results')).toBeInTheDocument();
    const options = screen.getAllByRole('option');
    expect(options).toHaveLength(2);
    expect(within(options[0]).getByText('Demo Company')).toBeInTheDocument();
    expect(within(options[0]).getByText('Pro')).toBeInTheDocument();
    expect(within(options[1]).getByText('Agent')).toBeInTheDocument();
    expect(within(options[1]).getByText('Free plan')).toBeInTheDocument();

    const search = screen.getByRole('searchbox', { name: 'Search companies' });
    await userEvent.type(search, 'NORTH');
    expect(screen.getByText('1 result')).toBeInTheDocument();
    expect(screen.getAllByRole('option')).toHaveLength(1);
    expect(screen.getByRole('option', { name: /Northwind Shop/ })).toBeInTheDocument();

    await userEvent.clear(search);
    await userEvent.type(search, 'acme');
    expect(screen.getByText('0 results')).toBeInTheDocument();
    expect(screen.getByText('No companies found.')).toBeInTheDocument();
    expect(screen.queryByRole('option')).not.toBeInTheDocument();
  });

  it('shows "1 result" and the empty state for a user without companies', () => {
    const { unmount } = renderPluginPage(<CompanySelectPage />, { translations: [pageTranslations], path: '/company/select', user: testUser([demo]), companyId: null, http: noInvitations() });
    expect(screen.getByText('1 result')).toBeInTheDocument();
    unmount();
    renderPluginPage(<CompanySelectPage />, { translations: [pageTranslations], path: '/company/select', user: testUser([]), companyId: null, http: noInvitations() });
    expect(screen.getByText('No companies found.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create Company' })).toHaveAttribute('href', '/company/create');
  });

  it('selects the chosen company and opens the dashboard', async () => {
    const { account } = renderPluginPage(<CompanySelectPage />, { translations: [pageTranslations], path: '/company/select', user: testUser([demo, northwind]), companyId: null, http: noInvitations() });
    await userEvent.click(screen.getByRole('option', { name: /Northwind Shop/ }));
    expect(account.getCompanyId()).toBe(2);
    expect(screen.getByTestId('location')).toHaveTextContent('/dashboard');
  });

  describe('invitations waiting for the user', () => {
    const invitation = (id: number, name: string, invitedBy: string | null = 'Olivia Owner') => ({
      id,
      company: { id: 100 + id, name, logo: null },
      role: { id: 'manager', name: 'Manager' },
      invited_by: invitedBy,
      created_at: '2026-11-20T10:00:00.000Z',
      expires_at: '2026-11-27T10:00:00.000Z',
    });
    const acme = membership(101, {}, { name: 'Acme', role: { id: 'manager', name: 'Manager' }, subscription_plan_name: null });

    function fakeServer(options: { failAccept?: boolean } = {}) {
      let open = [invitation(1, 'Acme'), invitation(2, 'Globex', null)];
      let joined = false;
      const http = createFakeHttp((method, path) => {
        if (method === 'GET' && path === '/api/invitations/') return { count: open.length, results: open };
        if (method === 'POST' && path === '/api/invitations/1/accept/') {
          if (options.failAccept) throw new HttpError(404, { detail: 'Not found.', code: 'not_found' });
          open = open.filter((i) => i.id !== 1);
          joined = true;
          return { detail: 'Invitation accepted.', company_id: 101 };
        }
        if (method === 'POST' && path === '/api/invitations/2/decline/') {
          open = open.filter((i) => i.id !== 2);
          return { detail: 'Invitation declined.' };
        }
        if (method === 'GET' && path === '/account/user/') return testUser(joined ? [acme] : []);
        throw new Error(`unexpected ${method} ${path}`);
      });
      return http;
    }

    it('a user without a company sees the invitations with who invited them and the role, above "create company"', async () => {
      renderPluginPage(<CompanySelectPage />, { translations: [pageTranslations], path: '/company/select', user: testUser([]), companyId: null, http: fakeServer() });
      const list = await screen.findByRole('list', { name: 'Invitations waiting for you' });
      const items = within(list).getAllByRole('listitem');
      expect(items).toHaveLength(2);
      expect(within(items[0]).getByText('Acme')).toBeInTheDocument();
      expect(within(items[0]).getByText('Invited by Olivia Owner as Manager')).toBeInTheDocument();
      expect(within(items[1]).getByText('Invited as Manager')).toBeInTheDocument();
      expect(screen.getByText('No companies found.')).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Create Company' })).toBeInTheDocument();
    });

    it('Join accepts, reloads the account so the company is listed, and offers to open it', async () => {
      const http = fakeServer();
      const { account } = renderPluginPage(<CompanySelectPage />, { translations: [pageTranslations], path: '/company/select', user: testUser([]), companyId: null, http });
      await userEvent.click(await screen.findByRole('button', { name: 'Join Acme' }));

      expect(await screen.findByText('You joined Acme.')).toBeInTheDocument();
      expect(http.calls.map((c) => `${c.method} ${c.path}`)).toEqual(['GET /api/invitations/', 'POST /api/invitations/1/accept/', 'GET /account/user/']);
      expect(screen.getByRole('option', { name: /Acme/ })).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Join Acme' })).not.toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Join Globex' })).toBeInTheDocument();

      await userEvent.click(screen.getByRole('button', { name: 'Open Acme' }));
      expect(account.getCompanyId()).toBe(101);
      expect(screen.getByTestId('location')).toHaveTextContent('/dashboard');
    });

    it('Decline removes the invitation and joins nothing', async () => {
      const http = fakeServer();
      const { account, alertText } = renderPluginPage(<CompanySelectPage />, { translations: [pageTranslations], path: '/company/select', user: testUser([]), companyId: null, http });
      await userEvent.click(await screen.findByRole('button', { name: 'Decline the invitation from Globex' }));
      await waitFor(() => expect(screen.queryByText('Globex')).not.toBeInTheDocument());
      expect(alertText()).toBe('Invitation from Globex declined.');
      expect(http.calls.map((c) => `${c.method} ${c.path}`)).toEqual(['GET /api/invitations/', 'POST /api/invitations/2/decline/']);
      expect(account.getUser()?.companies).toEqual([]);
      expect(screen.getByRole('button', { name: 'Join Acme' })).toBeInTheDocument();
    });

    it('an invitation that is gone meanwhile shows the error and the list as the server has it', async () => {
      const http = fakeServer({ failAccept: true });
      const { alertText } = renderPluginPage(<CompanySelectPage />, { translations: [pageTranslations], path: '/company/select', user: testUser([]), companyId: null, http });
      await userEvent.click(await screen.findByRole('button', { name: 'Join Acme' }));
      await waitFor(() => expect(alertText()).toBe('Not found.'));
      await waitFor(() => expect(http.calls.filter((c) => c.path === '/api/invitations/')).toHaveLength(2));
      expect(screen.queryByText('You joined Acme.')).not.toBeInTheDocument();
    });

    it('shows nothing when no invitation is waiting', async () => {
      const http = noInvitations();
      renderPluginPage(<CompanySelectPage />, { translations: [pageTranslations], path: '/company/select', user: testUser([demo]), companyId: null, http });
      await waitFor(() => expect(http.calls).toHaveLength(1));
      expect(screen.queryByText('Invitations waiting for you')).not.toBeInTheDocument();
    });
  });
});
