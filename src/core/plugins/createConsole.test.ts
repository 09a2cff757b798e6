// @vitest-environment jsdom
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createApiFactory, createApiRef } from '../di/apiRef';
import { dataProviderApiRef, featureFlagsApiRef, httpApiRef, i18nApiRef, permissionApiRef } from '../apis';
import { createFakeHttp } from '../testing/fakeHttp';
import { createConsole, overrideApi } from './createConsole';
import { createPlugin } from './types';

const Page = () => null;
const greeterRef = createApiRef<{ hello(): string }>({ id: 'plugin.greeter' });

const thingsPlugin = createPlugin({
  id: 'things',
  featureFlag: 'things',
  apis: [createApiFactory({ api: greeterRef, deps: { flags: featureFlagsApiRef }, factory: () => ({ hello: () => 'hi' }) })],
  resources: [{ name: 'things', area: 'stuff', list: Page, apiPath: '/api/stuff/' }],
  routes: [{ path: '/things-report', name: 'things', component: Page }],
  menu: [
    { to: '/things', label: 'things.menu', order: 20 },
    { to: '/things-report', label: 'things.report', order: 10 },
  ],
  translations: { en: { things: { menu: 'Things' } } },
});

describe('createConsole', () => {
  beforeEach(() => localStorage.clear());

  it('collects contributions of enabled plugins and registers their APIs', async () => {
    const onInit = vi.fn();
    const console = createConsole({ plugins: [{ ...thingsPlugin, onInit }], features: ['things'] });
    expect(console.plugins.map((p) => p.id)).toEqual(['things']);
    expect(console.routes.map((r) => r.path)).toEqual(['/things-report']);
    expect(console.resources.map((r) => r.name)).toEqual(['things']);
    expect(console.menu.map((m) => m.to)).toEqual(['/things-report', '/things']);
    expect(console.get(greeterRef).hello()).toBe('hi');
    expect(console.get(i18nApiRef).i18n.t('things.menu')).toBe('Things');
    expect(onInit).toHaveBeenCalledOnce();
    expect(console.get(featureFlagsApiRef).isEnabled('things')).toBe(true);
    // resource areas reach the permission provider; apiPath reaches the data provider
    expect(console.get(permissionApiRef).canAccess({ resource: 'things', action: 'list' })).toBe(true);
  });

  it('a disabled plugin contributes nothing: no routes, resources, menu, APIs, translations', () => {
    const onInit = vi.fn();
    const console = createConsole({ plugins: [{ ...thingsPlugin, onInit }], features: [] });
    expect(console.plugins).toEqual([]);
    expect(console.routes).toEqual([]);
    expect(console.resources).toEqual([]);
    expect(console.menu).toEqual([]);
    expect(console.registry.has(greeterRef)).toBe(false);
    expect(() => console.get(greeterRef)).toThrow(/No implementation/);
    expect(console.get(i18nApiRef).i18n.exists('things.menu')).toBe(false);
    expect(onInit).not.toHaveBeenCalled();
  });

  it('rejects duplicate plugin ids and duplicate API ids', () => {
    expect(() => createConsole({ plugins: [thingsPlugin, { ...thingsPlugin }], features: ['things'] })).toThrow(/registered twice/);
    const clash = createPlugin({ id: 'other', apis: [createApiFactory({ api: greeterRef, deps: {}, factory: () => ({ hello: () => 'x' }) })] });
    expect(() => createConsole({ plugins: [thingsPlugin, clash], features: ['things'] })).toThrow(/already registered/);
    const coreClash = createPlugin({ id: 'evil', apis: [createApiFactory({ api: httpApiRef, deps: {}, factory: () => createFakeHttp(() => null) })] });
    expect(() => createConsole({ plugins: [coreClash], features: [] })).toThrow(/already registered/);
  });

  it('menu entries and resources with an unmet feature requirement are left out', () => {
    const plugin = createPlugin({
      id: 'p',
      resources: [{ name: 'beta', area: 'beta', list: Page, feature: { key: 'beta' } }],
      menu: [{ to: '/a', label: 'a', feature: { key: 'beta', not: true } }, { to: '/b', label: 'b', feature: { key: 'beta' } }],
    });
    const console = createConsole({ plugins: [plugin], features: [] });
    expect(console.resources).toEqual([]);
    expect(console.menu.map((m) => m.to)).toEqual(['/a']);
  });

  it('overrides replace core APIs; the data provider uses plugin api paths', async () => {
    const http = createFakeHttp(() => ({ count: 0, results: [] }));
    const console = createConsole({ plugins: [thingsPlugin], features: ['things'], overrides: [overrideApi(httpApiRef, http)] });
    await console.get(dataProviderApiRef).getList('things', { pagination: { page: 1, perPage: 10 }, sort: { field: 'id', order: 'ASC' }, filter: {} });
    expect(http.calls[0].path).toBe('/api/stuff/');
  });
});
