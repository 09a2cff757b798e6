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
 * Each route of the configured plugins with the module its `lazyPage(() => import('./Page'))` opens, read the way
 * bench/bundle reads them: in src/plugins/<id>/index.ts(x), each `path: '…'` and the first `import('…')` after it.
 */
export function pluginPageRoutes(root) {
  const routes = [];
  const pluginsDir = path.join(root, 'src/plugins');
  const configured = readFileSync(path.join(root, 'plugins.config.ts'), 'utf8');
  for (const id of readdirSync(pluginsDir).sort()) {
    if (!configured.includes(`./src/plugins/${id}'`)) continue;
    const indexFile = ['index.ts', 'index.tsx'].map((f) => path.join(pluginsDir, id, f)).find((f) => existsSync(f));
    if (!indexFile) continue;
    for (const part of readFileSync(indexFile, 'utf8').split(/\bpath:\s*/).slice(1)) {
      const routePath = /^'([^']+)'/.exec(part)?.[1];
      const target = /import\(\s*'([^']+)'\s*\)/.exec(part)?.[1];
      if (!routePath || !target) continue;
      const base = path.relative(root, path.resolve(path.dirname(indexFile), target));
      const file = ['.tsx', '.ts', '/index.tsx', '/index.ts'].map((ext) => base + ext).find((f) => existsSync(path.join(root, f)));
      if (file) routes.push([routePath, file.split(path.sep).join('/')]);
    }
  }
  return routes;
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

/** How specific a route is: react-router prefers static segments (`/broadcast/broadcast-type` over `/broadcast/:id`). */
export function routeScore(routePath) {
  return routePath
    .split('/')
    .filter(Boolean)
    .reduce((score, s) => score + (s === '*' ? 0 : s.startsWith(':') ? 1 : 3), 0);
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
 * `bundle` is Rollup's output bundle; `branches` the modules of the two lazy branches; `routes` [path, page module].
 */
export function routePreloads(bundle, root, { publicPath, branches, routes }) {
  const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
  const byModule = (file) => chunks.find((c) => c.facadeModuleId === path.join(root, file))?.fileName;
  const entry = chunks.find((c) => c.isEntry);
  if (!entry) throw new Error('route preloads: no entry chunk');
  const loaded = closure(bundle, [entry.fileName]);
  const beyond = (set, files) => [...closure(bundle, files)].filter((f) => !set.has(f)).sort();
  const branchFiles = {};
  for (const [name, file] of Object.entries(branches)) {
    const fileName = byModule(file);
    if (!fileName) throw new Error(`route preloads: ${file} is not a chunk of the build`);
    branchFiles[name] = beyond(loaded, [fileName]);
  }
  const out = [];
  for (const [routePath, file, branch] of routes) {
    const fileName = byModule(file);
    if (!fileName) throw new Error(`route preloads: ${file} (${routePath}) is not a chunk of the build`);
    const before = new Set([...loaded, ...branchFiles[branch]]);
    out.push({ path: routePath, pattern: routePattern(routePath), score: routeScore(routePath), branch, files: beyond(before, [fileName]) });
  }
  return { publicPath, branches: branchFiles, routes: out };
}
