import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { preloadsFor, routePreloadsReader, withPreloads, type RoutePreloadsManifest } from './routePreloads';

const MANIFEST: RoutePreloadsManifest = {
  publicPath: '^/(auth|sandbox)(/|$)',
  branches: { public: ['assets/PublicPages-1.js'], shell: ['assets/ConsoleShell-2.js', 'assets/style-3.js'] },
  routes: [
    { path: '/auth/login', pattern: '^/auth/login/?$', score: 6, branch: 'public', files: ['assets/LoginPage-4.js'] },
    { path: '/chats/:roomId?', pattern: '^/chats(?:/[^/]+)?/?$', score: 4, branch: 'shell', files: ['assets/ChatsPage-5.js', 'assets/Tabs-6.js'] },
    { path: '/broadcast/broadcast-type', pattern: '^/broadcast/broadcast-type/?$', score: 6, branch: 'shell', files: ['assets/BroadcastTypePage-7.js'] },
    { path: '/broadcast/:id', pattern: '^/broadcast/[^/]+/?$', score: 4, branch: 'shell', files: ['assets/BroadcastDetailPage-8.js'] },
    { path: '/bad', pattern: '^/bad/?$', score: 3, branch: 'shell', files: ['assets/x.js"><script>alert(1)</script>.js'] },
  ],
};

describe('preloadsFor', () => {
  it('gives the branch of the path, then the files of the route matching it', () => {
    expect(preloadsFor(MANIFEST, '/chats/42')).toEqual(['assets/ConsoleShell-2.js', 'assets/style-3.js', 'assets/ChatsPage-5.js', 'assets/Tabs-6.js']);
    expect(preloadsFor(MANIFEST, '/chats')).toEqual(['assets/ConsoleShell-2.js', 'assets/style-3.js', 'assets/ChatsPage-5.js', 'assets/Tabs-6.js']);
    expect(preloadsFor(MANIFEST, '/auth/login')).toEqual(['assets/PublicPages-1.js', 'assets/LoginPage-4.js']);
  });

  it('prefers the most specific route, as react-router does', () => {
    expect(preloadsFor(MANIFEST, '/broadcast/broadcast-type')).toEqual(['assets/ConsoleShell-2.js', 'assets/style-3.js', 'assets/BroadcastTypePage-7.js']);
    expect(preloadsFor(MANIFEST, '/broadcast/12')).toEqual(['assets/ConsoleShell-2.js', 'assets/style-3.js', 'assets/BroadcastDetailPage-8.js']);
  });

  it('gives the branch alone for a path no page route matches', () => {
    expect(preloadsFor(MANIFEST, '/company/select')).toEqual(['assets/ConsoleShell-2.js', 'assets/style-3.js']);
    expect(preloadsFor(MANIFEST, '/auth/signup/nowhere')).toEqual(['assets/PublicPages-1.js']);
  });

  it('never writes a file name that is not a plain chunk name', () => {
    expect(preloadsFor(MANIFEST, '/bad')).toEqual(['assets/ConsoleShell-2.js', 'assets/style-3.js']);
  });
});

describe('withPreloads', () => {
  it('adds a module preload per file before </head>', () => {
    const html = withPreloads('<html><head><title>x</title></head><body></body></html>', ['assets/a-1.js', 'assets/b-2.js']);
    expect(html).toContain('<link rel="modulepreload" crossorigin href="/assets/a-1.js">');
    expect(html.indexOf('/assets/b-2.js')).toBeLessThan(html.indexOf('</head>'));
    expect(withPreloads('<html></html>', ['assets/a-1.js'])).toBe('<html></html>');
  });
});

describe('routePreloadsReader', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'route-preloads-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is null without the build manifest, and reads both files again when one changes', () => {
    writeFileSync(path.join(dir, 'index.html'), '<head></head>');
    const read = routePreloadsReader(dir);
    expect(read()).toBeNull();
    writeFileSync(path.join(dir, 'route-preloads.json'), JSON.stringify(MANIFEST));
    expect(read()?.manifest.branches.public).toEqual(['assets/PublicPages-1.js']);
    writeFileSync(path.join(dir, 'index.html'), '<head>new</head>');
    const later = new Date(Date.now() + 5_000);
    utimesSync(path.join(dir, 'index.html'), later, later);
    expect(read()?.html).toBe('<head>new</head>');
  });
});
