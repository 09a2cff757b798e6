// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpError, type HttpProvider } from '../../core';
import { membership, testUser } from '../../core/account/testUsers';
import { createFakeHttp } from '../../core/testing/fakeHttp';
import { renderPluginPage } from '../../core/testing/renderPluginPage';
import { pageTranslations } from '../../app/pages/translations';
import AccountPage from './AccountPage';
import { accountPlugin } from './index';

function renderAccount(http: HttpProvider, permissions: Record<string, boolean> = { can_manage_your_account: true }) {
  return renderPluginPage(<AccountPage />, { translations: [pageTranslations],
    path: '/account',
    http,
    user: testUser([membership(1, permissions, { name: 'Demo Company' })]),
    companyId: 1,
    plugins: [accountPlugin],
    features: ['your_account'],
  });
}

async function changePassword() {
  const section = screen.getByRole('region', { name: 'Change password' });
  await userEvent.type(within(section).getByLabelText('Current password'), 'Old-Secret-11');
  await userEvent.type(within(section).getByLabelText('New password'), 'New-Secret-22');
  await userEvent.type(within(section).getByLabelText('Confirm new password'), 'New-Secret-22');
  await userEvent.click(within(section).getByRole('button', { name: 'Change password' }));
}

describe('AccountPage', () => {
  beforeEach(() => localStorage.clear());

  it('shows the profile', () => {
    renderAccount(createFakeHttp(() => undefined));
    expect(screen.getByText('Ada Lovelace')).toBeInTheDocument();
    expect(screen.getByText('ada@example.com')).toBeInTheDocument();
  });

  it("changes the password and says 'Password successful changed'", async () => {
    const http = createFakeHttp(() => ({ detail: 'ok' }));
    const { alertText } = renderAccount(http);
    await changePassword();
    await waitFor(() => expect(alertText()).toBe('Password successful changed'));
    expect(http.calls.find((c) => c.method === 'POST')).toMatchObject({
      method: 'POST',
      path: '/account/password/change/',
      options: { body: { old_password: 'Old-Secret-11', new_password1: 'New-Secret-22', new_password2: 'New-Secret-22' } },
    });
  });

  it("shows the server's new_password2 message when there is one", async () => {
    const http = createFakeHttp(() => {
      throw new HttpError(400, { new_password2: ['This password is too common.'] });
    });
    const { alertText } = renderAccount(http);
    await changePassword();
    await waitFor(() => expect(alertText()).toBe('This password is too common.'));
  });

  it("shows 'Password update failed' for other errors", async () => {
    const http = createFakeHttp(() => {
      throw new HttpError(400, { old_password: ['Your old password was entered incorrectly.'] });
    });
    const { alertText } = renderAccount(http);
    await changePassword();
    await waitFor(() => expect(alertText()).toBe('Password update failed'));
  });

  it('edits company settings with manage access and reloads the user after saving', async () => {
    const renamed = testUser([membership(1, { can_manage_your_account: true }, { name: 'Renamed Co' })]);
    const http = createFakeHttp((method, path) => {
      if (method === 'PATCH') return { id: 1, name: 'Renamed Co', logo: null };
      if (path === '/account/user/') return renamed;
      throw new Error(`unexpected ${method} ${path}`);
    });
    const { account } = renderAccount(http);
    const section = screen.getByRole('region', { name: 'Company settings' });
    const name = within(section).getByRole('textbox', { name: 'Company name' });
    await userEvent.clear(name);
    await userEvent.type(name, 'Renamed Co');
    await userEvent.click(within(section).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(account.getCompany()?.name).toBe('Renamed Co'));
    expect(http.calls.find((c) => c.method === 'PATCH')).toMatchObject({ method: 'PATCH', path: '/api/companies/1/', options: { body: { name: 'Renamed Co', logo: null } } });
  });

  it('shows company settings read-only without manage access', () => {
    renderAccount(createFakeHttp(() => undefined), {});
    const section = screen.getByRole('region', { name: 'Company settings' });
    expect(within(section).getByText('Demo Company')).toBeInTheDocument();
    expect(within(section).queryByRole('textbox')).not.toBeInTheDocument();
  });
});
