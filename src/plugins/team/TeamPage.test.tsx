// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpError, type RequestOptions } from '../../core';
import { createFakeHttp } from '../../core/testing/fakeHttp';
import type { TeamMember } from '../../../contract/team';
import TeamPage from './TeamPage';
import { renderPluginPage } from '../../core/testing/renderPluginPage';
import { phoneScreen } from '../../core/testing/phoneScreen';
import { teamPlugin } from './index';
import { invite, MEMBERS, ROLES, viewer } from './testing/fixtures';

type Handler = (method: string, path: string, options: RequestOptions) => unknown;

/** A fake API over an in-memory member list; `extra` answers first (return undefined to fall through). */
function fakeApi(extra: Handler = () => undefined, members: TeamMember[] = MEMBERS.map((m) => ({ ...m }))) {
  let list = members;
  const capacities = new Map(members.map((m) => [m.id, 20]));
  const http = createFakeHttp((method, path, options) => {
    const answer = extra(method, path, options);
    if (answer !== undefined) return answer;
    if (method === 'GET' && path === '/api/roles/') return { results: ROLES };
    if (method === 'GET' && path === '/api/members/') {
      const search = String(options.query?.search ?? '').toLowerCase();
      const results = list.filter((m) => !search || `${m.first_name} ${m.last_name} ${m.email}`.toLowerCase().includes(search));
      return { count: results.length, next: null, previous: null, results };
    }
    if (method === 'PATCH' && path.startsWith('/api/members/')) {
      const id = Number(path.split('/')[3]);
      const roleId = (options.body as { role_id: TeamMember['role_id'] }).role_id;
      list = list.map((m) => (m.id === id ? { ...m, role_id: roleId, role: { id: roleId, name: ROLES.find((r) => r.id === roleId)!.name } } : m));
      return list.find((m) => m.id === id);
    }
    if (method === 'DELETE' && path.startsWith('/api/members/')) {
      const id = Number(path.split('/')[3]);
      list = list.filter((m) => m.id !== id);
      return undefined;
    }
    if (method === 'GET' && path === '/api/assignment-capacities/') return { count: capacities.size, results: [...capacities].map(([user_id, capacity]) => ({ user_id, capacity })) };
    if (method === 'PUT' && path.startsWith('/api/assignment-capacities/')) {
      const id = Number(path.split('/')[3]);
      capacities.set(id, (options.body as { capacity: number }).capacity);
      return { user_id: id, capacity: capacities.get(id) };
    }
    if (method === 'GET' && path === '/api/invites/') return { count: 1, next: null, previous: null, results: [invite(9, 'new@example.com')] };
    if (method === 'GET' && path === '/account/user/') return viewer({ can_manage_members: true, can_view_members: true });
    throw new Error(`unexpected ${method} ${path}`);
  });
  return http;
}

const ADMIN = viewer({ can_view_members: true, can_manage_members: true });

function renderTeam(http = fakeApi(), user = ADMIN) {
  return renderPluginPage(<TeamPage />, { plugins: [teamPlugin], features: ['members'], signedIn: true, path: '/team', http, user, companyId: 1 });
}

function row(text: string) {
  return screen.getByText(text).closest('tr')!;
}

async function chooseRole(memberName: string, roleName: string) {
  await userEvent.click(await screen.findByRole('combobox', { name: `Role of ${memberName}` }));
  await userEvent.click(await screen.findByRole('option', { name: roleName }));
}

describe('TeamPage members', () => {
  beforeEach(() => localStorage.clear());

  it('lists the members with name, e-mail and role, paged and sorted through the API', async () => {
    const http = fakeApi();
    renderTeam(http);
    expect(await screen.findByText('Grace Hopper')).toBeInTheDocument();
    expect(screen.getByText('grace@example.com')).toBeInTheDocument();
    expect(screen.getByText('Ada Lovelace')).toBeInTheDocument();
    expect(within(row('Ada Lovelace')).getByText('You')).toBeInTheDocument();
    const list = http.calls.find((c) => c.path === '/api/members/')!;
    expect(list.options.query).toMatchObject({ page: 1, page_size: 25, ordering: 'first_name' });
    // spec §9 page sizes
    await userEvent.click(screen.getByRole('combobox', { name: /rows per page/i }));
    const sizes = screen.getAllByRole('option').map((o) => o.textContent);
    expect(sizes).toEqual(['10', '25', '50', '100', 'All']);
  });

  it('searches with `search` and shows the empty-data view when nothing matches', async () => {
    const http = fakeApi();
    renderTeam(http);
    await screen.findByText('Grace Hopper');
    await userEvent.type(screen.getByPlaceholderText('Search'), 'zzz');
    expect(await screen.findByText('Nothing Found.', {}, { timeout: 3000 })).toBeInTheDocument();
    expect(http.calls.some((c) => c.path === '/api/members/' && c.options.query?.search === 'zzz')).toBe(true);
  });

  it('sorts by e-mail when the header is clicked', async () => {
    const http = fakeApi();
    renderTeam(http);
    await screen.findByText('Grace Hopper');
    await userEvent.click(screen.getByLabelText('Sort by e-mail ascending'));
    await waitFor(() => expect(http.calls.some((c) => c.path === '/api/members/' && c.options.query?.ordering === 'email')).toBe(true));
  });

  it("changes a role in place and says 'Success : Member role has been updated!'", async () => {
    const http = fakeApi();
    const { alertText } = renderTeam(http);
    await chooseRole('Grace Hopper', 'Manager');
    await waitFor(() => expect(alertText()).toBe('Success : Member role has been updated!'));
    expect(http.calls.find((c) => c.method === 'PATCH')).toMatchObject({ path: '/api/members/2/', options: { body: { role_id: 'manager' } } });
    await waitFor(() => expect(within(row('Grace Hopper')).getByRole('combobox')).toHaveTextContent('Manager'));
  });

  it('says which status failed, in both places, when the role update fails', async () => {
    const http = fakeApi((method) => {
      if (method === 'PATCH') throw new HttpError(500, null, 'Internal Server Error');
    });
    const { alertText } = renderTeam(http);
    await chooseRole('Grace Hopper', 'Manager');
    await waitFor(() => expect(alertText()).toBe('Error 500: occured while updating member role(500)'));
    expect(within(row('Grace Hopper')).getByRole('combobox')).toHaveTextContent('Agent');
  });

  it("adds the server's message, e.g. the last admin", async () => {
    const http = fakeApi((method) => {
      if (method === 'PATCH') throw new HttpError(400, { role_id: ['A company needs at least one admin.'] });
    });
    const { alertText } = renderTeam(http);
    await chooseRole('Ada Lovelace', 'Agent');
    await waitFor(() => expect(alertText()).toBe('Error 400: occured while updating member role(400) A company needs at least one admin.'));
  });

  it("removes a member after confirmation, refreshes the list and says 'Member successfully removed'", async () => {
    const http = fakeApi();
    const { alertText } = renderTeam(http);
    await userEvent.click(await screen.findByRole('button', { name: 'Remove Grace Hopper' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove member' });
    expect(dialog).toHaveTextContent('grace@example.com');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(alertText()).toBe('Member successfully removed'));
    expect(http.calls.find((c) => c.method === 'DELETE')?.path).toBe('/api/members/2/');
    await waitFor(() => expect(screen.queryByText('Grace Hopper')).not.toBeInTheDocument());
  });

  it('asks explicitly before you leave the company, and shows the last-admin refusal', async () => {
    const http = fakeApi((method) => {
      if (method === 'DELETE') throw new HttpError(400, { detail: 'A company needs at least one admin.', code: 'last_admin' });
    });
    const { alertText } = renderTeam(http);
    await userEvent.click(await screen.findByRole('button', { name: 'Leave this company' }));
    const dialog = await screen.findByRole('dialog', { name: 'Leave this company?' });
    expect(dialog).toHaveTextContent('Demo Company');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Leave company' }));
    await waitFor(() => expect(alertText()).toBe('A company needs at least one admin.'));
    expect(screen.getByText('Ada Lovelace')).toBeInTheDocument();
  });

  it("sets a member's capacity for auto-assignment (default 20), saved when the field is left; a bad number is refused", async () => {
    const http = fakeApi();
    const view = renderTeam(http);
    const field = await screen.findByRole('spinbutton', { name: 'Capacity of Grace Hopper' });
    expect(field).toHaveValue(20);
    await userEvent.clear(field);
    await userEvent.type(field, '5{Enter}');
    await waitFor(() => expect(view.alertText()).toBe('Capacity saved'));
    expect(http.calls.filter((c) => c.method === 'PUT').map((c) => c.options.body)).toEqual([{ capacity: 5 }]);
    await waitFor(() => expect(screen.getByRole('spinbutton', { name: 'Capacity of Grace Hopper' })).toHaveValue(5));
    await userEvent.clear(screen.getByRole('spinbutton', { name: 'Capacity of Grace Hopper' }));
    await userEvent.type(screen.getByRole('spinbutton', { name: 'Capacity of Grace Hopper' }), '-3{Enter}');
    await waitFor(() => expect(view.alertText()).toBe('The capacity is a whole number from 0 to 1000.'));
    expect(http.calls.filter((c) => c.method === 'PUT')).toHaveLength(1);
  });

  it('is read-only without manage access: no role select, no remove, no invite', async () => {
    renderTeam(fakeApi(), viewer({ can_view_members: true }, 'agent'));
    await screen.findByText('Grace Hopper');
    expect(screen.queryByRole('combobox', { name: /Role of/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Remove/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Invite members' })).not.toBeInTheDocument();
    expect(within(row('Grace Hopper')).getByText('Agent')).toBeInTheDocument();
    // one may still leave
    expect(screen.getByRole('button', { name: 'Leave this company' })).toBeInTheDocument();
  });

  it('offers the admin role only to admins', async () => {
    renderTeam(fakeApi(), viewer({ can_view_members: true, can_manage_members: true }, 'manager'));
    await userEvent.click(await screen.findByRole('combobox', { name: 'Role of Grace Hopper' }));
    const options = screen.getAllByRole('option').map((o) => o.textContent);
    expect(options).toEqual(['Manager', 'Agent']);
    // an admin's role is not the manager's to change
    expect(screen.queryByRole('combobox', { name: 'Role of Ada Lovelace' })).not.toBeInTheDocument();
  });
});

describe('TeamPage invites', () => {
  beforeEach(() => localStorage.clear());

  it('lists pending invites and revokes one', async () => {
    let revoked = false;
    const http = fakeApi((method, path) => {
      if (method === 'DELETE' && path === '/api/invites/9/') {
        revoked = true;
        return null;
      }
      if (method === 'GET' && path === '/api/invites/' && revoked) return { count: 0, next: null, previous: null, results: [] };
    });
    const { alertText } = renderTeam(http);
    await userEvent.click(await screen.findByRole('tab', { name: 'Pending invites' }));
    expect(await screen.findByText('new@example.com')).toBeInTheDocument();
    expect(within(row('new@example.com')).getByText('Agent')).toBeInTheDocument();
    expect(within(row('new@example.com')).getByText('Ada Lovelace')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Revoke invite to new@example.com' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(alertText()).toBe('Invite revoked'));
    expect(await screen.findByText('Nothing Found.')).toBeInTheDocument();
  });

  it('asks for pending invites first, and shows declined ones with their status and no revoke action', async () => {
    const http = fakeApi((method, path, options) => {
      if (method === 'GET' && path === '/api/invites/' && options?.query?.status === 'declined') {
        return { count: 1, next: null, previous: null, results: [{ ...invite(12, 'no-thanks@example.com'), status: 'declined' }] };
      }
    });
    renderTeam(http);
    await userEvent.click(await screen.findByRole('tab', { name: 'Pending invites' }));
    expect(await screen.findByText('new@example.com')).toBeInTheDocument();
    expect(http.calls.find((c) => c.path === '/api/invites/')?.options.query).toMatchObject({ status: 'pending' });

    await userEvent.click(screen.getByRole('combobox', { name: 'Show' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Declined' }));
    expect(await screen.findByText('no-thanks@example.com')).toBeInTheDocument();
    expect(within(row('no-thanks@example.com')).getByText('Declined')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Revoke invite to no-thanks@example.com' })).not.toBeInTheDocument();
  });
});

describe('TeamPage members on a phone', () => {
  let restore: () => void;
  beforeEach(() => {
    localStorage.clear();
    restore = phoneScreen();
  });
  afterEach(() => restore());

  it('stacks each member in one cell, e-mail, role and capacity included, instead of columns scrolled sideways', async () => {
    const http = fakeApi();
    renderTeam(http);
    const cell = (await screen.findByText('Grace Hopper')).closest('td')!;
    expect(within(cell).getByText('grace@example.com')).toBeInTheDocument();
    expect(within(cell).getByRole('combobox', { name: 'Role of Grace Hopper' })).toBeInTheDocument();
    expect(await within(cell).findByRole('spinbutton', { name: /Grace Hopper/ })).toBeInTheDocument();
    expect(screen.queryByRole('columnheader', { name: 'E-mail' })).toBeNull();
    expect(screen.queryByRole('columnheader', { name: 'Capacity' })).toBeNull();
    // The role is still changed from there.
    await chooseRole('Grace Hopper', 'Manager');
    await waitFor(() => expect(http.calls.some((c) => c.method === 'PATCH' && c.path.startsWith('/api/members/'))).toBe(true));
  });

  it('stacks each pending invite in one cell: address, status, then role, who invited and the expiry', async () => {
    renderTeam(fakeApi());
    await userEvent.click(await screen.findByRole('tab', { name: 'Pending invites' }));
    const cell = (await screen.findByText('new@example.com')).closest('td')!;
    expect(within(cell).getByText('Pending')).toBeInTheDocument();
    expect(cell.textContent).toContain('Role Agent · Invited by Ada Lovelace · Expires');
    expect(within(cell.closest('tr')!).getByRole('button', { name: 'Revoke invite to new@example.com' })).toBeInTheDocument();
  });
});
