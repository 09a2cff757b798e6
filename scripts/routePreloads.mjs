// What the console's first load of a path fetches beyond the entry, for the server to preload from the HTML
// (issue #26: the JavaScript arrived in three serial steps, entry → shell or sign-in pages → the page).
// vite.config.ts writes `route-preloads.json` beside index.html with `routePreloads(...)`; the server's SPA
// fallback (server/core/routePreloads.ts) adds a `<link rel="modulepreload">` per file for the path asked.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The signed-out pages of src/app/PublicPages.tsx and their modules (src/app/lazyPages.ts). */
export const PUBLIC_PAGE_ROUTES = [
  ['/auth/login', 'src/app/pages/auth/LoginPage.tsx'],
  ['/auth/register', 'src/app/pages/auth/RegisterPage.tsx'],
  ['/auth/reset-password', 'src/app/pages/auth/ResetPasswordRequestPage.tsx'],
  ['/auth/reset-password/:token', 'src/app/pages/auth/ResetPasswordConfirmPage.tsx'],
  ['/auth/signup/check-email', 'src/app/pages/signup/SignupCheckEmailPage.tsx'],
  ['/auth/signup/create-account', 'src/app/pages/signup/SignupCreateAccountPage.tsx'],
  ['/auth/signup/verify-account-email', 'src/app/pages/signup/SignupVerifyEmailPage.tsx'],
  ['/sandbox/:key', 'src/app/pages/sandbox/SandboxSimulatorPage.tsx'],
];

/**
 * Paths whose page opens a lazy part of its own at once: [path, the plugin route it narrows, the part's modules]. A
 * room's link (`/chats/12`, from a notification) shows the room view beside the list (src/plugins/chats/ChatsPage.tsx's
 * `lazyPage` of RoomView), whose code was fetched only once the inbox had run (issue #26). The path is more specific
 * than the route's own (`/chats/:roomId?`), so it is the one chosen for it.
 */
export const NESTED_PAGE_ROUTES = [['/chats/:roomId', '/chats/:roomId?', ['src/plugins/chats/components/RoomView.tsx']]];

/**
 * Lazy parts the shell shows on every page, preloaded with its branch: the chats plugin's app bar bell
 * (src/plugins/chats/index.tsx), fetched while the shell's first render waits (core's warmRoute).
 */
export const SHELL_PARTS = ['src/plugins/chats/notifications/NotificationBell.tsx'];

/** A module named by an `import('…')` in `fromFile`, as a path from the root (null if there is no such file). */
function moduleFile(root, fromFile, specifier) {
  const base = path.relative(root, path.resolve(path.dirname(fromFile), specifier));
  const file = ['', '.tsx', '.ts', '/index.tsx', '/index.ts'].map((ext) => base + ext).find((f) => /\.tsx?$/.test(f) && existsSync(path.join(root, f)));
  return file ? file.split(path.sep).join('/') : null;
}

const IMPORT = /import\(\s*'([^']+)'\s*\)/g;

/** The modules of a plugin's `lazyTranslations: { en: () => import('…'), fr: … }`, every locale's. */
function lazyStringModules(root, indexFile, source) {
  const start = source.indexOf('lazyTranslations:');
  if (start < 0) return [];
  let end = source.indexOf('{', start);
  for (let depth = 0; end < source.length; end++) {
    if (source[end] === '{') depth++;
    else if (source[end] === '}' && --depth === 0) break;
  }
  return [...source.slice(start, end).matchAll(IMPORT)].map((m) => moduleFile(root, indexFile, m[1])).filter(Boolean);
}

/**
 * Each route of the configured plugins: [path, the module its `lazyPage(() => import('./Page'))` opens, the modules
 * of the strings the route waits for (its plugin's lazyTranslations and its `translationsOf` plugins', every locale:
 * src/core/routing/pluginRoutes.tsx renders the page once they are there)]. Read the way bench/bundle reads them: in
 * src/plugins/<id>/index.ts(x), each `path: '…'`, the first `import('…')` after it and the route object around it.
 */
export function pluginPageRoutes(root) {
  const pluginsDir = path.join(root, 'src/plugins');
  const configured = readFileSync(path.join(root, 'plugins.config.ts'), 'utf8');
  const plugins = new Map();
  for (const id of readdirSync(pluginsDir).sort()) {
    if (!configured.includes(`./src/plugins/${id}'`)) continue;
    const indexFile = ['index.ts', 'index.tsx'].map((f) => path.join(pluginsDir, id, f)).find((f) => existsSync(f));
    if (indexFile) plugins.set(id, { indexFile, source: readFileSync(indexFile, 'utf8') });
  }
  const strings = (id) => {
    const plugin = plugins.get(id);
    return plugin ? lazyStringModules(root, plugin.indexFile, plugin.source) : [];
  };
  const routes = [];
  for (const [id, { indexFile, source }] of plugins) {
    for (const part of source.split(/\bpath:\s*/).slice(1)) {
      const routePath = /^'([^']+)'/.exec(part)?.[1];
      const target = new RegExp(IMPORT.source).exec(part);
      if (!routePath || !target) continue;
      const file = moduleFile(root, indexFile, target[1]);
      if (!file) continue;
      // The route object: up to the brace closing it after its page's import (its keys come before that).
      const route = part.slice(0, part.indexOf('}', target.index));
      const others = (/translationsOf:\s*\[([^\]]*)\]/.exec(route)?.[1] ?? '').match(/[\w-]+/g) ?? [];
      routes.push([routePath, file, [...new Set([id, ...others].flatMap(strings))]]);
    }
  }
  return routes;
}

/**
 * The console's routes for `routePreloads`: the signed-out pages, each plugin route with its strings, the nested paths.
 */
export function consoleRoutes(root) {
  const plugin = pluginPageRoutes(root);
  const nested = NESTED_PAGE_ROUTES.map(([routePath, of, parts]) => {
    const base = plugin.find(([p]) => p === of);
    if (!base) throw new Error(`route preloads: ${routePath} narrows ${of}, which no configured plugin declares`);
    return [routePath, [base[1], ...base[2], ...parts], 'shell'];
  });
  return [
    ...PUBLIC_PAGE_ROUTES.map(([routePath, file]) => [routePath, file, 'public']),
    ...plugin.map(([routePath, file, strings]) => [routePath, [file, ...strings], 'shell']),
    ...nested,
  ];
}

/** A react-router path (`/chats/:roomId?`, `/whatsapp-integration/*`) as a regular expression's source. */
export function routePattern(routePath) {
  const segments = routePath.split('/').filter(Boolean);
  const source = segments
    .map((s) => {
      if (s === '*') return '(?:/.*)?';
      if (s.startsWith(':')) return s.endsWith('?') ? '(?:/[^/]+)?' : '/[^/]+';
      return '/' + s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('');
  return `^${source}/?$`;
}

/**
 * How specific a route is: react-router prefers static segments (`/broadcast/broadcast-type` over `/broadcast/:id`),
 * and a parameter that must be there over one that may not (`/chats/:roomId` over `/chats/:roomId?`).
 */
export function routeScore(routePath) {
  return routePath
    .split('/')
    .filter(Boolean)
    .reduce((score, s) => score + (s === '*' ? 0 : s.startsWith(':') ? (s.endsWith('?') ? 0.5 : 1) : 3), 0);
}

/** The files a set of chunks loads before running: themselves and their static imports. */
function closure(bundle, fileNames) {
  const seen = new Set();
  const stack = [...fileNames];
  while (stack.length) {
    const fileName = stack.pop();
    const chunk = bundle[fileName];
    if (seen.has(fileName) || !chunk || chunk.type !== 'chunk') continue;
    seen.add(fileName);
    stack.push(...chunk.imports);
  }
  return seen;
}

/**
 * The preload manifest of a build: for each branch of src/app/main.tsx (the signed-out pages, the shell) and each
 * route's page, the chunk files it loads that index.html does not already (the entry's static imports).
 * `bundle` is Rollup's output bundle; `branches` the module (or modules) of each lazy branch; `routes` [path, page
 * module or modules, branch].
 */
export function routePreloads(bundle, root, { publicPath, branches, routes }) {
  const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
  const byModule = (file) => chunks.find((c) => c.facadeModuleId === path.join(root, file))?.fileName;
  const entry = chunks.find((c) => c.isEntry);
  if (!entry) throw new Error('route preloads: no entry chunk');
  const loaded = closure(bundle, [entry.fileName]);
  const beyond = (set, files) => [...closure(bundle, files)].filter((f) => !set.has(f)).sort();
  const branchFiles = {};
  for (const [name, modules] of Object.entries(branches)) {
    const fileNames = [modules].flat().map((file) => {
      const fileName = byModule(file);
      if (!fileName) throw new Error(`route preloads: ${file} is not a chunk of the build`);
      return fileName;
    });
    branchFiles[name] = beyond(loaded, fileNames);
  }
  const out = [];
  for (const [routePath, modules, branch] of routes) {
    const fileNames = [modules].flat().map((file) => {
      const fileName = byModule(file);
      if (!fileName) throw new Error(`route preloads: ${file} (${routePath}) is not a chunk of the build`);
      return fileName;
    });
    const before = new Set([...loaded, ...branchFiles[branch]]);
    out.push({ path: routePath, pattern: routePattern(routePath), score: routeScore(routePath), branch, files: beyond(before, fileNames) });
  }
  return { publicPath, branches: branchFiles, routes: out };
}
