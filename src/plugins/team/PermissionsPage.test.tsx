// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createPlugin, HttpError, type ConsolePlugin } from '../../core';
import { PERMISSION_AREAS } from '../../../contract/permissions';
import { createFakeHttp } from '../../core/testing/fakeHttp';
import type { RolePermissions } from '../../../contract/team';
import PermissionsPage from './PermissionsPage';
import { renderPluginPage } from '../../core/testing/renderPluginPage';
import { teamPlugin } from './index';
import { rolePermissions, viewer } from './testing/fixtures';

const MANAGER = viewer({ can_view_permissions: true, can_manage_permissions: true });

function api(options: { failPatch?: boolean } = {}) {
  let roles = rolePermissions();
  return createFakeHttp((method, path, request) => {
    if (method === 'GET' && path === '/api/permissions/') return { results: roles };
    if (method === 'PATCH' && path.startsWith('/api/permissions/')) {
      if (options.failPatch) throw new HttpError(400, { permissions: ['Unknown permission.'] });
      const roleId = path.split('/')[3];
      const body = request.body as { permissions: Record<string, boolean> };
      roles = roles.map((r) => (r.role_id === roleId ? { ...r, permissions: { ...r.permissions, ...body.permissions } } : r)) as RolePermissions[];
      return roles.find((r) => r.role_id === roleId);
    }
    if (method === 'GET' && path === '/account/user/') return MANAGER;
    throw new Error(`unexpected ${method} ${path}`);
  });
}

/** A plugin serving a page in each area, so every area has a row. */
const everyArea = createPlugin({ id: 'every-area', routes: PERMISSION_AREAS.map((area) => ({ path: `/${area}-page`, name: area, component: () => null })) });

function renderPermissions(http = api(), user = MANAGER, plugins: ConsolePlugin[] = [everyArea]) {
  return renderPluginPage(<PermissionsPage />, { plugins: [teamPlugin, ...plugins], features: ['members'], signedIn: true, path: '/permissions', http, user, companyId: 1 });
}

const box = (action: 'View' | 'Manage', area: string, role: string) => screen.getByLabelText(`${action} ${area} (${role})`);

describe('PermissionsPage', () => {
  beforeEach(() => localStorage.clear());

  it('shows the 13 areas for each role; admins are read-only, the others editable with manage access', async () => {
    renderPermissions();
    expect(await screen.findByRole('rowheader', { name: 'Dashboard' })).toBeInTheDocument();
    expect(screen.getAllByRole('rowheader')).toHaveLength(13);
    expect(screen.getAllByRole('checkbox')).toHaveLength(13 * 3 * 2);
    expect(box('View', 'Dashboard', 'Admin')).toBeDisabled();
    expect(box('View', 'Dashboard', 'Admin')).toBeChecked();
    expect(box('View', 'Dashboard', 'Agent')).toBeEnabled();
    expect(box('View', 'Dashboard', 'Agent')).toBeChecked();
    expect(box('Manage', 'Team members', 'Agent')).not.toBeChecked();
    expect(box('Manage', 'Team members', 'Manager')).toBeChecked();
    expect(screen.getByRole('button', { name: 'Save changes' })).toBeDisabled();
  });

  it('shows rows only for the areas of loaded plugins, and a save keeps the other flags', async () => {
    const chats = createPlugin({ id: 'chats', routes: [{ path: '/chats/:roomId?', name: 'chats', component: () => null }] });
    const http = api();
    renderPermissions(http, MANAGER, [chats]);
    await screen.findByRole('rowheader', { name: 'Team members' });
    // the team plugin serves members and permissions; chats comes from the plugin above
    expect(screen.getAllByRole('rowheader').map((row) => row.textContent)).toEqual(['Chats', 'Team members', 'Permissions']);
    expect(screen.queryByRole('rowheader', { name: 'Billing' })).not.toBeInTheDocument();
    await userEvent.click(box('Manage', 'Team members', 'Agent'));
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(http.calls.filter((c) => c.method === 'PATCH')).toHaveLength(1));
    const sent = (http.calls.find((c) => c.method === 'PATCH')!.options.body as { permissions: Record<string, boolean> }).permissions;
    expect(sent).toMatchObject({ can_manage_members: true, can_view_stats: true, can_manage_billing: false });
    expect(Object.keys(sent)).toHaveLength(26);
  });

  it('is read-only without manage access to permissions', async () => {
    renderPermissions(api(), viewer({ can_view_permissions: true }, 'manager'));
    await screen.findByRole('rowheader', { name: 'Dashboard' });
    expect(screen.getAllByRole('checkbox').every((c) => (c as HTMLInputElement).disabled)).toBe(true);
    expect(screen.getByText('Only members allowed to manage permissions can change them.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save changes' })).not.toBeInTheDocument();
  });

  it('keeps view and manage consistent', async () => {
    renderPermissions();
    await screen.findByRole('rowheader', { name: 'Dashboard' });
    await userEvent.click(box('Manage', 'Billing', 'Agent'));
    expect(box('View', 'Billing', 'Agent')).toBeChecked();
    await userEvent.click(box('View', 'Billing', 'Agent'));
    expect(box('Manage', 'Billing', 'Agent')).not.toBeChecked();
  });

  it("saves only the changed role's map and reloads the signed-in user", async () => {
    const http = api();
    const { alertText } = renderPermissions(http);
    await screen.findByRole('rowheader', { name: 'Dashboard' });
    await userEvent.click(box('View', 'Statistics', 'Agent'));
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(alertText()).toBe('Permissions saved'));
    const patches = http.calls.filter((c) => c.method === 'PATCH');
    expect(patches).toHaveLength(1);
    expect(patches[0].path).toBe('/api/permissions/agent/');
    const sent = (patches[0].options.body as { permissions: Record<string, boolean> }).permissions;
    expect(sent).toMatchObject({ can_view_stats: false, can_manage_stats: false, can_view_dashboard: true, can_manage_chats: true });
    expect(Object.keys(sent)).toHaveLength(26);
    expect(http.calls.some((c) => c.path === '/account/user/')).toBe(true);
    await waitFor(() => expect(box('View', 'Statistics', 'Agent')).not.toBeChecked());
    expect(screen.getByRole('button', { name: 'Save changes' })).toBeDisabled();
  });

  it('says when saving fails', async () => {
    const { alertText } = renderPermissions(api({ failPatch: true }));
    await screen.findByRole('rowheader', { name: 'Dashboard' });
    await userEvent.click(box('View', 'Statistics', 'Manager'));
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(alertText()).toBe('Could not save the permissions of Manager: Unknown permission.'));
  });
});
