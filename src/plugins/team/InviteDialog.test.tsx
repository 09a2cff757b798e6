// @vitest-environment jsdom
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpError } from '../../core';
import { createFakeHttp } from '../../core/testing/fakeHttp';
import { InviteDialog } from './InviteDialog';
import { renderPluginPage } from '../../core/testing/renderPluginPage';
import { teamPlugin } from './index';
import { invite, ROLES, viewer } from './testing/fixtures';

function renderDialog(http: ReturnType<typeof createFakeHttp>, role: 'admin' | 'manager' = 'admin') {
  const onSent = vi.fn();
  const result = renderPluginPage(<InviteDialog open onClose={() => undefined} onSent={onSent} />, { plugins: [teamPlugin], features: ['members'], signedIn: true,
    path: '/team',
    http,
    user: viewer({ can_manage_members: true }, role),
    companyId: 1,
  });
  return { ...result, onSent };
}

const roles = (method: string, path: string) => (method === 'GET' && path === '/api/roles/' ? { results: ROLES } : undefined);

describe('InviteDialog', () => {
  beforeEach(() => localStorage.clear());

  it("sends several addresses with the default Agent role and says 'Invites successfully sent'", async () => {
    const http = createFakeHttp((method, path) => roles(method, path) ?? { results: [invite(1, 'a@example.com'), invite(2, 'b@example.com')] });
    const { alertText, onSent } = renderDialog(http);
    const dialog = screen.getByRole('dialog', { name: 'Invite members' });
    expect(within(dialog).getByRole('combobox', { name: 'Role' })).toHaveTextContent('Agent');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'E-mail addresses' }), 'A@example.com, b@example.com{enter}a@example.com');
    expect(within(screen.getByTestId('invite-chips')).getAllByText(/@example\.com/).map((c) => c.textContent)).toEqual(['a@example.com', 'b@example.com']);
    expect(within(dialog).getByText('2 addresses')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send invites' }));
    await waitFor(() => expect(alertText()).toBe('Invites successfully sent'));
    expect(http.calls.find((c) => c.method === 'POST')).toMatchObject({
      path: '/api/invites/bulk/',
      options: { body: { invites: [{ email: 'a@example.com', role_id: 'agent' }, { email: 'b@example.com', role_id: 'agent' }] } },
    });
    expect(onSent).toHaveBeenCalledWith([expect.objectContaining({ email: 'a@example.com' }), expect.objectContaining({ email: 'b@example.com' })]);
  });

  it('refuses invalid addresses and sends nothing', async () => {
    const http = createFakeHttp((method, path) => roles(method, path));
    renderDialog(http);
    const dialog = screen.getByRole('dialog', { name: 'Invite members' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'E-mail addresses' }), 'ok@example.com, nope');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send invites' }));
    expect(await within(dialog).findByText('Not a valid e-mail address: nope')).toBeInTheDocument();
    expect(http.calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('asks for at least one address', async () => {
    const http = createFakeHttp((method, path) => roles(method, path));
    renderDialog(http);
    const dialog = screen.getByRole('dialog', { name: 'Invite members' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send invites' }));
    expect(await within(dialog).findByText('Add at least one e-mail address.')).toBeInTheDocument();
    expect(http.calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('sends the chosen role, and shows the server refusal', async () => {
    const http = createFakeHttp((method, path) => {
      const r = roles(method, path);
      if (r) return r;
      throw new HttpError(400, { invites: ['grace@example.com is already a member.'] });
    });
    const { alertText } = renderDialog(http);
    const dialog = screen.getByRole('dialog', { name: 'Invite members' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'E-mail addresses' }), 'grace@example.com');
    await userEvent.click(within(dialog).getByRole('combobox', { name: 'Role' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Manager' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send invites' }));
    expect(await within(dialog).findByText('grace@example.com is already a member.')).toBeInTheDocument();
    expect(alertText()).toBe('grace@example.com is already a member.');
    expect(http.calls.find((c) => c.method === 'POST')?.options.body).toEqual({ invites: [{ email: 'grace@example.com', role_id: 'manager' }] });
  });

  it('offers the admin role only to admins', async () => {
    const http = createFakeHttp((method, path) => roles(method, path));
    renderDialog(http, 'manager');
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('combobox', { name: 'Role' }));
    await waitFor(() => expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Manager', 'Agent']));
  });
});
