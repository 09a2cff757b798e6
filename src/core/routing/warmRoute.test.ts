// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18nApiRef } from '../apis';
import { createAccountStore } from '../account/accountStore';
import { membership, testUser } from '../account/testUsers';
import { createConsole } from '../plugins/createConsole';
import type { ConsolePlugin, RoutePrefetchContext } from '../plugins/types';
import { createSessionStore } from '../session/sessionStore';
import { tokenValidFor } from '../session/testTokens';
import { deferred } from '../testing/deferred';
import { lazyPage } from './lazyPage';
import { warmRoute } from './warmRoute';

function Page() {
  return null;
}

/** An inbox with a lazy page, its strings, a prefetch and the contacts' strings it shows; another page beside it. */
function setUp() {
  const calls: string[] = [];
  const room = deferred<void>();
  const thread = deferred<void>();
  const prefetch = vi.fn((context: RoutePrefetchContext) => {
    calls.push(`prefetch ${context.params.roomId ?? ''}`);
    return thread.promise;
  });
  const inbox: ConsolePlugin = {
    id: 'inbox',
    routes: [
      { path: '/inbox/:roomId?', name: 'inbox', translationsOf: ['people'], prefetch, component: lazyPage(() => (calls.push('inbox page'), Promise.resolve({ default: Page, pageReady: room.promise }))) },
      { path: '/inbox/settings', name: 'settings', component: lazyPage(() => (calls.push('settings page'), Promise.resolve({ default: Page }))) },
    ],
    appBarItems: [{ id: 'bell', area: 'inbox', component: lazyPage(() => (calls.push('bell'), Promise.resolve({ default: Page }))) }],
    lazyTranslations: {
      en: async () => (calls.push('inbox en'), { inbox: { title: 'Inbox' } }),
      fr: async () => (calls.push('inbox fr'), { inbox: { title: 'Boîte de réception' } }),
    },
  };
  const people: ConsolePlugin = { id: 'people', lazyTranslations: { en: async () => (calls.push('people en'), { people: { name: 'Name' } }) } };
  const paid: ConsolePlugin = { id: 'paid', routes: [{ path: '/paid', name: 'paid', feature: { key: 'paid' }, prefetch, component: Page }] };
  const console = createConsole({ plugins: [inbox, people, paid], features: [] });
  return { console, calls, prefetch, roomReady: room.resolve, threadShown: thread.resolve };
}

function signIn(permissions: Record<string, boolean> = {}) {
  createSessionStore().setTokens({ access: tokenValidFor(600) });
  const account = createAccountStore();
  account.setUser(testUser([membership(1, permissions)]));
  account.selectCompany(1);
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('warmRoute', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => vi.useRealTimers());

  it("asks for the page a console opens on, its strings and its translationsOf's in the locale, its prefetch, the app bar's lazy items, and waits for all", async () => {
    localStorage.setItem('console.locale', 'fr');
    signIn();
    const { console, calls, prefetch, roomReady, threadShown } = setUp();
    let warm = false;
    const done = warmRoute(console, '/inbox/12').then(() => (warm = true));
    await settle();
    expect(calls.sort()).toEqual(['bell', 'inbox fr', 'inbox page', 'people en', 'prefetch 12']); // people has no French: its English
    expect(prefetch.mock.calls[0][0].get(i18nApiRef)).toBe(console.get(i18nApiRef));
    // The page's strings are there for its first render (PluginStrings does not suspend).
    expect(console.get(i18nApiRef).bundlesReady(['inbox', 'people'])).toBe(true);
    expect(console.get(i18nApiRef).i18n.t('inbox.title')).toBe('Boîte de réception');

    roomReady(); // the room view's code
    await settle();
    expect(warm).toBe(false); // the thread has not come
    threadShown();
    await done;
    expect(prefetch.mock.calls[0][0].signal.aborted).toBe(true); // done waiting: a prefetch lets go of what it watched
  });

  it('stops waiting after its limit', async () => {
    vi.useFakeTimers();
    signIn();
    const { console } = setUp();
    let warm = false;
    void warmRoute(console, '/inbox/12', 1000).then(() => (warm = true));
    await vi.advanceTimersByTimeAsync(999);
    expect(warm).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(warm).toBe(true);
  });

  it('warms the most specific route, nothing for a path no plugin routes', async () => {
    signIn();
    const { console, calls } = setUp();
    await warmRoute(console, '/inbox/settings');
    expect(calls.sort()).toEqual(['bell', 'inbox en', 'settings page']);
    calls.length = 0;
    const other = setUp();
    await warmRoute(other.console, '/nowhere');
    expect(other.calls).toEqual(['bell']); // the app bar, on any page
  });

  it('asks for nothing the guards would not show: signed out, without view access, a feature off', async () => {
    const { console, prefetch, calls } = setUp();
    void warmRoute(console, '/inbox/12', 10);
    await settle();
    expect(prefetch).not.toHaveBeenCalled(); // signed out
    expect(calls).not.toContain('bell');

    signIn({ can_view_inbox: false });
    const denied = setUp();
    void warmRoute(denied.console, '/inbox/12', 10);
    const featureOff = setUp();
    void warmRoute(featureOff.console, '/paid', 10);
    await settle();
    expect(denied.prefetch).not.toHaveBeenCalled();
    expect(denied.calls).not.toContain('bell');
    expect(featureOff.prefetch).not.toHaveBeenCalled();
  });

  it('settles when a chunk or the strings fail, leaving the failure to the page', async () => {
    signIn();
    const broken: ConsolePlugin = { id: 'broken', routes: [{ path: '/broken', name: 'broken', component: lazyPage(() => Promise.reject(new Error('chunk'))) }], lazyTranslations: { en: () => Promise.reject(new Error('strings')) } };
    const console = createConsole({ plugins: [broken], features: [] });
    await expect(warmRoute(console, '/broken')).resolves.toBeUndefined();
    expect(console.get(i18nApiRef).bundlesReady(['broken'])).toBe(false);
  });
});
