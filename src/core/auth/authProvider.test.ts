// @vitest-environment jsdom
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createFakeHttp } from '../testing/fakeHttp';
import { createAccountStore } from '../account/accountStore';
import { membership, testUser } from '../account/testUsers';
import { createAlertApi } from '../alert/alertApi';
import { HttpError } from '../http/HttpError';
import { createPermissionProvider } from '../permissions/permissionProvider';
import { createSessionStore } from '../session/sessionStore';
import { tokenValidFor } from '../session/testTokens';
import { chooseCompany, createAuthProvider } from './authProvider';

function setup(handler: (method: string, path: string) => unknown) {
  const session = createSessionStore();
  const account = createAccountStore();
  const alert = createAlertApi();
  const permissions = createPermissionProvider(account);
  const http = createFakeHttp(handler);
  const auth = createAuthProvider({ http, session, account, permissions, alert, translate: (k) => `t:${k}` });
  return { session, account, alert, http, auth, permissions };
}

describe('chooseCompany', () => {
  it('keeps the saved company, else the only one, else none', () => {
    expect(chooseCompany(testUser([membership(1), membership(2)]), 2)).toBe(2);
    expect(chooseCompany(testUser([membership(1)]), 9)).toBe(1);
    expect(chooseCompany(testUser([membership(1), membership(2)]), 9)).toBeNull();
    expect(chooseCompany(testUser([]), null)).toBeNull();
  });
});

describe('auth provider', () => {
  beforeEach(() => localStorage.clear());

  it('logs in: stores tokens and user, selects the only company, redirects to the dashboard', async () => {
    const access = tokenValidFor(3600);
    const { auth, session, account, http } = setup(() => ({ access, refresh: 'r', user: testUser([membership(3)]) }));
    await expect(auth.login({ email: 'a@b.co', password: 'pw' })).resolves.toEqual({ redirectTo: '/dashboard' });
    expect(http.calls[0]).toEqual({ method: 'POST', path: '/account/login/', options: { auth: false, body: { email: 'a@b.co', password: 'pw' } } });
    expect(session.getAccessToken()).toBe(access);
    expect(account.getCompanyId()).toBe(3);
  });

  it('sends users with several companies and no saved one to the company picker', async () => {
    const { auth, account } = setup(() => ({ access: 'a', refresh: 'r', user: testUser([membership(1), membership(2)]) }));
    await expect(auth.login({ email: 'a@b.co', password: 'pw' })).resolves.toEqual({ redirectTo: '/company/select' });
    expect(account.getCompanyId()).toBeNull();
  });

  it('loadUser refreshes the user; a failure alerts and signs out', async () => {
    const ok = setup(() => testUser([membership(4)]));
    await expect(ok.auth.loadUser()).resolves.toMatchObject({ email: 'ada@example.com' });
    expect(ok.account.getCompanyId()).toBe(4);

    localStorage.clear();
    const bad = setup(() => {
      throw new HttpError(500, null, 'Server Error');
    });
    bad.session.setTokens({ access: tokenValidFor(3600), refresh: 'r' });
    const signedOut = vi.fn();
    bad.account.subscribe((e) => e === 'signedOut' && signedOut());
    await expect(bad.auth.loadUser()).rejects.toBeInstanceOf(HttpError);
    expect(bad.alert.getState()).toMatchObject({ active: true, type: 'error', text: 't:core.errors.accountLoad' });
    expect(bad.session.getAccessToken()).toBeNull();
    expect(signedOut).toHaveBeenCalledOnce();
    bad.alert.dismiss();
  });

  it('keeps the session when the account request gets no answer (the page being left, offline)', async () => {
    localStorage.clear();
    const cut = setup(() => {
      throw new TypeError('Failed to fetch');
    });
    cut.session.setTokens({ access: tokenValidFor(3600), refresh: 'r' });
    const signedOut = vi.fn();
    cut.account.subscribe((e) => e === 'signedOut' && signedOut());
    await expect(cut.auth.loadUser()).rejects.toBeInstanceOf(TypeError);
    expect(cut.session.getRefreshToken()).toBe('r');
    expect(cut.alert.getState().active).toBe(false);
    expect(signedOut).not.toHaveBeenCalled();
  });

  it('logs out best effort, clears the session and returns the login path', async () => {
    const { auth, session, account, http } = setup(() => {
      throw new Error('network');
    });
    session.setTokens({ access: tokenValidFor(3600), refresh: 'refresh-token' });
    account.setUser(testUser());
    await expect(auth.logout({})).resolves.toBe('/auth/login');
    expect(http.calls[0]).toMatchObject({ method: 'POST', path: '/account/logout/', options: { body: { refresh: 'refresh-token' } } });
    expect(session.getRefreshToken()).toBeNull();
    expect(account.getUser()).toBeNull();
  });

  it('checkAuth rejects without usable tokens; checkError rejects on 401 only', async () => {
    const { auth, session } = setup(() => null);
    await expect(auth.checkAuth({})).rejects.toEqual({ redirectTo: '/auth/login', message: false });
    session.setTokens({ access: tokenValidFor(3600) });
    await expect(auth.checkAuth({})).resolves.toBeUndefined();
    await expect(auth.checkError(new HttpError(401, null))).rejects.toMatchObject({ redirectTo: '/auth/login' });
    await expect(auth.checkError(new HttpError(403, null))).resolves.toBeUndefined();
    await expect(auth.checkError(new HttpError(500, null))).resolves.toBeUndefined();
  });

  it('exposes identity and canAccess (no getPermissions: react-admin then computes its routes once)', async () => {
    const { auth, account, permissions } = setup(() => null);
    account.setUser(testUser([membership(1, { can_view_members: false })]));
    account.selectCompany(1);
    permissions.setResourceAreas({ invites: 'members' });
    await expect(auth.getIdentity!()).resolves.toMatchObject({ id: 7, fullName: 'Ada Lovelace' });
    expect(auth.getPermissions).toBeUndefined();
    await expect(auth.canAccess!({ resource: 'invites', action: 'list' })).resolves.toBe(false);
    await expect(auth.canAccess!({ resource: 'flows', action: 'list' })).resolves.toBe(true);
  });
});
