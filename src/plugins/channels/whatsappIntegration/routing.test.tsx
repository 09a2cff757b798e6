// @vitest-environment jsdom
/**
 * Spec §2 /whatsapp-integration through the real ConsoleApp and the channels plugin's route:
 * redirects to intro-step, needs login (else login) and a selected company (else company select).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { memoryStore } from 'react-admin';
import { ConsoleApp } from '../../../app/App';
import { accountApiRef, createAccountStore, httpApiRef, overrideApi, sessionApiRef, type SessionStore } from '../../../core';
import { createFakeHttp } from '../../../core/testing/fakeHttp';
import { channelsPlugin } from '../index';
import { integrationUser } from './testing/renderIntegration';

let location = '';
function LocationProbe() {
  location = useLocation().pathname;
  return null;
}

function session(signedIn: boolean): SessionStore {
  return {
    getAccessToken: () => (signedIn ? 'access' : null),
    getRefreshToken: () => (signedIn ? 'refresh' : null),
    setTokens: () => undefined,
    clear: () => undefined,
    isExpired: () => false,
  };
}

function renderAt(path: string, options: { signedIn: boolean; company: number | null }) {
  const account = createAccountStore();
  const user = integrationUser();
  if (options.signedIn) account.setUser(user);
  account.selectCompany(options.company);
  const http = createFakeHttp((method, p) => {
    if (p === '/account/user/') return user;
    if (p === '/api/invites/check_email/') return { email: '', has_account: true, invited: false, companies: [] };
    throw new Error(`unexpected ${method} ${p}`);
  });
  render(
    <MemoryRouter initialEntries={[path]}>
      <LocationProbe />
      <ConsoleApp
        plugins={[channelsPlugin]}
        features={['channels']}
        store={memoryStore()}
        overrides={[overrideApi(httpApiRef, http), overrideApi(sessionApiRef, session(options.signedIn)), overrideApi(accountApiRef, account)]}
      />
    </MemoryRouter>,
  );
}

describe('/whatsapp-integration guards', () => {
  beforeEach(() => localStorage.clear());

  it('redirects to intro-step with a session and a company (outside the shell)', async () => {
    renderAt('/whatsapp-integration', { signedIn: true, company: 1 });
    expect(await screen.findByRole('heading', { name: 'Connect your WhatsApp number' })).toBeInTheDocument();
    expect(location).toBe('/whatsapp-integration/intro-step');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
  });

  it('sends a visitor without a session to the login page', async () => {
    renderAt('/whatsapp-integration/start', { signedIn: false, company: null });
    await waitFor(() => expect(location).toBe('/auth/login'));
  });

  it('sends a signed-in user without a company to company select', async () => {
    renderAt('/whatsapp-integration/intro-step', { signedIn: true, company: null });
    await waitFor(() => expect(location).toBe('/company/select'));
  });
});
