// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { createI18nApi, LOCALE_STORAGE_KEY } from './i18n';
import { polyglotToI18next } from './polyglot';

describe('polyglotToI18next', () => {
  it('splits "a |||| b" into plural keys', () => {
    expect(polyglotToI18next({ x: { y: 'one item |||| %{smart_count} items', z: 'plain' } })).toEqual({
      x: { y: 'one item', y_one: 'one item', y_other: '%{smart_count} items', y_many: '%{smart_count} items', y_zero: '%{smart_count} items', z: 'plain' },
    });
  });
});

describe('i18n api', () => {
  beforeEach(() => localStorage.clear());

  it('translates core strings, react-admin messages with plurals and interpolation', () => {
    const { provider } = createI18nApi();
    expect(provider.translate('core.errors.noPermission')).toBe('You do not have permission to access this page.');
    expect(provider.translate('ra.action.save')).toBe('Save');
    expect(provider.translate('ra.navigation.page_range_info', { offsetBegin: 1, offsetEnd: 10, total: 42 })).toBe('1-10 of 42');
    expect(provider.translate('ra.action.bulk_actions', { smart_count: 1 })).toBe('1 item selected');
    expect(provider.translate('ra.action.bulk_actions', { smart_count: 3 })).toBe('3 items selected');
    expect(provider.translate('validation.minLength', { min: 8 })).toBe('Must be at least 8 characters');
  });

  it('uses `_` as the default value and leaves unknown keys alone', () => {
    const { provider } = createI18nApi();
    expect(provider.translate('resources.things.name', { _: 'Things %{n}', n: 2 })).toBe('Things 2');
    expect(provider.translate('Error : something')).toBe('Error : something');
  });

  it('changes and persists the locale, lists locales', async () => {
    const { provider, i18n } = createI18nApi();
    expect(provider.getLocales?.()).toEqual([
      { locale: 'en', name: 'English' },
      { locale: 'fr', name: 'Français' },
    ]);
    await provider.changeLocale('fr');
    expect(provider.getLocale()).toBe('fr');
    expect(localStorage.getItem(LOCALE_STORAGE_KEY)).toBe('fr');
    expect(provider.translate('ra.action.save')).toBe('Enregistrer');
    expect(provider.translate('ra.action.bulk_actions', { smart_count: 2 })).toBe('2 sélectionnés');
    expect(i18n.t('core.empty.title')).toBe('Aucun résultat.');
    expect(createI18nApi().provider.getLocale()).toBe('fr');
  });

  it('merges extra and added resources', () => {
    const api = createI18nApi({ extra: [{ en: { pages: { hello: 'Hello %{name}' } } }] });
    api.addResources({ en: { things: { title: 'Things' } } });
    expect(api.provider.translate('pages.hello', { name: 'Ada' })).toBe('Hello Ada');
    expect(api.i18n.t('things.title')).toBe('Things');
    expect(api.provider.translate('core.empty.title')).toBe('Nothing Found.');
  });

  it('gives plugins\' "one |||| many" names their plural forms, as react-admin asks them with a count', async () => {
    const api = createI18nApi({ extra: [{ en: { resources: { contacts: { name: 'Contact |||| Contacts' } } } }] });
    api.addResources({ en: { resources: { segments: { name: 'Segment |||| Segments' } } } });
    api.registerBundle('tags', { en: async () => ({ resources: { tags: { name: 'Tag |||| Tags' } } }) });
    await api.loadBundles(['tags']);
    const noneFound = (resource: string) =>
      api.provider.translate('ra.navigation.no_filtered_results', {
        name: api.provider.translate(`resources.${resource}.name`, { smart_count: 0 }),
      });
    expect(noneFound('contacts')).toBe('No Contacts found using the current filters.');
    expect(noneFound('segments')).toBe('No Segments found using the current filters.');
    expect(noneFound('tags')).toBe('No Tags found using the current filters.');
    expect(api.provider.translate('resources.contacts.name', { smart_count: 1 })).toBe('Contact');
  });
});

describe('lazy plugin bundles', () => {
  beforeEach(() => localStorage.clear());

  it('loads a bundle for the current language only, once, and the other language on a change', async () => {
    const api = createI18nApi();
    const calls: string[] = [];
    api.registerBundle('things', {
      en: async () => (calls.push('en'), { things: { title: 'Things' } }),
      fr: async () => (calls.push('fr'), { things: { title: 'Choses' } }),
    });
    expect(api.bundlesReady(['things'])).toBe(false);
    expect(api.bundlesReady(['unknown'])).toBe(true); // no loader: nothing to wait for
    await api.loadBundles(['things']);
    await api.loadBundles(['things']);
    expect(calls).toEqual(['en']);
    expect(api.bundlesReady(['things'])).toBe(true);
    expect(api.i18n.t('things.title')).toBe('Things');

    await api.provider.changeLocale('fr'); // an opened bundle is there before the language changes
    expect(calls).toEqual(['en', 'fr']);
    expect(api.provider.translate('things.title')).toBe('Choses');
    expect(api.bundlesReady(['things'])).toBe(true);
  });

  it('a bundle never opened is not loaded on a language change; a failed load is tried again', async () => {
    const api = createI18nApi();
    let fail = true;
    const calls: string[] = [];
    api.registerBundle('closed', { en: async () => (calls.push('closed'), {}), fr: async () => (calls.push('closed'), {}) });
    api.registerBundle('flaky', {
      en: async () => {
        if (fail) throw new Error('offline');
        return { flaky: { ok: 'OK' } };
      },
    });
    await expect(api.loadBundles(['flaky'])).rejects.toThrow('offline');
    fail = false;
    await api.loadBundles(['flaky']);
    expect(api.i18n.t('flaky.ok')).toBe('OK');
    await api.provider.changeLocale('fr');
    expect(calls).toEqual([]);
  });
});
