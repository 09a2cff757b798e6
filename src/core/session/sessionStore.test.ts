// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { createSessionStore, decodeTokenExpiry, isTokenExpired, ACCESS_TOKEN_KEY } from './sessionStore';
import { fakeJwt } from './testTokens';

const NOW = 1_700_000_000_000;

describe('session store', () => {
  beforeEach(() => localStorage.clear());

  it('persists and clears tokens in localStorage', () => {
    const store = createSessionStore();
    store.setTokens({ access: 'a', refresh: 'r' });
    expect(localStorage.getItem(ACCESS_TOKEN_KEY)).toBe('a');
    expect(store.getRefreshToken()).toBe('r');
    store.setTokens({ access: 'a2' });
    expect(store.getAccessToken()).toBe('a2');
    expect(store.getRefreshToken()).toBe('r'); // a refresh without rotation keeps the old refresh token
    store.clear();
    expect(store.getAccessToken()).toBeNull();
    expect(store.getRefreshToken()).toBeNull();
  });

  it('decodes exp without verifying', () => {
    expect(decodeTokenExpiry(fakeJwt(123))).toBe(123);
    expect(decodeTokenExpiry('garbage')).toBeNull();
    expect(decodeTokenExpiry('a.%%%.c')).toBeNull();
  });

  it('counts a token expiring within 30 s as expired', () => {
    const nowS = NOW / 1000;
    expect(isTokenExpired(fakeJwt(nowS + 31), NOW)).toBe(false);
    expect(isTokenExpired(fakeJwt(nowS + 30), NOW)).toBe(true);
    expect(isTokenExpired(fakeJwt(nowS - 10), NOW)).toBe(true);
    expect(isTokenExpired('not-a-jwt', NOW)).toBe(true);
    expect(isTokenExpired(null, NOW)).toBe(true);
  });

  it('isExpired uses the injected clock', () => {
    const store = createSessionStore(localStorage, () => NOW);
    expect(store.isExpired(fakeJwt(NOW / 1000 + 3600))).toBe(false);
  });
});
