import { describe, expect, it } from 'vitest';
import { createAccountStore } from './accountStore';
import { membership, testUser } from './testUsers';
import { createFakeHttp } from '../testing/fakeHttp';
import type { SessionStore } from '../apis';
import { ACCOUNT_REFRESH_MS, FRESH_USER_MS, startAccountRefresh } from './accountRefresh';
import { memoryStorage } from '../testing/memoryStorage';

const session = (signedIn: boolean) => ({ getAccessToken: () => (signedIn ? 'a' : null), getRefreshToken: () => (signedIn ? 'r' : null) }) as SessionStore;
const flush = () => new Promise((r) => setTimeout(r, 0));

describe('startAccountRefresh', () => {
  it('reloads the user when a company is selected, keeping the fresh permissions', async () => {
    const account = createAccountStore(memoryStorage());
    const fresh = testUser([membership(1, { can_view_dashboard: false }), membership(2)]);
    const http = createFakeHttp(() => fresh);
    let clock = 0;
    startAccountRefresh({ account, http, session: session(true), now: () => clock });
    account.setUser(testUser([membership(1), membership(2)]));
    clock += FRESH_USER_MS + 1;
    account.selectCompany(1);
    await flush();
    expect(http.calls.map((c) => c.path)).toEqual(['/account/user/']);
    expect(account.getCompany()?.permissions).toEqual({ can_view_dashboard: false });
  });

  it('skips the reload right after the user was loaded (login), when signed out, and on no company', async () => {
    const account = createAccountStore(memoryStorage());
    const http = createFakeHttp(() => testUser());
    let clock = 0;
    startAccountRefresh({ account, http, session: session(true), now: () => clock });
    account.setUser(testUser());
    account.selectCompany(1); // login: the user was just loaded
    clock += FRESH_USER_MS + 1;
    account.selectCompany(null);
    await flush();
    expect(http.calls).toHaveLength(0);

    const other = createAccountStore(memoryStorage());
    startAccountRefresh({ account: other, http, session: session(false), now: () => 10 * FRESH_USER_MS });
    other.selectCompany(1);
    await flush();
    expect(http.calls).toHaveLength(0);
  });

  it('ignores failures', async () => {
    const account = createAccountStore(memoryStorage());
    const http = createFakeHttp(() => {
      throw new Error('offline');
    });
    startAccountRefresh({ account, http, session: session(true), now: () => 10 * FRESH_USER_MS });
    account.setUser(testUser());
    account.selectCompany(1);
    await flush();
    expect(account.getCompany()?.id).toBe(1);
  });

  it('on navigation, refreshes a stale account in the background, at most one call at a time', async () => {
    const account = createAccountStore(memoryStorage());
    const http = createFakeHttp(() => testUser([membership(1, { can_view_members: true })]));
    let clock = 0;
    const refresher = startAccountRefresh({ account, http, session: session(true), now: () => clock });
    account.setUser(testUser([membership(1)]));
    account.selectCompany(1);
    refresher.onNavigate(); // fresh: nothing to do
    await flush();
    expect(http.calls).toHaveLength(0);

    clock += ACCOUNT_REFRESH_MS;
    refresher.onNavigate();
    refresher.onNavigate();
    await flush();
    expect(http.calls.map((c) => c.path)).toEqual(['/account/user/']);
    expect(account.getCompany()?.permissions).toEqual({ can_view_members: true });
    refresher.dispose();
  });
});
