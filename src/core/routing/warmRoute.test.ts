// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { createI18nApi } from '../i18n/i18n';
import type { ConsolePlugin } from '../plugins/types';
import { lazyPage } from './lazyPage';
import { warmRoute } from './warmRoute';

function Page() {
  return null;
}

/** Plugins as plugins.config.ts gives them: an inbox with a lazy page and strings, the contacts' strings it shows. */
function plugins() {
  const calls: string[] = [];
  let roomReady: () => void = () => undefined;
  const inbox: ConsolePlugin = {
    id: 'inbox',
    routes: [
      { path: '/inbox/:roomId?', name: 'inbox', translationsOf: ['people'], component: lazyPage(() => (calls.push('inbox page'), Promise.resolve({ default: Page, pageReady: new Promise<void>((resolve) => (roomReady = resolve)) }))) },
      { path: '/inbox/settings', name: 'inbox-settings', component: lazyPage(() => (calls.push('settings page'), Promise.resolve({ default: Page }))) },
    ],
    lazyTranslations: {
      en: async () => (calls.push('inbox en'), { inbox: { title: 'Inbox' } }),
      fr: async () => (calls.push('inbox fr'), { inbox: { title: 'Boîte de réception' } }),
    },
  };
  const people: ConsolePlugin = { id: 'people', lazyTranslations: { en: async () => (calls.push('people en'), { people: { name: 'Name' } }) } };
  const other: ConsolePlugin = { id: 'other', routes: [{ path: '/other', name: 'other', component: Page }], lazyTranslations: { en: async () => (calls.push('other en'), {}) } };
  return { list: [inbox, people, other], calls, roomReady: () => roomReady() };
}

describe('warmRoute', () => {
  beforeEach(() => localStorage.clear());

  it("fetches the page a console opens on, its plugin's strings and its translationsOf's in the locale, and waits for the page's pageReady", async () => {
    const { list, calls, roomReady } = plugins();
    let warm = false;
    const done = warmRoute(list, '/inbox/12', 'fr').then(() => (warm = true));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(calls.sort()).toEqual(['inbox fr', 'inbox page', 'people en']); // people has no French: its English
    expect(warm).toBe(false); // the room view is not there yet
    roomReady();
    await done;

    // The i18n API made after it has those strings from the start: the page's PluginStrings does not suspend.
    localStorage.setItem('console.locale', 'fr');
    const api = createI18nApi();
    for (const plugin of list) if (plugin.lazyTranslations) api.registerBundle(plugin.id, plugin.lazyTranslations);
    expect(api.bundlesReady(['inbox', 'people'])).toBe(true);
    expect(api.bundlesReady(['other'])).toBe(false);
    expect(api.i18n.t('inbox.title')).toBe('Boîte de réception');
    await api.loadBundles(['inbox', 'people']);
    expect(calls.filter((c) => c.startsWith('inbox fr'))).toHaveLength(1); // not fetched again
  });

  it('warms the most specific route, and nothing for a path no plugin routes', async () => {
    const { list, calls } = plugins();
    await warmRoute(list, '/inbox/settings', 'en');
    expect(calls.sort()).toEqual(['inbox en', 'settings page']);
    calls.length = 0;
    await warmRoute(list, '/nowhere', 'en');
    expect(calls).toEqual([]);
  });

  it('settles when a chunk fails, leaving the failure to the page', async () => {
    const failing: ConsolePlugin = { id: 'broken', routes: [{ path: '/broken', name: 'broken', component: lazyPage(() => Promise.reject(new Error('chunk'))) }], lazyTranslations: { en: () => Promise.reject(new Error('strings')) } };
    await expect(warmRoute([failing], '/broken', 'en')).resolves.toBeUndefined();
    const api = createI18nApi();
    api.registerBundle('broken', failing.lazyTranslations!);
    expect(api.bundlesReady(['broken'])).toBe(false);
  });
});
