// @vitest-environment jsdom
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ACCOUNT_STORAGE_KEY, createAccountStore } from './accountStore';
import { membership, testUser } from './testUsers';

describe('account store', () => {
  beforeEach(() => localStorage.clear());

  it('persists user and selected company in full and reloads them', () => {
    const store = createAccountStore();
    store.setUser(testUser([membership(1), membership(2)]));
    store.selectCompany(2);
    expect(JSON.parse(localStorage.getItem(ACCOUNT_STORAGE_KEY)!)).toMatchObject({ companyId: 2, user: { email: 'ada@example.com' } });
    const reloaded = createAccountStore();
    expect(reloaded.getCompanyId()).toBe(2);
    expect(reloaded.getCompany()?.name).toBe('Company 2');
  });

  it('emits companyChanged, userChanged and signedOut', () => {
    const store = createAccountStore();
    const listener = vi.fn();
    const unsubscribe = store.subscribe(listener);
    store.setUser(testUser());
    store.selectCompany(1);
    store.clear();
    expect(listener.mock.calls.map((c) => c[0])).toEqual(['userChanged', 'companyChanged', 'signedOut']);
    expect(store.getUser()).toBeNull();
    expect(store.getCompanyId()).toBeNull();
    unsubscribe();
    store.selectCompany(1);
    expect(listener).toHaveBeenCalledTimes(3);
  });

  it('an equal user keeps the stored object (no re-render of its readers) and still says it was loaded', () => {
    const store = createAccountStore();
    store.setUser(testUser([membership(1)]));
    const first = store.getUser();
    const listener = vi.fn();
    store.subscribe(listener);
    store.setUser(testUser([membership(1)]));
    expect(store.getUser()).toBe(first);
    expect(listener).toHaveBeenCalledWith('userChanged');
    store.setUser(testUser([membership(1), membership(2)]));
    expect(store.getUser()).not.toBe(first);
    expect(store.getUser()?.companies).toHaveLength(2);
  });

  it('returns no company when the selected id is not among the memberships', () => {
    const store = createAccountStore();
    store.setUser(testUser([membership(1)]));
    store.selectCompany(9);
    expect(store.getCompany()).toBeNull();
  });

  it('treats a corrupt entry as no account', () => {
    localStorage.setItem(ACCOUNT_STORAGE_KEY, '{oops');
    expect(createAccountStore().getUser()).toBeNull();
  });
});
