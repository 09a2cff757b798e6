// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { AlertHost } from '../../core/alert/AlertHost';
import { createAlertApi } from '../../core/alert/alertApi';
import { createAccountStore } from '../../core/account/accountStore';
import { membership, testUser } from '../../core/account/testUsers';
import { createConfig } from '../../core/config/config';
import { ApiProvider } from '../../core/di/ApiProvider';
import { createHttpProvider } from '../../core/http/httpProvider';
import { createPermissionProvider } from '../../core/permissions/permissionProvider';
import { createConsole } from '../../core/plugins/createConsole';
import { alertApiRef } from '../../core';
import { createSessionStore } from '../../core/session/sessionStore';
import { tokenValidFor } from '../../core/session/testTokens';
import { listenToPlanLimits } from './planLimitAlert';

const LIMIT = {
  detail: 'The Free plan allows 25 team members. Upgrade to Starter to add more.',
  code: 'plan_limit_reached',
  limit: 'members',
  max: 25,
  plan: 'Free',
  upgrade_plan: 'Starter',
};

function setup(permissions: Record<string, boolean>, answer: { status: number; body: unknown }) {
  const account = createAccountStore();
  account.setUser(testUser([membership(1, permissions)]));
  account.selectCompany(1);
  const fetch = vi.fn<typeof globalThis.fetch>(async () => new Response(JSON.stringify(answer.body), { status: answer.status, headers: { 'Content-Type': 'application/json' } }));
  const session = createSessionStore();
  session.setTokens({ access: tokenValidFor(3600), refresh: tokenValidFor(7200) });
  const http = createHttpProvider({ config: createConfig({}, { apiBase: 'https://api.test' }), session, account, translate: (k) => k, fetch });
  const alert = createAlertApi();
  const show = vi.spyOn(alert, 'show');
  const stop = listenToPlanLimits({ http, alert, permissions: createPermissionProvider(account), translate: (k) => `t:${k}`, later: (fn) => fn() });
  return { http, alert, show, stop };
}

describe('plan limits on any page', () => {
  it("shows the server's message with a link to /pricing to a member who may view billing", async () => {
    const { http, alert } = setup({ can_view_billing: true }, { status: 403, body: LIMIT });
    await expect(http.post('/api/invites/bulk/', {})).rejects.toMatchObject({ status: 403 });
    expect(alert.getState()).toMatchObject({ active: true, type: 'error', text: LIMIT.detail, action: { label: 't:billing.limit.seePlans', to: '/pricing' } });
  });

  it('tells a member without billing access to ask an admin, with no link', async () => {
    const { http, alert } = setup({ can_view_billing: false }, { status: 403, body: LIMIT });
    await expect(http.post('/api/bots/', {})).rejects.toMatchObject({ status: 403 });
    expect(alert.getState()).toMatchObject({ active: true, text: `${LIMIT.detail} t:billing.limit.askAdmin` });
    expect(alert.getState().action).toBeUndefined();
  });

  it('leaves other refusals to the page, and stops listening when asked', async () => {
    const { http, show, stop } = setup({ can_view_billing: true }, { status: 403, body: { detail: 'You do not have permission to perform this action.' } });
    await expect(http.get('/api/things/')).rejects.toMatchObject({ status: 403 });
    expect(show).not.toHaveBeenCalled();
    stop();
  });

  it("the alert's link goes to /pricing", () => {
    const console = createConsole({ plugins: [], features: [] });
    console.get(alertApiRef).show(LIMIT.detail, 'error', { action: { label: 'See plans', to: '/pricing' } });
    render(
      <ApiProvider registry={console.registry}>
        <MemoryRouter>
          <AlertHost />
        </MemoryRouter>
      </ApiProvider>,
    );
    expect(screen.getByTestId('alert-text').textContent).toBe(LIMIT.detail);
    expect(screen.getByRole('link', { name: 'See plans' }).getAttribute('href')).toBe('/pricing');
  });
});
