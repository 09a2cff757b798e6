// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router-dom';
import { accountApiRef, httpApiRef } from '../apis';
import { overrideApi } from '../plugins/createConsole';
import { membership, testUser } from '../account/testUsers';
import { createFakeHttp } from '../testing/fakeHttp';
import { renderPluginPage } from '../testing/renderPluginPage';
import { PendingInvitationsNotice } from './PendingInvitationsNotice';

function Where() {
  return <output data-testid="location">{useLocation().pathname}</output>;
}

function renderNotice(results: unknown) {
  const http = createFakeHttp((method, path) => {
    if (method === 'GET' && path === '/api/invitations/') {
      if (results instanceof Error) throw results;
      return { count: (results as unknown[]).length, results };
    }
    throw new Error(`unexpected ${method} ${path}`);
  });
  const rendered = renderPluginPage(
    <Routes>
      <Route path="*" element={<><PendingInvitationsNotice /><Where /></>} />
    </Routes>,
    { adminContext: false, route: false, path: '/dashboard', overrides: [overrideApi(httpApiRef, http)] },
  );
  act(() => rendered.console.get(accountApiRef).setUser(testUser([membership(1)])));
  return { ...rendered, http };
}

const invitation = (id: number, name: string) => ({ id, company: { id: 10 + id, name, logo: null }, role: { id: 'agent', name: 'Agent' }, invited_by: null, created_at: '', expires_at: '' });

describe('PendingInvitationsNotice (the shell)', () => {
  beforeEach(() => localStorage.clear());

  it('names the inviting companies and leads to the company page where they are answered', async () => {
    renderNotice([invitation(1, 'Acme'), invitation(2, 'Globex')]);
    expect(await screen.findByText('You are invited to join Acme, Globex.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Review invitations' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/company/select');
  });

  it('can be hidden', async () => {
    renderNotice([invitation(1, 'Acme')]);
    await userEvent.click(await screen.findByRole('button', { name: 'Hide' }));
    expect(screen.queryByText(/You are invited/)).not.toBeInTheDocument();
  });

  it('shows nothing when nothing waits', async () => {
    const { http } = renderNotice([]);
    await waitFor(() => expect(http.calls).toHaveLength(1));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows nothing when the list fails', async () => {
    const { http } = renderNotice(new Error('offline'));
    await waitFor(() => expect(http.calls).toHaveLength(1));
    expect(screen.queryByText(/You are invited/)).not.toBeInTheDocument();
  });
});
