import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { consoleRoutes, pluginPageRoutes, routePattern, routePreloads, routeScore } from '../../scripts/routePreloads.mjs';

const root = path.resolve(import.meta.dirname, '../..');

describe('routePattern', () => {
  it('matches paths as react-router matches the route', () => {
    const chats = new RegExp(routePattern('/chats/:roomId?'));
    expect(['/chats', '/chats/', '/chats/42'].every((p) => chats.test(p))).toBe(true);
    expect(chats.test('/chats/42/more')).toBe(false);
    const wildcard = new RegExp(routePattern('/whatsapp-integration/*'));
    expect(wildcard.test('/whatsapp-integration/step/2')).toBe(true);
    expect(wildcard.test('/whatsapp-integrations')).toBe(false);
    expect(new RegExp(routePattern('/templates/:channelId/:templateId')).test('/templates/3')).toBe(false);
  });

  it('scores static segments above parameters, and a parameter that must be there above one that may not', () => {
    expect(routeScore('/broadcast/broadcast-type')).toBeGreaterThan(routeScore('/broadcast/:id'));
    expect(routeScore('/chats/:roomId')).toBeGreaterThan(routeScore('/chats/:roomId?'));
  });
});

describe('pluginPageRoutes', () => {
  it("reads each configured plugin route with its page module and the strings it waits for, every locale's", () => {
    const routes = pluginPageRoutes(root);
    expect(routes).toContainEqual(['/chats/:roomId?', 'src/plugins/chats/ChatsPage.tsx', ['src/plugins/chats/lazyTranslations.ts', 'src/plugins/contacts/translations.en.ts', 'src/plugins/contacts/translations.fr.ts']]);
    expect(routes).toContainEqual(['/dashboard', 'src/plugins/dashboard/DashboardPage.tsx', ['src/plugins/dashboard/translations.en.ts', 'src/plugins/dashboard/translations.fr.ts', 'src/plugins/stats/translations.en.ts', 'src/plugins/stats/translations.fr.ts']]);
    // A loader importing two modules per locale (the channels' page and its WhatsApp sign-up).
    expect(routes.find(([p]) => p === '/channels')?.[2]).toEqual([
      'src/plugins/channels/translations.en.ts',
      'src/plugins/channels/whatsappIntegration/translations.en.ts',
      'src/plugins/channels/translations.fr.ts',
      'src/plugins/channels/whatsappIntegration/translations.fr.ts',
    ]);
  });

  it("gives a room's link the inbox's modules and the room view's", () => {
    const room = consoleRoutes(root).find(([p]) => p === '/chats/:roomId');
    expect(room).toEqual(['/chats/:roomId', ['src/plugins/chats/ChatsPage.tsx', 'src/plugins/chats/lazyTranslations.ts', 'src/plugins/contacts/translations.en.ts', 'src/plugins/contacts/translations.fr.ts', 'src/plugins/chats/components/RoomView.tsx'], 'shell']);
  });
});

describe('routePreloads', () => {
  const chunk = (fileName: string, imports: string[], facade?: string, isEntry = false) => ({ type: 'chunk' as const, fileName, imports, facadeModuleId: facade ? path.join('/r', facade) : null, isEntry });
  const bundle = Object.fromEntries(
    [
      chunk('assets/index.js', ['assets/react.js'], 'index.html', true),
      chunk('assets/react.js', []),
      chunk('assets/ConsoleShell.js', ['assets/react.js', 'assets/mui.js'], 'src/app/ConsoleShell.tsx'),
      chunk('assets/PublicPages.js', ['assets/react.js', 'assets/mui.js'], 'src/app/PublicPages.tsx'),
      chunk('assets/mui.js', ['assets/react.js']),
      chunk('assets/ChatsPage.js', ['assets/mui.js', 'assets/virtuoso.js'], 'src/plugins/chats/ChatsPage.tsx'),
      chunk('assets/virtuoso.js', []),
    ].map((c) => [c.fileName, c]),
  );

  it('lists per branch and per route the files beyond what index.html and the branch already load', () => {
    const manifest = routePreloads(bundle, '/r', {
      publicPath: '^/auth',
      branches: { public: 'src/app/PublicPages.tsx', shell: 'src/app/ConsoleShell.tsx' },
      routes: [['/chats/:roomId?', 'src/plugins/chats/ChatsPage.tsx', 'shell']],
    });
    expect(manifest.branches).toEqual({ public: ['assets/PublicPages.js', 'assets/mui.js'], shell: ['assets/ConsoleShell.js', 'assets/mui.js'] });
    expect(manifest.routes).toEqual([{ path: '/chats/:roomId?', pattern: routePattern('/chats/:roomId?'), score: routeScore('/chats/:roomId?'), branch: 'shell', files: ['assets/ChatsPage.js', 'assets/virtuoso.js'] }]);
  });

  it("preloads every module of a route's or a branch's list", () => {
    const manifest = routePreloads(bundle, '/r', {
      publicPath: '^/auth',
      branches: { public: 'src/app/PublicPages.tsx', shell: ['src/app/ConsoleShell.tsx', 'src/plugins/chats/ChatsPage.tsx'] },
      routes: [['/chats/:roomId', ['src/plugins/chats/ChatsPage.tsx', 'src/app/PublicPages.tsx'], 'shell']],
    });
    expect(manifest.branches.shell).toEqual(['assets/ChatsPage.js', 'assets/ConsoleShell.js', 'assets/mui.js', 'assets/virtuoso.js']);
    expect(manifest.routes[0].files).toEqual(['assets/PublicPages.js']);
  });

  it('fails the build when a page is not a chunk of its own', () => {
    expect(() => routePreloads(bundle, '/r', { publicPath: '^/auth', branches: {}, routes: [['/x', 'src/X.tsx', 'shell']] })).toThrow(/src\/X.tsx/);
  });
});
