// @vitest-environment jsdom
/**
 * The plugin contract end to end: a tiny plugin's resource, route and menu entry appear in the
 * real ConsoleApp for a logged-in user with a selected company, and vanish when its flag is off.
 * Also the routing guards: view access, feature requirement, company switch and sign-out.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Link, useLocation } from 'react-router-dom';
import { Datagrid, List, TextField, memoryStore } from 'react-admin';
import { mdiChartBar } from '@mdi/js';
import { ConsoleApp } from '../../src/app/App';
import {
  accountApiRef,
  createAccountStore,
  createPlugin,
  httpApiRef,
  overrideApi,
  sessionApiRef,
  type SessionStore,
} from '../../src/core';
import { createFakeHttp } from '../../src/core/testing/fakeHttp';
import { membership, testUser } from '../../src/core/account/testUsers';

const secretRenders = vi.fn();

function ThingList() {
  return (
    <List>
      <Datagrid bulkActionButtons={false}>
        <TextField source="name" />
      </Datagrid>
    </List>
  );
}
function Report() {
  return (
    <div>
      <h1>Report page</h1>
      <Link to="/secret">open secret</Link>
      <Link to="/beta">open beta</Link>
    </div>
  );
}
function Secret() {
  secretRenders();
  return <h1>Secret page</h1>;
}
const Dashboard = () => <h1>Dashboard page</h1>;
const Beta = () => <h1>Beta page</h1>;

const thingsPlugin = createPlugin({
  id: 'things',
  featureFlag: 'things',
  resources: [{ name: 'things', area: 'things', list: ThingList }],
  routes: [
    { path: '/dashboard', name: 'dashboard', component: Dashboard },
    { path: '/report', name: 'report', component: Report },
    { path: '/secret', name: 'secret', component: Secret },
    { path: '/beta', name: 'beta', component: Beta, feature: { key: 'beta', redirect: '/report' } },
  ],
  menu: [
    { to: '/report', label: 'things.menu.report', icon: mdiChartBar, order: 1 },
    { to: '/things', label: 'things.menu.list', order: 2 },
    { to: '/secret', label: 'things.menu.secret', order: 3 },
  ],
  translations: { en: { things: { menu: { report: 'Report', list: 'Things', secret: 'Secret' } } } },
});

let location = '';
function LocationProbe() {
  location = useLocation().pathname;
  return null;
}

/** Signed in until cleared, as a real sign-out clears the tokens before the account. */
let signedIn = true;
const session: SessionStore = {
  getAccessToken: () => (signedIn ? 'access' : null),
  getRefreshToken: () => (signedIn ? 'refresh' : null),
  setTokens: () => undefined,
  clear: () => {
    signedIn = false;
  },
  isExpired: () => false,
};

const user = testUser([
  membership(1, { can_view_secret: false }, { name: 'Acme' }),
  membership(2, { can_view_things: false, can_view_report: false, can_view_secret: false }, { name: 'Globex' }),
]);

function renderConsole(options: { path: string; features?: string[] }) {
  const account = createAccountStore();
  account.setUser(user);
  account.selectCompany(1);
  const http = createFakeHttp((method, path) => {
    if (path === '/account/user/') return user;
    if (path === '/api/things/') return { count: 2, next: null, previous: null, results: [{ id: 1, name: 'First thing' }, { id: 2, name: 'Second thing' }] };
    throw new Error(`unexpected ${method} ${path}`);
  });
  render(
    <MemoryRouter initialEntries={[options.path]}>
      <LocationProbe />
      <ConsoleApp
        plugins={[thingsPlugin]}
        features={options.features ?? ['things']}
        store={memoryStore()}
        overrides={[overrideApi(httpApiRef, http), overrideApi(sessionApiRef, session), overrideApi(accountApiRef, account)]}
      />
    </MemoryRouter>,
  );
  return { account, http };
}

const menu = () => screen.getByRole('menu');

describe('plugin contract', () => {
  beforeEach(() => {
    localStorage.clear();
    signedIn = true;
    secretRenders.mockClear();
  });

  it("shows an enabled plugin's menu entry, route and resource list", async () => {
    renderConsole({ path: '/dashboard' });
    expect(await screen.findByText('Dashboard page')).toBeInTheDocument();
    expect(screen.getByTestId('company-switcher-name')).toHaveTextContent('Acme');
    // entries the user may view; /secret is denied for company 1
    await waitFor(() => expect(within(menu()).getByText('Report')).toBeInTheDocument());
    expect(within(menu()).getByText('Things')).toBeInTheDocument();
    expect(within(menu()).queryByText('Secret')).not.toBeInTheDocument();

    await userEvent.click(within(menu()).getByText('Report'));
    expect(await screen.findByText('Report page')).toBeInTheDocument();
    expect(location).toBe('/report');

    await userEvent.click(within(menu()).getByText('Things'));
    expect(await screen.findByText('First thing')).toBeInTheDocument();
    expect(screen.getByText('Second thing')).toBeInTheDocument();
    expect(location).toBe('/things');
  });

  it('a plugin whose flag is off contributes nothing', async () => {
    renderConsole({ path: '/report', features: [] });
    await waitFor(() => expect(screen.getByRole('menu')).toBeInTheDocument());
    expect(screen.queryByText('Report page')).not.toBeInTheDocument();
    expect(within(menu()).queryByText('Report')).not.toBeInTheDocument();
    expect(within(menu()).queryByText('Things')).not.toBeInTheDocument();
    expect((await screen.findAllByText(/not found/i)).length).toBeGreaterThan(0);
  });
});

describe('routing guards', () => {
  beforeEach(() => {
    localStorage.clear();
    signedIn = true;
    secretRenders.mockClear();
  });

  it('denies a route without view access: alert, back to the previous path, no flash', async () => {
    renderConsole({ path: '/report' });
    await userEvent.click(await screen.findByText('open secret'));
    expect(await screen.findByText('You do not have permission to access this page.')).toBeInTheDocument();
    await waitFor(() => expect(location).toBe('/report'));
    expect(screen.getByText('Report page')).toBeInTheDocument();
    expect(secretRenders).not.toHaveBeenCalled();
  });

  it('sends a denied first page to the dashboard', async () => {
    renderConsole({ path: '/secret' });
    expect(await screen.findByText('Dashboard page')).toBeInTheDocument();
    expect(location).toBe('/dashboard');
    expect(screen.getByText('You do not have permission to access this page.')).toBeInTheDocument();
    expect(secretRenders).not.toHaveBeenCalled();
  });

  it('redirects a route whose feature requirement is not met', async () => {
    renderConsole({ path: '/report' });
    await userEvent.click(await screen.findByText('open beta'));
    await waitFor(() => expect(location).toBe('/report'));
    expect(screen.queryByText('Beta page')).not.toBeInTheDocument();
  });

  it("after a company switch a route the new company can't view goes to '/'", async () => {
    const { account } = renderConsole({ path: '/things' });
    expect(await screen.findByText('First thing')).toBeInTheDocument();
    act(() => account.selectCompany(2));
    expect(await screen.findByText('Dashboard page')).toBeInTheDocument();
    expect(location).toBe('/dashboard');
    expect(screen.getByTestId('company-switcher-name')).toHaveTextContent('Globex');
    expect(screen.queryByText('You do not have permission to access this page.')).not.toBeInTheDocument();
  });

  it('redirects to /company/select without a company and to /auth/login on sign-out', async () => {
    const { account } = renderConsole({ path: '/report' });
    expect(await screen.findByText('Report page')).toBeInTheDocument();
    act(() => account.selectCompany(null));
    await waitFor(() => expect(location).toBe('/company/select'));
    // Sign-out clears the tokens, then the account (a signed-in user on /auth/* would go back to the console).
    act(() => {
      session.clear();
      account.clear();
    });
    await waitFor(() => expect(location).toBe('/auth/login'));
  });

  it('redirects / to /dashboard', async () => {
    renderConsole({ path: '/' });
    expect(await screen.findByText('Dashboard page')).toBeInTheDocument();
    expect(location).toBe('/dashboard');
  });
});
