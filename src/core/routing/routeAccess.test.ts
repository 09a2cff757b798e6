import { describe, expect, it } from 'vitest';
import type { PluginResource, PluginRoute } from '../plugins/types';
import { fallbackPath, isServedPath, loadedAreas, pathAfterCompanySwitch, routeAreaFor } from './routeAccess';

const C = () => null;
const routes: PluginRoute[] = [
  { path: '/team', name: 'team', component: C },
  { path: '/chats/:roomId?', name: 'chats', component: C },
  { path: '/flows/create', name: 'flows-create', area: 'flows', component: C },
];
const resources: PluginResource[] = [{ name: 'invites', area: 'members' }];

describe('routeAreaFor', () => {
  it('finds the area of plugin routes and resources', () => {
    expect(routeAreaFor('/team', routes, resources)).toBe('team');
    expect(routeAreaFor('/chats/12', routes, resources)).toBe('chats');
    expect(routeAreaFor('/chats', routes, resources)).toBe('chats');
    expect(routeAreaFor('/flows/create', routes, resources)).toBe('flows');
    expect(routeAreaFor('/invites/3/show', routes, resources)).toBe('members');
    expect(routeAreaFor('/unknown', routes, resources)).toBeNull();
  });

  it('answers per table and per path (paths remembered, the oldest forgotten first)', () => {
    // Another console's table is another matcher, though the paths are the same.
    expect(routeAreaFor('/team', [{ path: '/team', name: 'team', area: 'members', component: C }], resources)).toBe('members');
    expect(routeAreaFor('/team', routes, resources)).toBe('team');
    for (let id = 0; id < 600; id++) expect(routeAreaFor(`/chats/${id}`, routes, resources)).toBe('chats');
    expect(routeAreaFor('/chats/0', routes, resources)).toBe('chats');
    expect(routeAreaFor('/unknown', routes, resources)).toBeNull();
    expect(isServedPath('/invites/3?x=1', routes, resources)).toBe(true);
  });
});

describe('fallbackPath', () => {
  const menu = [{ to: '/chats', label: 'c' }, { to: '/team', label: 't' }];
  it('prefers the previous path, then the dashboard, the first viewable menu entry, /account', () => {
    const all = () => true;
    expect(fallbackPath({ current: '/team', previous: '/chats/1', menu, isAllowed: all })).toBe('/chats/1');
    expect(fallbackPath({ current: '/team', previous: null, menu, isAllowed: all })).toBe('/dashboard');
    expect(fallbackPath({ current: '/team', previous: null, menu, isAllowed: (p) => p === '/team' || p === '/chats' })).toBe('/chats');
    expect(fallbackPath({ current: '/team', previous: null, menu, isAllowed: (p) => p === '/account' })).toBe('/account');
  });

  it('never returns the denied path and gives up when nothing is allowed', () => {
    expect(fallbackPath({ current: '/dashboard', previous: '/dashboard', menu: [], isAllowed: (p) => p === '/dashboard' })).toBeNull();
    expect(fallbackPath({ current: '/account', previous: null, menu: [], isAllowed: () => false })).toBeNull();
  });

  it('goes to the dashboard first after a company switch', () => {
    expect(fallbackPath({ current: '/team', previous: '/chats', menu, isAllowed: () => true, companyChanged: true })).toBe('/dashboard');
  });
});

describe('pathAfterCompanySwitch', () => {
  const withIntegration: PluginRoute[] = [...routes, { path: '/whatsapp-integration/*', name: 'wa', area: 'channels', component: C, noLayout: true }];
  it('stays on the page, without the old company\'s ids and query', () => {
    expect(pathAfterCompanySwitch('/team', withIntegration, resources)).toBe('/team');
    expect(pathAfterCompanySwitch('/team?page=2', withIntegration, resources)).toBe('/team');
    expect(pathAfterCompanySwitch('/chats/42', withIntegration, resources)).toBe('/chats');
    expect(pathAfterCompanySwitch('/flows/create', withIntegration, resources)).toBe('/flows/create');
    expect(pathAfterCompanySwitch('/invites/3/show', withIntegration, resources)).toBe('/invites');
    expect(pathAfterCompanySwitch('/whatsapp-integration/start', withIntegration, resources)).toBe('/whatsapp-integration');
  });
  it('goes to the dashboard without a known previous page', () => {
    expect(pathAfterCompanySwitch(null, routes, resources)).toBe('/dashboard');
    expect(pathAfterCompanySwitch('/nowhere', routes, resources)).toBe('/dashboard');
  });
});

describe('loadedAreas and isServedPath', () => {
  it('name only the areas and paths that loaded plugins serve', () => {
    expect([...loadedAreas(routes, resources)].sort()).toEqual(['chats', 'flows', 'members', 'team']); // 'team' is checked as members
    expect(isServedPath('/chats/3', routes, resources)).toBe(true);
    expect(isServedPath('/invites', routes, resources)).toBe(true);
    expect(isServedPath('/templates', routes, resources)).toBe(false);
  });
});
